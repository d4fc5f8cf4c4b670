#pragma once
// Where the open session came from: one layer of a model (the model view) or the user's own.

#include <QString>

#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::ui {

/// Where the open session came from when it is one layer of a model (the model view): the
/// tensors it computes with are that layer's. Empty for a session of the user's own.
struct SessionOrigin {
  QString model;       // the model file's name shown ("enc4.json")
  QString layerTitle;  // "layer 2 (layers.2.self_attn)"
  int layer = -1;
  mhaviz::Config config;  // the layer's configuration as opened (edits make it "edited")
  [[nodiscard]] bool isModelLayer() const { return layer >= 0; }
  bool operator==(const SessionOrigin&) const = default;
};

}  // namespace mhaviz::ui
