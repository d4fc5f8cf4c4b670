// Fast antialiased lines (line_raster.hpp).
#include "tokens/line_raster.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

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

// The pixels of one line, its major axis along the image's x (or, Steep, along y: then x and y
// are swapped in every argument): plot(x, y, coverage) for each, coverage 0..255 (255 inside the
// band). Positions along the minor axis in 16.16 fixed point; the ends' coverage to 8 bits. Thin:
// one pixel per step, where the centre is.
template <bool Steep, class Plot>
void walkLine(int width, int height, float x0, float y0, float x1, float y1, float lineWidth,
              bool thin, Plot&& plot) {
  const int majorSize = Steep ? height : width;
  const int minorSize = Steep ? width : height;
  const auto at = [&](int m, int r, std::uint32_t coverage) {
    if constexpr (Steep) {
      plot(r, m, coverage);
    } else {
      plot(m, r, coverage);
    }
  };
  if (x0 > x1) {
    std::swap(x0, x1);
    std::swap(y0, y1);
  }
  const float slope = x1 > x0 ? (y1 - y0) / (x1 - x0) : 0.0F;
  // The band across the major axis is the width stretched by the slope.
  const float half = lineWidth * std::sqrt(1.0F + slope * slope) / 2;
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
  if (thin) {
    std::int64_t centre = (lo + hi) / 2;
    for (int m = first; m <= last; ++m, centre += step) {
      const int r = static_cast<int>((centre >> 16) - kBiasRows);
      if (r >= 0 && r < minorSize) at(m, r, 255U);
    }
    return;
  }
  for (int m = first; m <= last; ++m, lo += step, hi += step) {
    int r0 = static_cast<int>((lo >> 16) - kBiasRows);
    int r1 = static_cast<int>((hi >> 16) - kBiasRows);
    std::uint32_t c0 = 0;  // coverage of the first and last pixel, 0..255
    std::uint32_t c1 = 0;
    if (r0 == r1) {
      c0 = static_cast<std::uint32_t>(((hi - lo) * 255) >> 16);
    } else {
      c0 = ((0x10000U - static_cast<std::uint32_t>(lo & 0xffff)) * 255U) >> 16;
      c1 = (static_cast<std::uint32_t>(hi & 0xffff) * 255U) >> 16;
    }
    if (r0 >= 0 && r0 < minorSize && c0 != 0) at(m, r0, c0);
    if (r1 != r0 && r1 >= 0 && r1 < minorSize && c1 != 0) at(m, r1, c1);
    r0 = std::max(r0 + 1, 0);
    r1 = std::min(r1 - 1, minorSize - 1);
    for (int r = r0; r <= r1; ++r) at(m, r, 255U);
  }
}

// Premultiplied channels as floats in 0..1 (blue, green, red, alpha: ARGB32's order in memory).
using Haze = std::array<float, 4>;

Haze toHaze(std::uint32_t premultiplied) {
  return {static_cast<float>(premultiplied & 0xffU) / 255,
          static_cast<float>((premultiplied >> 8) & 0xffU) / 255,
          static_cast<float>((premultiplied >> 16) & 0xffU) / 255,
          static_cast<float>(premultiplied >> 24) / 255};
}

std::uint32_t fromHaze(const Haze& h) {
  const auto byte = [](float v) {
    return static_cast<std::uint32_t>(std::lround(std::clamp(v, 0.0F, 1.0F) * 255));
  };
  return byte(h[0]) | byte(h[1]) << 8 | byte(h[2]) << 16 | byte(h[3]) << 24;
}

}  // namespace

void rasterLines(QImage& image, std::span<const RasterLine> lines, QPointF origin, double scale,
                 const std::atomic<bool>* cancelled) {
  if (image.isNull() || image.format() != QImage::Format_ARGB32_Premultiplied) return;
  // In device pixels, with the rows each line meets.
  struct Device {
    float x0, y0, x1, y1, width, top, bottom;
    std::uint32_t src;
    Haze haze;  // thin lines: src as floats, unrounded
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
    const float a = static_cast<float>(qAlpha(line.colour)) / 255;
    d.haze = {static_cast<float>(qBlue(line.colour)) / 255 * a,
              static_cast<float>(qGreen(line.colour)) / 255 * a,
              static_cast<float>(qRed(line.colour)) / 255 * a, a};
    device.push_back(d);
  }
  // Stripes of rows drawn side by side on every hardware thread; each draws every line that
  // meets it, in order, so that every pixel blends the lines in their order whatever the
  // threads. (Each line is set up anew in every stripe it crosses, where rounding may place its
  // edge differently: stripes of 256 rows drew 512 tokens x 8 heads in 0.8 of the time but
  // shaded a few edge pixels up to 2 % differently, so the stripes stay as they were.)
  // A run of thin lines (a haze of hundreds of faint lines over one pixel) blends in floats and
  // is rounded to 8 bits once at its end: rounded after every line, each blend of a faint line
  // would drift the pixel by up to half a step.
  constexpr int kStripeRows = 64;
  const int stripes = (image.height() + kStripeRows - 1) / kStripeRows;
  const qsizetype stride = image.bytesPerLine();
  uchar* const bits = image.bits();
  const int width = image.width();
  const int height = image.height();
  mhaviz::parallel_for(stripes, mhaviz::thread_count(0, stripes), [&](std::int64_t s) {
    if (cancelled != nullptr && cancelled->load(std::memory_order_relaxed)) return;
    const int top = static_cast<int>(s) * kStripeRows;
    const int rows = std::min(kStripeRows, height - top);
    const auto pixel = [&](int x, int y) {
      return reinterpret_cast<std::uint32_t*>(bits + stride * (top + y)) + x;
    };
    // The stripe in floats while a run of thin lines is drawn; kept by the thread (its pages are
    // touched once).
    thread_local std::vector<Haze> haze;
    bool inHaze = false;
    // Column by column: most lines of many are steeper than 45 degrees, and walk down a column.
    const auto hazeAt = [&](int x, int y) -> Haze& {
      return haze[static_cast<std::size_t>(x) * static_cast<std::size_t>(rows) +
                  static_cast<std::size_t>(y)];
    };
    const auto setHaze = [&](bool on) {
      if (on == inHaze) return;
      inHaze = on;
      haze.resize(static_cast<std::size_t>(width) * static_cast<std::size_t>(rows));
      for (int x = 0; x < width; ++x) {
        for (int y = 0; y < rows; ++y) {
          Haze& h = hazeAt(x, y);
          std::uint32_t* p = pixel(x, y);
          if (on) {
            h = toHaze(*p);
          } else {
            *p = fromHaze(h);
          }
        }
      }
    };
    const auto shift = static_cast<float>(top);
    for (const Device& d : device) {
      if (d.bottom < shift || d.top > shift + static_cast<float>(rows)) continue;
      setHaze(d.thin);
      const auto blend = [&](int x, int y, std::uint32_t coverage) {
        if (d.thin) {
          Haze& h = hazeAt(x, y);
          const float keep = 1 - d.haze[3];
          for (int c = 0; c < 4; ++c) h[c] = d.haze[c] + h[c] * keep;
        } else {
          over(pixel(x, y), coverage == 255U ? d.src : byteMul(d.src, coverage));
        }
      };
      if (std::fabs(d.y1 - d.y0) > std::fabs(d.x1 - d.x0)) {
        walkLine<true>(width, rows, d.y0 - shift, d.x0, d.y1 - shift, d.x1, d.width, d.thin, blend);
      } else {
        walkLine<false>(width, rows, d.x0, d.y0 - shift, d.x1, d.y1 - shift, d.width, d.thin,
                        blend);
      }
    }
    setHaze(false);
  });
}

}  // namespace mhaviz::ui
