#pragma once
// docs/semantics.md, "The three paths of PyTorch 2.x": what the general-path engine is given so
// that it computes the path PyTorch takes (internal to the core).

#include <utility>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "mhaviz/core/spec/inputs.hpp"
#include "mhaviz/core/spec/torch_path.hpp"

namespace mhaviz::detail {

struct PathCall {
  Config config;
  Inputs inputs;
  /// SDPA's own top-left causal mask over all S' key columns (appended keys included), in
  /// place of the dropped attn_mask.
  bool causal_all_columns = false;
};

/// The fast path ignores is_causal (not even an attn_mask is required). The SDPA path with
/// is_causal and no key_padding_mask drops attn_mask after checking only what PyTorch still
/// checks of it (its dtype and rank; an unbatched 3-D mask's shape) and applies its own
/// causal mask.
inline PathCall call_for_path(const Config& config, Inputs inputs, const PathDecision& path) {
  PathCall call{config, std::move(inputs)};
  if (path.path == TorchPath::fast) call.config.is_causal = false;
  if (path.attn_mask_dropped && call.inputs.attn_mask) {
    const Tensor& m = *call.inputs.attn_mask;
    if (m.type() != ElemType::boolean && !m.is_floating()) {
      throw InvalidInput("only bool and floating types of attn_mask are supported");
    }
    if (m.dim() != 2 && m.dim() != 3) {
      throw InvalidInput("attn_mask must be 2-D or 3-D, got a " + std::to_string(m.dim()) +
                         "-D tensor");
    }
    if (m.dim() == 3 && !config.batched() &&
        m.shape() != Shape{config.num_heads, config.tgt_len, config.src_len}) {
      throw InvalidInput("Expected `attn_mask` shape to be " +
                         shape_str({config.num_heads, config.tgt_len, config.src_len}) +
                         " but got " + shape_str(m.shape()));
    }
    call.inputs.attn_mask.reset();
    call.config.is_causal = false;
    call.causal_all_columns = true;
  }
  return call;
}

}  // namespace mhaviz::detail
