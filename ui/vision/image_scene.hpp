#pragma once
// The image view's content (docs/window.md, "Image view"): for a model file with an image
// (format version 3), one query's attention over the image — one head, the mean of a layer's
// heads, attention rollout or attention flow — as an overlay on the picture, and every head of
// the layer as small multiples, each with the weight the query gives the prefix tokens, after
// the picture itself with nothing over it (a colour map hides the picture's colours). Pure
// data computed from a loaded model (any thread; the window builds it as a LatestTask run),
// drawn by image_picture.hpp for the window, mhaviz-cli model --view image and the exports.

#include <QImage>
#include <QString>
#include <QStringList>
#include <array>
#include <cstdint>
#include <vector>

#include "mhaviz/core/model/image_overlay.hpp"
#include "mhaviz/core/model/model.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

/// What the main map shows.
enum class ImageSource : std::uint8_t { head, rollout, flow };

/// What the user asked for.
struct ImageRequest {
  int batch = 0;
  int layer = -1;  // a model layer that attends over the image; -1: the first one
  int head = 0;    // -1: the mean of the layer's heads
  int query = 0;   // a token: the class token (0) by default
  ImageSource source = ImageSource::head;
  model::OverlayStyle style = model::OverlayStyle::colormap;
  model::Upsampling upsampling = model::Upsampling::nearest;
  double opacity = 0.6;
  Colormap colormap = Colormap::viridis;
};

/// One map: the overlay drawn and the numbers behind it.
struct ImageMap {
  QString title;                // "head 3", "mean of 4 heads", "attention rollout"
  model::PatchWeights weights;  // the query's weights split by the grid
  double scale = 1;             // the top of the colour scale: the largest patch weight
  std::vector<double> pixels;   // weights at each pixel of `overlay` (row-major)
  model::RgbImage overlay;      // the picture with the weights laid over it
  QImage picture;               // the same as an image, to draw
};

struct ImageScene {
  model::ImageGrid grid;
  ImageRequest request;             // as resolved (layer, query in range)
  std::vector<std::size_t> layers;  // the model's layers over the image, in call order
  int layerPosition = 0;            // request.layer's place in `layers`
  QStringList labels;               // every token's label ("[CLS]", "r0c0", …)
  QString heading;                  // "layer 1 (…) · query [CLS] · batch element 0"
  QString upsamplingNote;           // "nearest: exact patches" / "smooth: bilinear"
  QString colormapNote;             // "magma colour map" (colormap style), else empty
  int pixelFactor = 1;              // the overlays are the picture enlarged this many times
  QImage image;                     // the picture itself, no weights over it, at the overlays' size
  ImageMap main;
  std::vector<ImageMap> heads;                         // every head of the layer, same query
  std::array<std::array<std::uint8_t, 3>, 256> lut{};  // the colour map used
  /// The patch (row, col) of the query, or (-1, -1) for a prefix token.
  [[nodiscard]] std::pair<int, int> queryPatch() const;
};

/// The 256 colours of `colormap` from 0 to 1.
std::array<std::array<std::uint8_t, 3>, 256> colormapLut(Colormap colormap);

/// Builds the scene. `flow` is the attention flow of request.batch when the source is flow
/// (attention_flow is too slow to compute here unasked). Throws InvalidInput for a model
/// without an image, or a layer, head, query or batch element out of range (naming `what`,
/// e.g. "--layer"); the rollout's own refusals pass through.
ImageScene buildImageScene(const model::Model& model, const model::ComputedModel& computed,
                           ImageRequest request, const model::AttentionFlow* flow = nullptr);

/// Overlays are computed at the picture's size times this factor (nearest), so that smooth
/// upsampling stays smooth when the picture is small: at least 256 pixels on its longer side.
int overlayFactor(const model::RgbImage& picture);

}  // namespace mhaviz::ui
