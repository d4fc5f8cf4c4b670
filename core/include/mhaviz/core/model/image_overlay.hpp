#pragma once
/// \file
/// Attention over an image: the weights one query gives the patches, as a rows × cols grid,
/// upsampled to pixels (nearest: exact patches; smooth: bilinear between patch centres) and
/// laid over the picture with a colour map at an opacity, or the picture brightened by weight
/// (docs/capture-and-models.md, "Vision transformers").

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/model/image_grid.hpp"

namespace mhaviz::model {

/// One query's weights over an image's tokens.
struct PatchWeights {
  std::vector<double> grid;    ///< rows × cols, row-major: the weight on each patch
  std::vector<double> prefix;  ///< the weight on each prefix token (no patch shows it)
  double appended = 0;         ///< the weight on appended bias_k / zero columns
  /// The largest weight in grid (0 when all are 0 or not finite).
  [[nodiscard]] double grid_max() const;
  [[nodiscard]] double prefix_total() const;
};

/// Splits one row of weights (prefix + patches + appended columns; NaN counted as 0) by the
/// grid. Throws InvalidInput when the row is shorter than grid.tokens().
PatchWeights split_row(const ImageGrid& grid, std::span<const double> row);

/// Head `head` of layer `layer`, or the mean of its heads when head is -1, from query `query`,
/// batch element `batch`: from the computed weights (N, H, L, S'). Throws InvalidInput naming
/// `what` for a layer, head, query or batch element out of range or a layer whose length is
/// not the grid's.
PatchWeights head_patch_weights(const ImageGrid& grid, const Tensor& weights, std::int64_t head,
                                std::int64_t query, std::int64_t batch,
                                const char* what = "image view");

/// Row `query` of a rollout or flow map (tokens × tokens) split by the grid.
PatchWeights map_patch_weights(const ImageGrid& grid, std::span<const double> map,
                               std::int64_t tokens, std::int64_t query,
                               const char* what = "image view");

enum class Upsampling : std::uint8_t {
  nearest,  ///< each pixel takes its patch's weight: the patches exactly
  smooth,   ///< bilinear between patch centres, clamped at the edges (as
            ///< torch.nn.functional.interpolate(mode="bilinear", align_corners=False))
};

/// The grid's weights at each pixel of a height × width picture covering the whole image
/// (the picture may be larger or smaller than the image the model saw). Row-major.
std::vector<double> upsample(const ImageGrid& grid, std::span<const double> weights,
                             std::int64_t height, std::int64_t width, Upsampling how);

enum class OverlayStyle : std::uint8_t {
  colormap,  ///< the colour map of weight / scale blended over the picture at the opacity
  brighten,  ///< the picture multiplied by weight / scale (dark where the query does not look)
};

struct OverlayOptions {
  OverlayStyle style = OverlayStyle::colormap;
  Upsampling upsampling = Upsampling::nearest;
  double opacity = 0.6;  ///< 0..1, colormap style
  /// The value drawn as the top of the colour map (and as full brightness); > 0. Weights are
  /// divided by it and clamped to 0..1.
  double scale = 1.0;
  /// The colour map, 256 entries from 0 to 1 (the window's and the CLI's colour maps).
  std::span<const std::array<std::uint8_t, 3>> lut;
};

/// The picture with the weights laid over it: out = (1 − α)·picture + α·lut(w / scale) per
/// channel, rounded; or picture · (w / scale). Throws InvalidInput for an opacity outside 0..1,
/// a scale not above 0, a colormap style without a 256-entry lut, or weights of another size.
RgbImage overlay(const RgbImage& picture, std::span<const double> pixel_weights,
                 const OverlayOptions& options);

}  // namespace mhaviz::model
