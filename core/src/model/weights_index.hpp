#pragma once
// A weights-only model index (format version 4, docs/capture-and-models.md): its layer entries.

#include <nlohmann/json.hpp>
#include <string>

#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/model/model.hpp"

namespace mhaviz::model {

/// One layer entry of a version-4 index: "name", "shape" [N, H, L, S] (required), "group",
/// "self_attention" (default: true unless the group is "cross"), "step", "call",
/// "num_key_value_heads" (default `kv_heads`), "query_tokens", "key_tokens". Throws
/// InvalidInput naming the layer and the key.
LayerInfo parse_weights_layer(const nlohmann::json& entry, std::size_t position,
                              const std::string& source, std::int64_t kv_heads);

/// The layers of a weights-only model file from its tensors ("i/weights" per layer), checked
/// against model.index; `file` names the index in messages. Row-sum warnings go to
/// model.warnings.
void build_weights_layers(Model& model, mhaviz::io::TensorMap all, const std::string& file);

/// Bytes a weights-only model's layers take once read (the stored weights and their reading).
double weights_layer_bytes(const Config& config);

}  // namespace mhaviz::model
