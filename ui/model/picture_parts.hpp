#pragma once
// Pieces the pictures of a model share (model_picture.cpp, step_picture.cpp): a map of values
// in 0..1 as an image, and the 0..1 colour scale beside it.

#include <qcustomplot.h>

#include <QColor>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <QRect>
#include <QString>
#include <cmath>
#include <cstdint>

#include "render/colormaps.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

/// One (rows × cols) map of values in 0..1 as an image, one pixel per cell; `value(r, c)`.
template <typename Value>
QImage cellImage(std::int64_t rows, std::int64_t cols, const QCPColorGradient& gradient,
                 Colormap map, Value value) {
  QImage image(static_cast<int>(cols), static_cast<int>(rows), QImage::Format_RGB32);
  const QCPRange range(0.0, 1.0);
  for (std::int64_t r = 0; r < rows; ++r) {
    auto* line = reinterpret_cast<QRgb*>(image.scanLine(static_cast<int>(r)));
    for (std::int64_t c = 0; c < cols; ++c) {
      const double v = value(r, c);
      line[c] = std::isnan(v) ? nanColor(map).rgb()
                              : const_cast<QCPColorGradient&>(gradient).color(v, range);
    }
  }
  return image;
}

/// Width of the colour scale drawScale draws: its bar, a gap and the widest tick label.
int scaleWidth(const QFontMetrics& fm);

/// The 0..1 colour scale: `title` above a vertical bar in `bar` (1 at the top), ticks at
/// quarters to its right.
void drawScale(QPainter& p, const QRect& bar, const QCPColorGradient& gradient, Colormap map,
               const QColor& ink, const QString& title);

}  // namespace mhaviz::ui
