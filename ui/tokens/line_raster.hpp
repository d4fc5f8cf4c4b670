#pragma once
// Many translucent straight lines drawn fast into an image: the head view draws up to a million
// (512 tokens x 8 heads), where QPainter's raster engine spends tens of microseconds on each
// (its antialiased wide pens go through the path stroker). Each line is an antialiased band of
// its width with flat ends, blended source-over in premultiplied ARGB32. Pure pixels: any
// thread, one image per call. SVG and PDF keep QPainter's vector lines.

#include <QImage>
#include <QPointF>
#include <QRgb>
#include <atomic>
#include <span>

namespace mhaviz::ui {

struct RasterLine {
  QPointF from, to;  // in picture coordinates
  QRgb colour = 0;   // not premultiplied; its alpha is the line's opacity
  double width = 1;  // in picture units; 0: one device pixel, not antialiased (cheap)
};

/// Draws `lines` in order onto `image` (Format_ARGB32_Premultiplied), whose pixel (0, 0) is the
/// picture point `origin` and which has `scale` pixels per picture unit. Lines fully
/// transparent after rounding to 8 bits are skipped; a run of thin lines (width 0) blends in
/// floats, rounded to 8 bits once after it. Stripes of rows are drawn on every
/// hardware thread (the same pixels whatever their number). Stops early when `cancelled`
/// becomes true.
void rasterLines(QImage& image, std::span<const RasterLine> lines, QPointF origin, double scale,
                 const std::atomic<bool>* cancelled = nullptr);

}  // namespace mhaviz::ui
