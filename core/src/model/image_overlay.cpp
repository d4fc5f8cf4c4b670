// Attention over an image (image_overlay.hpp): a query's weights split by the patch grid,
// upsampled to pixels and laid over the picture.

#include "mhaviz/core/model/image_overlay.hpp"

#include <algorithm>
#include <cmath>

#include "mhaviz/core/base/errors.hpp"

namespace mhaviz::model {

namespace {

double finite(double v) { return std::isfinite(v) ? v : 0.0; }

void check_range(std::int64_t value, std::int64_t count, const char* what, const char* name) {
  if (value < 0 || value >= count) {
    throw InvalidInput(std::string(what) + ": " + name + " " + std::to_string(value) +
                       " does not exist (0 to " + std::to_string(count - 1) + ")");
  }
}

}  // namespace

double PatchWeights::grid_max() const {
  double m = 0;
  for (const double v : grid) m = std::max(m, finite(v));
  return m;
}

double PatchWeights::prefix_total() const {
  double s = 0;
  for (const double v : prefix) s += v;
  return s;
}

PatchWeights split_row(const ImageGrid& grid, std::span<const double> row) {
  const auto tokens = static_cast<std::size_t>(grid.tokens());
  if (row.size() < tokens) {
    throw InvalidInput("a row of " + std::to_string(row.size()) +
                       " weights is shorter than the image's " + std::to_string(tokens) +
                       " tokens");
  }
  PatchWeights out;
  const std::size_t prefix = grid.prefix.size();
  for (std::size_t i = 0; i < prefix; ++i) out.prefix.push_back(finite(row[i]));
  out.grid.reserve(static_cast<std::size_t>(grid.patches()));
  for (std::size_t i = prefix; i < tokens; ++i) out.grid.push_back(finite(row[i]));
  for (std::size_t i = tokens; i < row.size(); ++i) out.appended += finite(row[i]);
  return out;
}

PatchWeights head_patch_weights(const ImageGrid& grid, const Tensor& weights, std::int64_t head,
                                std::int64_t query, std::int64_t batch, const char* what) {
  if (weights.dim() != 4 || weights.size(2) != grid.tokens()) {
    throw InvalidInput(std::string(what) + ": the layer does not attend over the image's " +
                       std::to_string(grid.tokens()) + " tokens");
  }
  const std::int64_t N = weights.size(0), H = weights.size(1), L = weights.size(2);
  const std::int64_t Sx = weights.size(3);
  check_range(batch, N, what, "batch element");
  if (head != -1) check_range(head, H, what, "head");
  check_range(query, L, what, "query");
  std::vector<double> row(static_cast<std::size_t>(Sx), 0.0);
  const std::int64_t first = head == -1 ? 0 : head;
  const std::int64_t last = head == -1 ? H : head + 1;
  for (std::int64_t h = first; h < last; ++h) {
    const std::int64_t base = ((batch * H + h) * L + query) * Sx;
    for (std::int64_t k = 0; k < Sx; ++k)
      row[static_cast<std::size_t>(k)] += finite(weights.value(base + k));
  }
  const auto heads = static_cast<double>(last - first);
  for (double& v : row) v /= heads;
  return split_row(grid, row);
}

PatchWeights map_patch_weights(const ImageGrid& grid, std::span<const double> map,
                               std::int64_t tokens, std::int64_t query, const char* what) {
  if (tokens != grid.tokens()) {
    throw InvalidInput(std::string(what) + ": the map has " + std::to_string(tokens) +
                       " tokens, the image " + std::to_string(grid.tokens()));
  }
  check_range(query, tokens, what, "query");
  return split_row(grid, map.subspan(static_cast<std::size_t>(query * tokens),
                                     static_cast<std::size_t>(tokens)));
}

std::vector<double> upsample(const ImageGrid& grid, std::span<const double> weights,
                             std::int64_t height, std::int64_t width, Upsampling how) {
  if (std::ssize(weights) != grid.patches())
    throw InvalidInput("upsample: the weights are not one per patch");
  std::vector<double> out(static_cast<std::size_t>(height * width));
  const double sy = static_cast<double>(grid.rows) / static_cast<double>(height);
  const double sx = static_cast<double>(grid.cols) / static_cast<double>(width);
  const auto at = [&](std::int64_t r, std::int64_t c) {
    return weights[static_cast<std::size_t>(r * grid.cols + c)];
  };
  for (std::int64_t y = 0; y < height; ++y) {
    // the pixel's centre in patch units
    const double v = (static_cast<double>(y) + 0.5) * sy;
    for (std::int64_t x = 0; x < width; ++x) {
      const double u = (static_cast<double>(x) + 0.5) * sx;
      double value = 0;
      if (how == Upsampling::nearest) {
        const auto r = std::min(static_cast<std::int64_t>(v), grid.rows - 1);
        const auto c = std::min(static_cast<std::int64_t>(u), grid.cols - 1);
        value = at(r, c);
      } else {
        const double fy = std::clamp(v - 0.5, 0.0, static_cast<double>(grid.rows - 1));
        const double fx = std::clamp(u - 0.5, 0.0, static_cast<double>(grid.cols - 1));
        const auto r0 = static_cast<std::int64_t>(fy);
        const auto c0 = static_cast<std::int64_t>(fx);
        const std::int64_t r1 = std::min(r0 + 1, grid.rows - 1);
        const std::int64_t c1 = std::min(c0 + 1, grid.cols - 1);
        const double ty = fy - static_cast<double>(r0);
        const double tx = fx - static_cast<double>(c0);
        value = (1 - ty) * ((1 - tx) * at(r0, c0) + tx * at(r0, c1)) +
                ty * ((1 - tx) * at(r1, c0) + tx * at(r1, c1));
      }
      out[static_cast<std::size_t>(y * width + x)] = value;
    }
  }
  return out;
}

RgbImage overlay(const RgbImage& picture, std::span<const double> pixel_weights,
                 const OverlayOptions& o) {
  if (!(o.opacity >= 0.0 && o.opacity <= 1.0))
    throw InvalidInput("overlay opacity " + std::to_string(o.opacity) + " is not in 0..1");
  if (!(o.scale > 0.0) || !std::isfinite(o.scale))
    throw InvalidInput("overlay scale must be above 0");
  if (o.style == OverlayStyle::colormap && o.lut.size() != 256)
    throw InvalidInput("overlay: the colour map must have 256 entries");
  const std::int64_t n = picture.height * picture.width;
  if (std::ssize(pixel_weights) != n)
    throw InvalidInput("overlay: one weight per pixel of the picture is needed");
  RgbImage out = picture;
  for (std::int64_t i = 0; i < n; ++i) {
    const double w =
        std::clamp(finite(pixel_weights[static_cast<std::size_t>(i)]) / o.scale, 0.0, 1.0);
    for (std::int64_t ch = 0; ch < 3; ++ch) {
      const auto k = static_cast<std::size_t>(i * 3 + ch);
      const double p = picture.rgb[k];
      double v = 0;
      if (o.style == OverlayStyle::colormap) {
        const auto entry = static_cast<std::size_t>(std::lround(w * 255.0));
        v = (1.0 - o.opacity) * p + o.opacity * o.lut[entry][static_cast<std::size_t>(ch)];
      } else {
        v = p * w;
      }
      out.rgb[k] = static_cast<std::uint8_t>(std::clamp(std::lround(v), 0L, 255L));
    }
  }
  return out;
}

}  // namespace mhaviz::model
