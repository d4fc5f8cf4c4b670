#pragma once
// Where the open session came from: one layer of a model (the model view) or the user's own.

#include <QString>
#include <memory>

#include "mhaviz/core/model/image_grid.hpp"
#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::ui {

/// Where the open session came from when it is one layer of a model (the model view): the
/// tensors it computes with are that layer's. Empty for a session of the user's own.
struct SessionOrigin {
  QString model;       // the model file's name shown ("enc4.json")
  QString layerTitle;  // "layer 2 (layers.2.self_attn)"
  int layer = -1;
  mhaviz::Config config;  // the layer's configuration as opened (edits make it "edited")
  // A layer over the model's image (a vision transformer's): the pictures of its patches, which
  // the token views draw beside the patch tokens; null otherwise.
  std::shared_ptr<const mhaviz::model::PatchPictures> pictures;
  [[nodiscard]] bool isModelLayer() const { return layer >= 0; }
  bool operator==(const SessionOrigin&) const = default;
};

}  // namespace mhaviz::ui
