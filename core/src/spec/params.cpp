#include "mhaviz/core/spec/params.hpp"

namespace mhaviz {

std::optional<Tensor>* Params::find(std::string_view key) {
  if (key == "in_proj_weight") return &in_proj_weight;
  if (key == "q_proj_weight") return &q_proj_weight;
  if (key == "k_proj_weight") return &k_proj_weight;
  if (key == "v_proj_weight") return &v_proj_weight;
  if (key == "in_proj_bias") return &in_proj_bias;
  if (key == "bias_k") return &bias_k;
  if (key == "bias_v") return &bias_v;
  if (key == "out_proj.weight") return &out_proj_weight;
  if (key == "out_proj.bias") return &out_proj_bias;
  return nullptr;
}

const std::optional<Tensor>* Params::find(std::string_view key) const {
  return const_cast<Params*>(this)->find(key);  // NOLINT: same lookup, const result
}

std::optional<Shape> expected_param_shape(const Config& c, std::string_view key) {
  const std::int64_t E = c.embed_dim;
  const bool packed = c.packed_projection();
  if (key == "in_proj_weight") return packed ? std::optional<Shape>(Shape{3 * E, E}) : std::nullopt;
  if (key == "q_proj_weight") return packed ? std::nullopt : std::optional<Shape>(Shape{E, E});
  if (key == "k_proj_weight") {
    return packed ? std::nullopt : std::optional<Shape>(Shape{E, c.k_dim()});
  }
  if (key == "v_proj_weight") {
    return packed ? std::nullopt : std::optional<Shape>(Shape{E, c.v_dim()});
  }
  if (key == "in_proj_bias") return c.bias ? std::optional<Shape>(Shape{3 * E}) : std::nullopt;
  if (key == "bias_k" || key == "bias_v") {
    return c.add_bias_kv ? std::optional<Shape>(Shape{1, 1, E}) : std::nullopt;
  }
  if (key == "out_proj.weight") return Shape{E, E};
  if (key == "out_proj.bias") return c.bias ? std::optional<Shape>(Shape{E}) : std::nullopt;
  return std::nullopt;
}

}  // namespace mhaviz
