#pragma once
// The image of a version-3 model index (docs/capture-and-models.md): its "image" object read
// and checked against the layers, and its members taken from the tensors file.

#include <nlohmann/json.hpp>
#include <string>

#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/model/image_grid.hpp"
#include "mhaviz/core/model/model.hpp"

namespace mhaviz::model {

/// Reads doc["image"] into index.image (required in version 3), checks the grid, that every
/// self-attention layer has prefix + rows × cols tokens and that there is one, and labels the
/// tokens of the image's layers that have no labels ("[CLS]", "r0c0", …). Throws InvalidInput
/// naming `source`, the key or the layer, and the fix.
void parse_image_index(const nlohmann::json& doc, const std::string& source, ModelIndex& index);

/// Moves "image/input" and "image/picture" out of `all` and checks their shapes and types
/// against the grid and the layers' batch. Throws InvalidInput naming the member and the fix.
ModelImage take_image(io::TensorMap& all, const ModelIndex& index, const std::string& file);

}  // namespace mhaviz::model
