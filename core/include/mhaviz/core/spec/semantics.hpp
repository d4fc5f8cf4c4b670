#pragma once
/// \file
/// Where PyTorch 1.13 and 2.x disagree (docs/semantics.md, "Version differences"), expressed
/// as what the 2.x pass must be given to compute what the configured version computes.

#include <string>

#include "mhaviz/core/spec/config.hpp"
#include "mhaviz/core/spec/inputs.hpp"

namespace mhaviz {

/// The inputs the (2.x) forward pass computes with so that it gives config.semantics' result:
/// unchanged for "2.x". For "1.13": a uint8 attn_mask becomes bool (1.13 converts it with a
/// deprecation warning); with a bool attn_mask a float key_padding_mask becomes bool (1.13
/// OR-s the two, so every non-zero padding value masks its key). Throws InvalidInput where
/// 1.13 has no result: is_causal set (1.13 has no such argument) and a float attn_mask with a
/// float key_padding_mask (1.13's masked_fill needs a bool mask). Tensors are shared, not
/// copied, where nothing changes.
Inputs inputs_for_semantics(const Config& config, const Inputs& inputs);

/// Whether a fully masked query gets weights 0 instead of NaN: 2.x's SDPA path (need_weights=
/// False, not the fast path; 2.5+'s safe softmax). torch_path() decides the path.
bool zero_fully_masked_rows(const Config& config, const Inputs& inputs);

/// The warning PyTorch prints for these inputs under config.semantics, or an empty string:
/// 1.13's "Byte tensor for attn_mask in nn.MultiheadAttention is deprecated" for a uint8 mask.
std::string semantics_warning(const Config& config, const Inputs& inputs);

}  // namespace mhaviz
