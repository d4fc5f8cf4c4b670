#pragma once
/// \file
/// Which of PyTorch 2.x's three paths nn.MultiheadAttention.forward takes for a call — the
/// general path, scaled_dot_product_attention (SDPA) or the native fast path — and what that
/// path does differently (docs/semantics.md, "The three paths of PyTorch 2.x"). The conditions
/// are PyTorch 2.6's MultiheadAttention.forward and F.multi_head_attention_forward.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mhaviz/core/spec/config.hpp"
#include "mhaviz/core/spec/inputs.hpp"

namespace mhaviz {

/// "general", "sdpa" or "fast" (the spelling of tests/fixtures/torch2/paths/index.json).
std::string_view to_string(TorchPath path);

/// The first condition of PyTorch 2.6's why_not_fast_path chain that keeps a call off the fast
/// path (none: the call takes it), in that chain's order.
enum class NotFast : std::uint8_t {
  none,
  not_batched,         ///< "input not batched"
  not_self_attention,  ///< "query, key and value are not one tensor"
  kdim_vdim,           ///< "kdim/vdim differ from embed_dim"
  training,            ///< "training"
  odd_heads,           ///< "num_heads is odd"
  not_batch_first,     ///< "batch_first=False"
  add_bias_kv,         ///< "add_bias_kv"
  add_zero_attn,       ///< "add_zero_attn"
  float_mask,          ///< "a floating-point mask"
  grad_enabled,        ///< "grad enabled"
  no_bias,             ///< "bias=False" (the fast path needs in_proj_bias)
};
/// The condition in words, as PathDecision::reason names it (empty for none).
std::string_view to_string(NotFast why);

/// The path PyTorch takes for a call and what follows from it for the numbers.
struct PathDecision {
  TorchPath path = TorchPath::general;
  /// Why not the fast path (none on the fast path and under semantics "1.13"): what `reason`
  /// says in words, for a caller that words it in another language.
  NotFast not_fast = NotFast::none;
  /// is_causal=True with an attn_mask that is not causal (the first warning below).
  bool causal_hint_wrong = false;
  /// The capture recorded another path than this one (Config::recorded_path): the
  /// configuration's context or PyTorch's version differs from the captured call's.
  bool differs_from_recorded = false;
  /// Why, for people: "PyTorch would take the fast path: eval, no_grad, self-attention,
  /// batch_first"; the general and SDPA paths name the first condition that rules out the
  /// fast path, as PyTorch's why_not_fast_path does.
  std::string reason;
  /// SDPA path, is_causal=True, no key_padding_mask: PyTorch drops attn_mask (before any
  /// shape check) and SDPA applies its own top-left causal mask over all S' key columns.
  bool attn_mask_dropped = false;
  /// A query that sees no key gets weights 0 (the SDPA path's safe softmax, 2.5+) rather than
  /// NaN (general and fast paths).
  bool fully_masked_rows_zero = false;
  /// Where PyTorch's result is undefined or depends on its path (is_causal with a mask that is
  /// not causal; a mask the SDPA path drops), one sentence each; empty otherwise.
  std::vector<std::string> warnings;

  bool operator==(const PathDecision&) const = default;
};

/// Query, key and value are one tensor (PyTorch's `query is key and key is value`): they
/// share their storage, as generated self-attention inputs and make_problem's loaded ones
/// with "inputs": {"self_attention": true} do.
bool is_self_attention(const Inputs& inputs);

/// Whether `mask` (bool, or float with 0 / -inf) is the top-left causal mask of its own
/// (rows, columns), every slice of a 3-D mask alike: key j hidden from query i iff j > i.
bool is_causal_mask(const Tensor& mask);

/// The path PyTorch 2.x takes for this call (semantics "1.13": always the general path, the
/// one mhaviz models for 1.13), with its reason, its numbers' rules and warnings. The masks'
/// dtypes come from `inputs` (a float mask keeps a call off the fast path).
PathDecision torch_path(const Config& config, const Inputs& inputs);

}  // namespace mhaviz
