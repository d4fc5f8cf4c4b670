#pragma once
/// \file
/// Everything one forward pass produced, kept for display: each intermediate of
/// F.multi_head_attention_forward per (batch element, head), and PyTorch's return values.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mhaviz/core/block_sparsity.hpp"
#include "mhaviz/core/config.hpp"
#include "mhaviz/core/params.hpp"
#include "mhaviz/core/tensor.hpp"

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

  Tensor q;           ///< (N,H,L,hd) projected query, split into heads, not scaled
  Tensor k;           ///< (N,H,Sx,hd) projected keys with bias_k / zero rows
  Tensor v;           ///< (N,H,Sx,hd) projected values with bias_v / zero rows
  Tensor raw_scores;  ///< (N,H,L,Sx) (q / sqrt(hd)) @ k^T
  /// (N,H,L,Sx) cap * tanh(raw_scores / cap), only when config.attn_logit_softcapping is set
  std::optional<Tensor> capped_scores;
  Tensor mask;     ///< (N,H,L,Sx) merged additive mask (0 where nothing is masked)
  Tensor scores;   ///< (N,H,L,Sx) raw_scores (capped_scores when capped) + mask: the softmax input
  Tensor weights;  ///< (N,H,L,Sx) softmax(scores), after dropout when training
  std::optional<Tensor> weights_before_dropout;  ///< (N,H,L,Sx) when dropout was applied
  Tensor head_output;                            ///< (N,H,L,hd) weights @ v
  Tensor merged;                                 ///< (N,L,E) heads concatenated, before out_proj
  Tensor output;                                 ///< (N,L,E) after out_proj

  Tensor attn_output;                         ///< PyTorch's first return value, its layout
  std::optional<Tensor> attn_output_weights;  ///< PyTorch's second return value (need_weights)

  std::vector<KeyColumn> columns;  ///< Sx entries describing each key column

  /// block_sparsity(mask, block) for each block of kSparsityBlocks when the caller asked for it
  /// (the window's compute worker does); empty otherwise. forward() leaves it empty.
  std::vector<BlockSparsity> block_sparsity;

  /// Bytes held by all tensors of this result.
  [[nodiscard]] std::size_t bytes() const;
};

}  // namespace mhaviz
