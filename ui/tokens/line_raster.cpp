// Fast antialiased lines (line_raster.hpp).
#include "tokens/line_raster.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "mhaviz/core/base/pages.hpp"
#include "mhaviz/core/base/parallel.hpp"

namespace mhaviz::ui {

namespace {

// x * a / 255 for the four 8-bit channels of x at once (a in 0..255), rounded.
inline std::uint32_t byteMul(std::uint32_t x, std::uint32_t a) {
  std::uint32_t t = (x & 0xff00ffU) * a;
  t = (t + ((t >> 8) & 0xff00ffU) + 0x800080U) >> 8;
  t &= 0xff00ffU;
  x = ((x >> 8) & 0xff00ffU) * a;
  x = x + ((x >> 8) & 0xff00ffU) + 0x800080U;
  x &= 0xff00ff00U;
  return x | t;
}

// Source-over of the premultiplied `src` onto *d.
inline void over(std::uint32_t* d, std::uint32_t src) {
  *d = src + byteMul(*d, 255U - (src >> 24));
}

// One line, its major axis along the image's x (or, Steep, along y: then x and y are swapped
// in every argument and the pixel of (major m, minor r) is row m, column r). Positions along the
// minor axis in 16.16 fixed point; the ends' coverage to 8 bits.
template <bool Steep>
void drawLine(QImage& image, float x0, float y0, float x1, float y1, float width, std::uint32_t src,
              bool thin) {
  const int majorSize = Steep ? image.height() : image.width();
  const int minorSize = Steep ? image.width() : image.height();
  if (x0 > x1) {
    std::swap(x0, x1);
    std::swap(y0, y1);
  }
  const float slope = x1 > x0 ? (y1 - y0) / (x1 - x0) : 0.0F;
  // The band across the major axis is the width stretched by the slope.
  const float half = width * std::sqrt(1.0F + slope * slope) / 2;
  int first = std::max(0, static_cast<int>(std::floor(x0)));
  int last = std::min(majorSize - 1, static_cast<int>(std::ceil(x1)) - 1);
  if (first > last) return;
  // Clip the major range to where the band meets the image's minor extent.
  const auto extent = static_cast<float>(minorSize);
  const float centre0 = y0 + (static_cast<float>(first) + 0.5F - x0) * slope;
  if (slope != 0.0F) {
    const float enter = (slope > 0 ? -half - centre0 : extent + half - centre0) / slope;
    const float leave = (slope > 0 ? extent + half - centre0 : -half - centre0) / slope;
    if (leave < 0) return;
    const int skip = std::max(0, static_cast<int>(std::floor(enter)));
    first += skip;
    last = std::min(last, first - skip + static_cast<int>(std::ceil(leave)) + 1);
  } else if (centre0 + half < 0 || centre0 - half > extent) {
    return;
  }
  if (first > last) return;
  constexpr float kOne = 65536.0F;
  const float centreFirst = y0 + (static_cast<float>(first) + 0.5F - x0) * slope;
  // Offset so that every position is positive: the integer part is then floor().
  constexpr std::int64_t kBias = std::int64_t{1} << 40;
  constexpr std::int64_t kBiasRows = kBias >> 16;
  std::int64_t lo = static_cast<std::int64_t>((centreFirst - half) * kOne) + kBias;
  std::int64_t hi = static_cast<std::int64_t>((centreFirst + half) * kOne) + kBias;
  const auto step = static_cast<std::int64_t>(slope * kOne);
  uchar* const bits = image.bits();
  const qsizetype stride = image.bytesPerLine();
  const qsizetype pitch = Steep ? 1 : stride / 4;  // from one minor position to the next
  const std::uint32_t inverse = 255U - (src >> 24);
  if (thin) {
    // One pixel per step, where the centre is: no coverage to work out.
    std::int64_t centre = (lo + hi) / 2;
    for (int m = first; m <= last; ++m, centre += step) {
      const int r = static_cast<int>((centre >> 16) - kBiasRows);
      if (r < 0 || r >= minorSize) continue;
      std::uint32_t* d = (Steep ? reinterpret_cast<std::uint32_t*>(bits + stride * m)
                                : reinterpret_cast<std::uint32_t*>(bits) + m) +
                         pitch * r;
      *d = src + byteMul(*d, inverse);
    }
    return;
  }
  for (int m = first; m <= last; ++m, lo += step, hi += step) {
    int r0 = static_cast<int>((lo >> 16) - kBiasRows);
    int r1 = static_cast<int>((hi >> 16) - kBiasRows);
    std::uint32_t* const column = Steep ? reinterpret_cast<std::uint32_t*>(bits + stride * m)
                                        : reinterpret_cast<std::uint32_t*>(bits) + m;
    std::uint32_t c0 = 0;  // coverage of the first and last pixel, 0..255
    std::uint32_t c1 = 0;
    if (r0 == r1) {
      c0 = static_cast<std::uint32_t>(((hi - lo) * 255) >> 16);
    } else {
      c0 = ((0x10000U - static_cast<std::uint32_t>(lo & 0xffff)) * 255U) >> 16;
      c1 = (static_cast<std::uint32_t>(hi & 0xffff) * 255U) >> 16;
    }
    if (r0 >= 0 && r0 < minorSize && c0 != 0) over(column + pitch * r0, byteMul(src, c0));
    if (r1 != r0 && r1 >= 0 && r1 < minorSize && c1 != 0) {
      over(column + pitch * r1, byteMul(src, c1));
    }
    r0 = std::max(r0 + 1, 0);
    r1 = std::min(r1 - 1, minorSize - 1);
    for (int r = r0; r <= r1; ++r) {
      std::uint32_t* d = column + pitch * r;
      *d = src + byteMul(*d, inverse);
    }
  }
}

}  // namespace

void rasterLines(QImage& image, std::span<const RasterLine> lines, QPointF origin, double scale,
                 const std::atomic<bool>* cancelled) {
  if (image.isNull() || image.format() != QImage::Format_ARGB32_Premultiplied) return;
  // In device pixels, with the rows each line meets.
  struct Device {
    float x0, y0, x1, y1, width, top, bottom;
    std::uint32_t src;
    bool thin;
  };
  mhaviz::PageVector<Device> device;  // up to millions: in huge pages (pages.hpp)
  device.reserve(lines.size());
  for (const RasterLine& line : lines) {
    const std::uint32_t src = qPremultiply(line.colour);
    if ((src >> 24) == 0) continue;
    Device d{};
    d.x0 = static_cast<float>((line.from.x() - origin.x()) * scale);
    d.y0 = static_cast<float>((line.from.y() - origin.y()) * scale);
    d.x1 = static_cast<float>((line.to.x() - origin.x()) * scale);
    d.y1 = static_cast<float>((line.to.y() - origin.y()) * scale);
    d.thin = line.width <= 0;
    d.width = d.thin ? 1.0F : static_cast<float>(line.width * scale);
    // A flat line's band is taller than its width: a margin for it.
    d.top = std::min(d.y0, d.y1) - d.width * 4 - 1;
    d.bottom = std::max(d.y0, d.y1) + d.width * 4 + 1;
    d.src = src;
    device.push_back(d);
  }
  // Stripes of rows drawn side by side on every hardware thread; each draws every line that
  // meets it, in order, so that every pixel blends the lines in their order whatever the
  // threads. (Each line is set up anew in every stripe it crosses, where rounding may place its
  // edge differently: stripes of 256 rows drew 512 tokens x 8 heads in 0.8 of the time but
  // shaded a few edge pixels up to 2 % differently, so the stripes stay as they were.)
  constexpr int kStripeRows = 64;
  const int stripes = (image.height() + kStripeRows - 1) / kStripeRows;
  const qsizetype stride = image.bytesPerLine();
  uchar* const bits = image.bits();
  const int width = image.width();
  const QImage::Format format = image.format();
  const int height = image.height();
  mhaviz::parallel_for(stripes, mhaviz::thread_count(0, stripes), [&](std::int64_t s) {
    if (cancelled != nullptr && cancelled->load(std::memory_order_relaxed)) return;
    const int top = static_cast<int>(s) * kStripeRows;
    const int rows = std::min(kStripeRows, height - top);
    QImage stripe(bits + stride * top, width, rows, stride, format);
    const auto shift = static_cast<float>(top);
    for (const Device& d : device) {
      if (d.bottom < shift || d.top > shift + static_cast<float>(rows)) continue;
      if (std::fabs(d.y1 - d.y0) > std::fabs(d.x1 - d.x0)) {
        drawLine<true>(stripe, d.y0 - shift, d.x0, d.y1 - shift, d.x1, d.width, d.src, d.thin);
      } else {
        drawLine<false>(stripe, d.x0, d.y0 - shift, d.x1, d.y1 - shift, d.width, d.src, d.thin);
      }
    }
  });
}

}  // namespace mhaviz::ui
