#include "model/layer_tensors.hpp"

#include <string>

#include "mhaviz/core/spec/params.hpp"

namespace mhaviz::ui {

mhaviz::io::TensorMap layerTensors(const model::Layer& layer) {
  mhaviz::io::TensorMap out;
  const Problem& p = layer.problem;
  for (const std::string_view key : kStateDictKeys) {
    if (const std::optional<Tensor>* t = p.params.find(key); t != nullptr && t->has_value())
      out.emplace(std::string(key), **t);
  }
  out.emplace("query", p.inputs.query);
  out.emplace("key", p.inputs.key);
  out.emplace("value", p.inputs.value);
  const auto add = [&](const char* name, const std::optional<Tensor>& t) {
    if (t) out.emplace(name, *t);
  };
  add("attn_mask", p.inputs.attn_mask);
  add("key_padding_mask", p.inputs.key_padding_mask);
  add("static_k", p.inputs.static_k);
  add("static_v", p.inputs.static_v);
  return out;
}

}  // namespace mhaviz::ui
