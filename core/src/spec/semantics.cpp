// docs/semantics.md, "Version differences": PyTorch 1.13's mask handling and fully masked
// rows, mapped onto the 2.x pass that forward() implements.
#include "mhaviz/core/spec/semantics.hpp"

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/spec/torch_path.hpp"

namespace mhaviz {

Inputs inputs_for_semantics(const Config& config, const Inputs& inputs) {
  if (config.semantics == Semantics::v2) return inputs;
  if (config.is_causal) {
    throw InvalidInput(
        "is_causal does not exist in PyTorch 1.13 (configuration key \"semantics\": \"1.13\"); "
        "set is_causal to false, or semantics to \"2.x\"");
  }
  Inputs out = inputs;
  // 1.13: "Byte tensor for attn_mask in nn.MultiheadAttention is deprecated" and .to(bool).
  if (out.attn_mask && out.attn_mask->type() == ElemType::u8) {
    out.attn_mask = out.attn_mask->to(ElemType::boolean);
  }
  if (out.attn_mask && out.key_padding_mask && out.key_padding_mask->is_floating()) {
    if (out.attn_mask->type() == ElemType::boolean) {
      // attn_mask.logical_or(key_padding_mask): a non-zero padding value masks the key, which
      // the 2.x addition of a bool (-inf / 0) padding mask reproduces exactly.
      out.key_padding_mask = out.key_padding_mask->to(ElemType::boolean);
    } else if (out.attn_mask->is_floating()) {
      throw InvalidInput(
          "PyTorch 1.13 cannot combine a float attn_mask with a float key_padding_mask "
          "(masked_fill needs a bool mask; configuration key \"semantics\": \"1.13\"); make one "
          "of them bool, or set semantics to \"2.x\" (which adds them)");
    }
  }
  return out;
}

bool zero_fully_masked_rows(const Config& config, const Inputs& inputs) {
  return torch_path(config, inputs).fully_masked_rows_zero;
}

std::string semantics_warning(const Config& config, const Inputs& inputs) {
  if (config.semantics == Semantics::v1_13 && inputs.attn_mask &&
      inputs.attn_mask->type() == ElemType::u8) {
    return "Byte tensor for attn_mask in nn.MultiheadAttention is deprecated. Use bool tensor "
           "instead. (PyTorch 1.13, semantics \"1.13\": the uint8 mask is used as bool, "
           "non-zero = masked)";
  }
  return {};
}

}  // namespace mhaviz
