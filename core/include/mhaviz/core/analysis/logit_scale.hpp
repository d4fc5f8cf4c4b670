#pragma once
/// \file
/// Logit scale per head (Zhai et al., ICML 2023, "Stabilizing Transformer Training by
/// Preventing Attention Entropy Collapse"): the largest singular value of the head's bilinear
/// form W_Q^h^T W_K^h divided by sqrt(head_dim). The logit of query x and key y is
/// x^T (W_Q^h^T W_K^h / sqrt(hd)) y plus bias terms, so a large value lets the logits spread
/// widely and predicts low attention entropy.

#include <cstdint>
#include <vector>

#include "mhaviz/core/spec/params.hpp"

namespace mhaviz {

/// ‖W_Q^h^T W_K^h‖_2 / sqrt(E / H) of every head h, in double. W_Q^h, W_K^h are rows
/// [h*hd, (h+1)*hd) of the query and key projections (in_proj_weight's first two E-row blocks,
/// or q_proj_weight / k_proj_weight). Throws InvalidInput when the weights are missing or E is
/// not a multiple of H.
std::vector<double> logit_scales(const Params& params, std::int64_t embed_dim,
                                 std::int64_t num_heads);

}  // namespace mhaviz
