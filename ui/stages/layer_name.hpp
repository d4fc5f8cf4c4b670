#pragma once
// How the window names a layer of a model (the model view, its docks, the comparison of two
// model files): layer_title's words in the window's language around the module path, which stays
// as the model has it. QtCore only; any thread.

#include <QString>
#include <cstddef>

#include "mhaviz/core/model/model.hpp"

namespace mhaviz::ui {

/// "layer 0 (blocks.0.attn, step 6)": numbered within its step (model::layer_number), ", call 1"
/// for a module's second call.
QString modelLayerName(const mhaviz::model::ModelIndex& index, std::size_t layer);

}  // namespace mhaviz::ui
