// The patch grid of a vision transformer's image (image_grid.hpp): token labels, the grid's
// checks and the picture shown.

#include "mhaviz/core/model/image_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mhaviz/core/base/errors.hpp"

namespace mhaviz::model {

std::string patch_label(std::int64_t row, std::int64_t col) {
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "r" + std::to_string(row).
  std::string label = "r";
  label += std::to_string(row);
  label += 'c';
  label += std::to_string(col);
  return label;
}

std::vector<std::string> image_token_labels(const ImageGrid& grid) {
  std::vector<std::string> labels = grid.prefix;
  labels.reserve(static_cast<std::size_t>(grid.tokens()));
  for (std::int64_t r = 0; r < grid.rows; ++r)
    for (std::int64_t c = 0; c < grid.cols; ++c) labels.push_back(patch_label(r, c));
  return labels;
}

void check_image_grid(const ImageGrid& g, const std::string& where) {
  const auto fail = [&](const std::string& what) { throw InvalidInput(where + ": " + what); };
  const auto px = [](std::int64_t h, std::int64_t w) {
    return std::to_string(h) + "\u00d7" + std::to_string(w);
  };
  if (g.rows < 1 || g.cols < 1 || g.patch_height < 1 || g.patch_width < 1 || g.height < 1 ||
      g.width < 1) {
    fail(
        "the image's size, patch size and grid must be positive (\"size\": [H, W], "
        "\"patch_size\": [h, w], \"grid\": [rows, cols])");
  }
  if (g.rows > kMaxPatches || g.cols > kMaxPatches || g.rows * g.cols > kMaxPatches) {
    fail("the image has " + std::to_string(g.rows) + "\u00d7" + std::to_string(g.cols) + " = " +
         std::to_string(g.rows * g.cols) + " patches; mhaviz shows at most " +
         std::to_string(kMaxPatches) + " (64\u00d764): capture a smaller image or larger patches");
  }
  if (g.rows * g.cols < 2) {
    fail(
        "the image is one patch (a 1\u00d71 grid): there is nothing to show over it; capture an "
        "image larger than one patch");
  }
  if (g.height != g.rows * g.patch_height || g.width != g.cols * g.patch_width) {
    fail("the image is " + px(g.height, g.width) + " pixels, but " + std::to_string(g.rows) +
         "\u00d7" + std::to_string(g.cols) + " patches of " + px(g.patch_height, g.patch_width) +
         " cover " + px(g.rows * g.patch_height, g.cols * g.patch_width) +
         "; the image size must be the grid times the patch size (resize or crop the image as "
         "the model's transform does)");
  }
  if (g.channels < 1 || g.channels > 4)
    fail("the image has " + std::to_string(g.channels) + " channels; mhaviz shows 1 to 4");
  if (std::ssize(g.prefix) > kMaxPrefixTokens) {
    fail("the image has " + std::to_string(g.prefix.size()) + " prefix tokens; at most " +
         std::to_string(kMaxPrefixTokens));
  }
  for (const std::string& name : g.prefix)
    if (name.empty()) fail("a prefix token's name is empty; name it, e.g. \"[CLS]\" or \"reg0\"");
}

RgbImage display_image(const ModelImage& image, std::int64_t batch) {
  RgbImage out;
  if (image.has_picture()) {
    const Tensor& p = image.picture;
    out.height = p.size(1);
    out.width = p.size(2);
    const auto bytes = p.data<std::uint8_t>();
    const std::int64_t n = out.height * out.width * 3;
    out.rgb.assign(bytes.begin() + batch * n, bytes.begin() + (batch + 1) * n);
    return out;
  }
  const Tensor& t = image.input;
  const std::int64_t c = t.size(1);
  out.height = t.size(2);
  out.width = t.size(3);
  const std::int64_t plane = out.height * out.width;
  const std::int64_t base = batch * c * plane;
  const std::int64_t shown = std::min<std::int64_t>(c, 3);
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  for (std::int64_t i = 0; i < shown * plane; ++i) {
    const double v = t.value(base + i);
    if (!std::isfinite(v)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  const double span = hi > lo ? hi - lo : 1.0;
  if (!(hi >= lo)) lo = 0;
  out.rgb.resize(static_cast<std::size_t>(plane * 3));
  for (std::int64_t i = 0; i < plane; ++i) {
    for (std::int64_t ch = 0; ch < 3; ++ch) {
      const double v = t.value(base + std::min(ch, shown - 1) * plane + i);
      const double x = std::isfinite(v) ? std::clamp((v - lo) / span, 0.0, 1.0) : 0.0;
      out.rgb[static_cast<std::size_t>(i * 3 + ch)] =
          static_cast<std::uint8_t>(std::lround(x * 255.0));
    }
  }
  return out;
}

namespace {

// The first pixel of `part` of `parts` stretched over `pixels`: the least p with
// ⌊(p + ½)·parts / pixels⌋ >= part, i.e. p >= part·pixels / parts − ½.
std::int64_t firstPixel(std::int64_t part, std::int64_t parts, std::int64_t pixels) {
  const std::int64_t numerator = 2 * part * pixels - parts;  // >= -parts
  return std::max<std::int64_t>(0, (numerator + 2 * parts - 1) / (2 * parts));
}

}  // namespace

PixelRect patch_pixels(const ImageGrid& grid, std::int64_t token, std::int64_t height,
                       std::int64_t width) {
  const auto prefix = static_cast<std::int64_t>(grid.prefix.size());
  if (token < prefix || token >= grid.tokens() || grid.rows < 1 || grid.cols < 1 || height < 1 ||
      width < 1) {
    return {};
  }
  const std::int64_t row = (token - prefix) / grid.cols;
  const std::int64_t col = (token - prefix) % grid.cols;
  PixelRect out;
  out.y = firstPixel(row, grid.rows, height);
  out.x = firstPixel(col, grid.cols, width);
  out.height = std::min(firstPixel(row + 1, grid.rows, height), height) - out.y;
  out.width = std::min(firstPixel(col + 1, grid.cols, width), width) - out.x;
  if (out.empty()) return {};
  return out;
}

PatchPictures patch_pictures(const ImageGrid& grid, const ModelImage& image) {
  PatchPictures out;
  out.grid = grid;
  const Tensor& shown = image.has_picture() ? image.picture : image.input;
  const std::int64_t batches = shown.dim() == 4 ? shown.size(0) : 0;
  out.pictures.reserve(static_cast<std::size_t>(batches));
  for (std::int64_t n = 0; n < batches; ++n) out.pictures.push_back(display_image(image, n));
  return out;
}

RgbImage crop(const RgbImage& picture, const PixelRect& rect) {
  RgbImage out;
  const std::int64_t x0 = std::clamp<std::int64_t>(rect.x, 0, picture.width);
  const std::int64_t y0 = std::clamp<std::int64_t>(rect.y, 0, picture.height);
  const std::int64_t x1 = std::clamp<std::int64_t>(rect.x + rect.width, x0, picture.width);
  const std::int64_t y1 = std::clamp<std::int64_t>(rect.y + rect.height, y0, picture.height);
  out.width = x1 - x0;
  out.height = y1 - y0;
  out.rgb.reserve(static_cast<std::size_t>(out.width * out.height * 3));
  for (std::int64_t y = y0; y < y1; ++y) {
    const auto row =
        picture.rgb.begin() + static_cast<std::ptrdiff_t>((y * picture.width + x0) * 3);
    out.rgb.insert(out.rgb.end(), row, row + static_cast<std::ptrdiff_t>(out.width * 3));
  }
  return out;
}

}  // namespace mhaviz::model
