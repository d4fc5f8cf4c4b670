#pragma once
/// \file
/// Everything one forward pass produced, kept for display: the intermediates of
/// F.multi_head_attention_forward per (batch element, head), and PyTorch's return values.
/// The raw scores, their soft-capped copy, the per-head merged mask and the scores are not
/// stored: they are derived on demand from q, k and merged_mask
/// (mhaviz/core/forward/derived_maps.hpp), exactly as the pass computed them.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "mhaviz/core/spec/params.hpp"
#include "mhaviz/core/spec/torch_path.hpp"

namespace mhaviz {

/// What one key column (one row of k/v after all appends) is.
enum class KeyKind : std::uint8_t {
  source,  ///< key position `index` of the key/value input (or of static_k)
  bias_k,  ///< the row appended by add_bias_kv (after projection, at the end)
  zero,    ///< the all-zero row appended by add_zero_attn (after the head split, at the end)
};

struct KeyColumn {
  KeyKind kind = KeyKind::source;
  std::int64_t index = 0;  ///< source position for KeyKind::source, else the column index
  bool operator==(const KeyColumn&) const = default;
};

/// The tensors of one forward pass. Element type is the config's dtype throughout.
/// Per-head tensors have shape (N, H, ...) with N = 1 for unbatched input; head h of batch
/// element n is PyTorch's batch-head index b = n*H + h.
struct ForwardResult {
  Config config;        ///< the snapshot this result was computed from
  Params params;        ///< the parameters it was computed with (shares their storage)
  std::int64_t N = 0;   ///< batch elements (1 when unbatched)
  std::int64_t H = 0;   ///< heads
  std::int64_t L = 0;   ///< target length
  std::int64_t S = 0;   ///< source length before any appended column (static_k's when given)
  std::int64_t Sx = 0;  ///< keys after add_bias_kv / add_zero_attn (S, S+1 or S+2)
  std::int64_t E = 0;   ///< embed_dim
  std::int64_t hd = 0;  ///< head_dim

  Tensor q;  ///< (N,H,L,hd) projected query, split into heads, not scaled
  Tensor k;  ///< (N,H,Sx,hd) projected keys with bias_k / zero rows
  Tensor v;  ///< (N,H,Sx,hd) projected values with bias_v / zero rows
  /// The merged additive mask (attn_mask + key_padding_mask, 0 in appended columns) at its
  /// natural broadcast shape (Nm, Hm, Lm, Sx) with Nm in {1, N}, Hm in {1, H}, Lm in {1, L}:
  /// (1,1,L,Sx) for a 2-D attn_mask alone, (N,1,1,Sx) for key_padding_mask alone, (N,1,L,Sx)
  /// for both, (N,H,L,Sx) with a 3-D attn_mask. Empty (numel 0) when there is no mask.
  /// Read it through mask_offset(); the per-head (N,H,L,Sx) view is derived_maps.hpp's.
  Tensor merged_mask;
  Tensor weights;  ///< (N,H,L,Sx) softmax(scores), after dropout when training
  std::optional<Tensor> weights_before_dropout;  ///< (N,H,L,Sx) when dropout was applied
  Tensor head_output;                            ///< (N,H,L,hd) weights @ v
  Tensor merged;                                 ///< (N,L,E) heads concatenated, before out_proj
  Tensor output;                                 ///< (N,L,E) after out_proj

  Tensor attn_output;                         ///< PyTorch's first return value, its layout
  std::optional<Tensor> attn_output_weights;  ///< PyTorch's second return value (need_weights)

  std::vector<KeyColumn> columns;  ///< Sx entries describing each key column

  /// The path PyTorch 2.x takes for this call (torch_path), whose numbers these are.
  PathDecision path;

  /// Bytes held by all tensors of this result and its parameters (each storage once). What is
  /// computed from it afterwards (mhaviz::ResultAnalyses) counts its own bytes.
  [[nodiscard]] std::size_t bytes() const;

  /// Whether this is a reduced result: the long-context view's folded weights (one batch
  /// element's maps, block means or maxima) and the mask drawn from them, without q, k, v or
  /// outputs (ui/stages/reduced_result.hpp makes them). A pass's result is never reduced.
  [[nodiscard]] bool is_reduced() const { return weights.dim() == 4 && q.dim() == 0; }
  /// Whether this is a weights-only file's layer (model/weights_only.hpp's weights_result): the
  /// weights as stored, q, k and v without columns, no outputs, and no mask known (a 0 there may
  /// be a masked key or a key given no weight).
  [[nodiscard]] bool is_stored_weights() const {
    return weights.dim() == 4 && q.dim() == 4 && q.size(3) == 0;
  }

  /// Whether the pass soft-capped its scores (config.attn_logit_softcapping set), so that
  /// DerivedMap::capped_scores is a stage of its own. False for a reduced result (no q).
  [[nodiscard]] bool has_capped_scores() const {
    return config.attn_logit_softcapping.has_value() && q.dim() == 4;
  }
  /// Whether any mask was applied (merged_mask is not empty).
  [[nodiscard]] bool has_mask() const { return merged_mask.numel() > 0; }
  /// Flat index into merged_mask of element (n, h, i, 0) of the per-head mask, reading each
  /// broadcast dimension at 0. Only when has_mask().
  [[nodiscard]] std::int64_t mask_offset(std::int64_t n, std::int64_t h, std::int64_t i) const {
    const auto& m = merged_mask.shape();
    const std::int64_t nm = m[0] == 1 ? 0 : n, hm = m[1] == 1 ? 0 : h, im = m[2] == 1 ? 0 : i;
    return ((nm * m[1] + hm) * m[2] + im) * m[3];
  }
  /// Distance in merged_mask between rows i and i+1 of one head's mask: Sx, or 0 when the
  /// mask is the same for every query (key_padding_mask alone).
  [[nodiscard]] std::int64_t mask_row_stride() const {
    return merged_mask.shape()[2] == 1 ? 0 : merged_mask.shape()[3];
  }
};

}  // namespace mhaviz
