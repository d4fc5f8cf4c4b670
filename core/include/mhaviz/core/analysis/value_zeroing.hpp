#pragma once
/// \file
/// Value zeroing (Mohebbi et al., EACL 2023, "Quantifying Context Mixing in Transformers"),
/// restricted to the attention layer: how much attn_output's row i changes when key column j's
/// value vector is zeroed in every head, the weights kept. Zeroing v_j removes
/// Δ_ij = Σ_h α_ij^h v_j^h W_O^h from the output (weights · V is linear in v_j and out_proj's
/// bias cancels), so the L × S' map comes from one pass: no L × S' forward passes.

#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/forward/result.hpp"

namespace mhaviz {

/// The change of every output row i for every key column j (bias_k and zero included), per
/// batch element. o_i is the output row (after out_proj), o_i^¬j = o_i − Δ_ij.
struct ValueZeroing {
  /// (N, L, Sx), the weights' element type: 1 − cos(o_i, o_i^¬j), the paper's measure (0: no
  /// change of direction, up to 2). NaN when o_i or o_i^¬j is 0 or not finite. Exactly 0 when
  /// Δ_ij = 0: the zero column's value is already 0 (add_zero_attn), so zeroing changes nothing.
  Tensor cosine;
  /// (N, L, Sx): ‖Δ_ij‖ / ‖o_i‖; NaN when o_i is 0 or not finite.
  Tensor relative_l2;
};

/// Value zeroing of `result` from its v, weights (those that were applied, after dropout) and
/// out_proj.weight, in double. `control`: its threads share the query rows (the numbers do not
/// depend on them, bit for bit), its cancel flag throws Cancelled. Throws InvalidInput when the
/// result has no out_proj.weight.
ValueZeroing value_zeroing(const ForwardResult& result, const RunControl& control = {});

}  // namespace mhaviz
