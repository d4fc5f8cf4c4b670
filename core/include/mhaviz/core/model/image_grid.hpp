#pragma once
/// \file
/// A vision transformer's image in a model file (format version 3,
/// docs/capture-and-models.md): the patch grid that turns an image into tokens, the prefix
/// tokens before the patches (class token, distillation or register tokens), the image tensor
/// the model saw and an optional picture for display. Token t >= prefix is the patch in row
/// (t - prefix) / cols, column (t - prefix) % cols, as torchvision's VisionTransformer
/// flattens its patches (row-major).

#include <cstdint>
#include <string>
#include <vector>

#include "mhaviz/core/base/tensor.hpp"

namespace mhaviz::model {

/// Most patches an image may have (64 × 64); more is refused when the index is read.
inline constexpr std::int64_t kMaxPatches = 4096;
/// Most prefix tokens (class, distillation and register tokens).
inline constexpr std::int64_t kMaxPrefixTokens = 64;

/// How an image becomes tokens.
struct ImageGrid {
  std::int64_t height = 0, width = 0;              ///< pixels of the tensor the model saw
  std::int64_t patch_height = 0, patch_width = 0;  ///< pixels of one patch
  std::int64_t rows = 0, cols = 0;                 ///< the patch grid
  std::int64_t channels = 3;                       ///< of the image tensor (N, C, H, W)
  std::vector<std::string> prefix;                 ///< names of the tokens before the patches
  bool picture = false;                            ///< the tensors file holds "image/picture"

  [[nodiscard]] std::int64_t patches() const { return rows * cols; }
  /// prefix + rows × cols: the sequence length of the layers that attend over the image.
  [[nodiscard]] std::int64_t tokens() const {
    return static_cast<std::int64_t>(prefix.size()) + patches();
  }
  /// The token of patch (row, col).
  [[nodiscard]] std::int64_t token(std::int64_t row, std::int64_t col) const {
    return static_cast<std::int64_t>(prefix.size()) + row * cols + col;
  }
};

/// "r2c3": the label of the patch in row 2, column 3 (from 0, row-major as the tokens).
std::string patch_label(std::int64_t row, std::int64_t col);

/// The labels of all tokens: the prefix names ("[CLS]"), then "r0c0", "r0c1", ….
std::vector<std::string> image_token_labels(const ImageGrid& grid);

/// Throws InvalidInput naming `where` and the fix when the grid cannot describe an image:
/// a size that is not rows × patch size, fewer than 2 or more than kMaxPatches patches, an
/// empty prefix name, more than kMaxPrefixTokens prefix tokens, or channels outside 1..4.
void check_image_grid(const ImageGrid& grid, const std::string& where);

/// The image members of a model file's tensors file.
struct ModelImage {
  Tensor input;    ///< "image/input": (N, C, H, W), the tensor the model saw (float)
  Tensor picture;  ///< "image/picture": (N, h, w, 3) uint8 for display, or a 0-d tensor
  [[nodiscard]] bool has_picture() const { return picture.dim() == 4; }
};

/// An RGB picture, 8 bits per channel, row-major (height × width × 3).
struct RgbImage {
  std::int64_t height = 0, width = 0;
  std::vector<std::uint8_t> rgb;
};

/// The picture shown for batch element `batch`: image/picture when the file has one, else the
/// image tensor with its values stretched to 0..255 (one minimum and maximum over the
/// element's channels: the colours keep their balance), grey for one channel, the first three
/// channels for more.
RgbImage display_image(const ModelImage& image, std::int64_t batch);

/// A rectangle of pixels: columns [x, x + width) and rows [y, y + height).
struct PixelRect {
  std::int64_t x = 0, y = 0, width = 0, height = 0;
  [[nodiscard]] bool empty() const { return width <= 0 || height <= 0; }
  bool operator==(const PixelRect&) const = default;
};

/// The pixels of a picture `height` × `width` pixels stretched over the image (the image
/// itself, or a picture for display of any size) that the patch of token `token` covers: pixel
/// (y, x) belongs to patch row ⌊(y + ½)·rows / height⌋ and column ⌊(x + ½)·cols / width⌋, as
/// nearest upsampling of the patch weights maps them (image_overlay.hpp). Empty for a prefix
/// token, a token past the patches, and a picture too small to give the patch a pixel.
PixelRect patch_pixels(const ImageGrid& grid, std::int64_t token, std::int64_t height,
                       std::int64_t width);

/// The pictures of an image's patches, for the views that draw a patch token as its patch (the
/// head view and the text view beside their labels): the grid and the picture shown of each
/// batch element (display_image). Immutable once made; any thread.
struct PatchPictures {
  ImageGrid grid;
  std::vector<RgbImage> pictures;  ///< pictures[n]: batch element n
};

/// The pictures of every batch element of `image` (the image members of a model file whose
/// index has `grid`).
PatchPictures patch_pictures(const ImageGrid& grid, const ModelImage& image);

/// The pixels of `picture` inside `rect` (clipped to the picture), row-major RGB.
RgbImage crop(const RgbImage& picture, const PixelRect& rect);

}  // namespace mhaviz::model
