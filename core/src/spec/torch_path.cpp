// docs/semantics.md, "The three paths of PyTorch 2.x": the conditions of PyTorch 2.6's
// MultiheadAttention.forward (the fast path's why_not_fast_path chain, in its order) and of
// F.multi_head_attention_forward (need_weights=False: scaled_dot_product_attention; the
// is_causal mask drop), checked against tests/fixtures/torch2/paths.
#include "mhaviz/core/spec/torch_path.hpp"

#include <cmath>

namespace mhaviz {

std::string_view to_string(TorchPath path) {
  switch (path) {
    case TorchPath::sdpa:
      return "sdpa";
    case TorchPath::fast:
      return "fast";
    case TorchPath::general:
      break;
  }
  return "general";
}

bool is_self_attention(const Inputs& in) {
  return in.query.storage_id() != nullptr && in.query.shares_storage_with(in.key) &&
         in.key.shares_storage_with(in.value) && in.query.shape() == in.key.shape() &&
         in.key.shape() == in.value.shape();
}

bool is_causal_mask(const Tensor& mask) {
  if (mask.dim() < 2 || mask.numel() == 0) return false;
  const std::int64_t L = mask.size(-2), S = mask.size(-1);
  const bool floating = mask.is_floating();
  for (std::int64_t flat = 0; flat < mask.numel(); ++flat) {
    const std::int64_t j = flat % S, i = (flat / S) % L;
    const double v = mask.value(flat);
    const bool hidden = floating ? (std::isinf(v) && v < 0) : v != 0.0;
    if (hidden != (j > i) || (floating && !hidden && v != 0.0)) return false;
  }
  return true;
}

std::string_view to_string(NotFast why) {
  switch (why) {
    case NotFast::none:
      return {};
    case NotFast::not_batched:
      return "input not batched";
    case NotFast::not_self_attention:
      return "query, key and value are not one tensor";
    case NotFast::kdim_vdim:
      return "kdim/vdim differ from embed_dim";
    case NotFast::training:
      return "training";
    case NotFast::odd_heads:
      return "num_heads is odd";
    case NotFast::not_batch_first:
      return "batch_first=False";
    case NotFast::add_bias_kv:
      return "add_bias_kv";
    case NotFast::add_zero_attn:
      return "add_zero_attn";
    case NotFast::float_mask:
      return "a floating-point mask";
    case NotFast::grad_enabled:
      return "grad enabled";
    case NotFast::no_bias:
      return "bias=False";
  }
  return {};
}

namespace {

bool floating(const std::optional<Tensor>& mask) { return mask && mask->is_floating(); }

/// PyTorch 2.6's why_not_fast_path in its order (MultiheadAttention.forward), shortened; none
/// when the call takes the fast path. Not modelled (taken as PyTorch's defaults): the fast
/// path enabled, no autocast, CPU/CUDA tensors, no NestedTensor, parameters that require grad.
NotFast why_not_fast(const Config& c, const Inputs& in) {
  if (!c.batched()) return NotFast::not_batched;
  if (!is_self_attention(in)) return NotFast::not_self_attention;
  if (!c.packed_projection()) return NotFast::kdim_vdim;
  if (c.training) return NotFast::training;
  if (c.num_heads % 2 != 0) return NotFast::odd_heads;
  if (!c.batch_first) return NotFast::not_batch_first;
  if (c.add_bias_kv) return NotFast::add_bias_kv;
  if (c.add_zero_attn) return NotFast::add_zero_attn;
  if (floating(in.attn_mask) || floating(in.key_padding_mask)) return NotFast::float_mask;
  if (c.grad_mode == GradMode::enabled) return NotFast::grad_enabled;
  // Every check passed, but _native_multi_head_attention needs in_proj_bias: the call falls
  // through to F.multi_head_attention_forward.
  if (!c.bias) return NotFast::no_bias;
  return NotFast::none;
}

}  // namespace

PathDecision torch_path(const Config& c, const Inputs& in) {
  PathDecision d;
  if (c.semantics == Semantics::v1_13) {
    d.reason = "PyTorch 1.13's general path (semantics \"1.13\"; its fast path is not modelled)";
    return d;
  }
  d.not_fast = why_not_fast(c, in);
  const std::string why(to_string(d.not_fast));
  if (d.not_fast == NotFast::none) {
    d.path = TorchPath::fast;
    d.reason = std::string("PyTorch would take the fast path: eval, ") +
               (c.grad_mode == GradMode::inference_mode ? "inference_mode" : "no_grad") +
               ", self-attention, batch_first";
  } else if (!c.need_weights) {
    d.path = TorchPath::sdpa;
    d.reason =
        "PyTorch would take the SDPA path (scaled_dot_product_attention): "
        "need_weights=False, and not the fast path: " +
        why;
    d.fully_masked_rows_zero = true;  // 2.5+'s safe softmax
    d.attn_mask_dropped = c.is_causal && in.attn_mask && !in.key_padding_mask;
  } else {
    d.path = TorchPath::general;
    d.reason =
        "PyTorch would take the general path: need_weights=True, and not the fast path: " + why;
  }
  d.causal_hint_wrong = c.is_causal && in.attn_mask && !is_causal_mask(*in.attn_mask);
  if (d.causal_hint_wrong) {
    d.warnings.push_back(
        "is_causal=True but attn_mask is not causal: an incorrect hint, and PyTorch's result "
        "depends on its path (without key_padding_mask the SDPA path applies a causal mask "
        "instead, the general path applies the given mask, the fast path ignores the hint); "
        "mhaviz computes the " +
        std::string(to_string(d.path)) + " path's result");
  }
  if (c.recorded_path && *c.recorded_path != d.path && c.semantics == Semantics::v2) {
    d.differs_from_recorded = true;
    d.warnings.push_back("the capture recorded PyTorch's " +
                         std::string(to_string(*c.recorded_path)) +
                         " path, but this configuration leads to the " +
                         std::string(to_string(d.path)) +
                         " path: its training, grad_mode or inputs.self_attention, or PyTorch's "
                         "version, differs from the captured call's; mhaviz computes the " +
                         std::string(to_string(d.path)) + " path's result");
  }
  if (d.attn_mask_dropped) {
    std::string w =
        "PyTorch's SDPA path drops attn_mask (is_causal=True, need_weights=False, no "
        "key_padding_mask) and applies its own top-left causal mask over all key columns";
    if (c.add_bias_kv || c.add_zero_attn) {
      w += ", which hides the appended bias_k / zero key from every query before its column";
    }
    d.warnings.push_back(std::move(w));
  }
  return d;
}

}  // namespace mhaviz
