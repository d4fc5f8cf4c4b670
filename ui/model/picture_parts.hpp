#pragma once
// Pieces the pictures of a model share (model_picture.cpp, step_picture.cpp): a map of values
// in 0..1 as an image, the 0..1 colour scale beside it, and token labels along a map's side.

#include <qcustomplot.h>

#include <QColor>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <QRect>
#include <QString>
#include <QStringList>
#include <cmath>
#include <cstdint>
#include <vector>

#include "render/colormaps.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

/// A gradient's colours over 0..1 as a table: the colour of `v` is the one
/// QCPColorGradient::color(v, QCPRange(0, 1)) gives (its level int(v · (levels − 1)), clamped),
/// without a library call per cell (144 maps of 512 × 512 cells: that call was the largest part
/// of colouring a model's grid). Not for NaN (the callers colour it themselves).
class GradientTable {
 public:
  explicit GradientTable(const QCPColorGradient& gradient);
  [[nodiscard]] QRgb operator()(double v) const {
    const double x = v * m_top;
    if (!(x < m_levels)) return m_colors.back();  // above the last level (and +inf)
    if (!(x > 0)) return m_colors.front();       // int() of (-1, 0] is level 0 as well
    return m_colors[static_cast<std::size_t>(x)];
  }

 private:
  std::vector<QRgb> m_colors;
  double m_top = 0;     // levels − 1
  double m_levels = 0;  // levels
};

/// One (rows × cols) map of values in 0..1 as an image, one pixel per cell; `value(r, c)`.
template <typename Value>
QImage cellImage(std::int64_t rows, std::int64_t cols, const QCPColorGradient& gradient,
                 Colormap map, Value value) {
  QImage image(static_cast<int>(cols), static_cast<int>(rows), QImage::Format_RGB32);
  const GradientTable table(gradient);
  const QRgb nan = nanColor(map).rgb();
  for (std::int64_t r = 0; r < rows; ++r) {
    auto* line = reinterpret_cast<QRgb*>(image.scanLine(static_cast<int>(r)));
    for (std::int64_t c = 0; c < cols; ++c) {
      const double v = value(r, c);
      line[c] = std::isnan(v) ? nan : table(v);
    }
  }
  return image;
}

/// Draws a map's cells (one pixel per cell) into `target`, each cell a sharp block: an SVG
/// viewer would smooth a small image stretched over the target, so for a painter that is not an
/// image's the cells are enlarged first (nearest neighbour).
void drawCells(QPainter& p, const QRect& target, const QImage& cells);

/// Width of a colour scale beside a picture: its bar, a gap, a tick and the widest label.
int colourScaleWidth(const QFontMetrics& fm);

/// Height a colour scale's bar needs for its five labels (0, 0.25, … 1) to stand apart.
int scaleBarHeight(const QFontMetrics& fm);

/// One labelled tick of the colour scale: its value, the y of its tick and its label's box.
struct ScaleTick {
  double value = 0;
  int y = 0;
  QRect label;
};

/// The ticks drawScale draws beside `bar`: at quarters where the bar is tall enough for five
/// labels apart (scaleBarHeight), else at halves, else at 0 and 1 only, else none; no label
/// overlaps another, each within the bar's height.
std::vector<ScaleTick> scaleTicks(const QRect& bar, const QFontMetrics& fm);

/// The 0..1 colour scale: `title` above a vertical bar in `bar` (1 at the top), the ticks of
/// scaleTicks to its right, their labels clear of the bar and of the title.
void drawScale(QPainter& p, const QRect& bar, const QCPColorGradient& gradient, Colormap map,
               const QColor& ink, const QString& title);

/// Every `step`-th label is written: 1 where all fit in `pixels` per label of `needed`.
int labelStep(double pixels, double needed);

/// Labels along one side of a map: every labelStep-th of `labels`, each centred on its row
/// (`across` false: left of the map in a band `band` wide, right-aligned) or its column
/// (`across` true: under the map, written upwards in a band `band` tall when `rotated`).
void drawLabels(QPainter& p, const QFontMetrics& fm, const QRect& map, const QStringList& labels,
                bool across, bool rotated, int band);

}  // namespace mhaviz::ui
