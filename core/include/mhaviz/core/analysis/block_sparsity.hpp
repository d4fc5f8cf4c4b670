#pragma once
/// \file
/// Block-sparsity summary of a mask: tile each (L, S') map of the merged additive mask into
/// square blocks (the last row/column of blocks may be partial) and count the blocks whose every
/// cell is -inf (bool True). Those are the blocks a block-sparse attention kernel (FlexAttention,
/// FlashAttention's block masks) skips. A finite value such as -1e4 does not count as masked.

#include <cstdint>

#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/spec/inputs.hpp"
#include "mhaviz/core/spec/params.hpp"

namespace mhaviz {

/// From a forward result's merged mask (ForwardResult::merged_mask, at its broadcast shape):
/// each distinct broadcast map is scanned once, and the per-head (N*H) summary is expanded
/// from them, without materialising the per-head mask.
BlockSparsity block_sparsity(const ForwardResult& result, std::int64_t block);

/// From the masks of a problem without running the forward pass: attn_mask and
/// key_padding_mask merged as the forward pass merges them (the bias_k / zero columns, which
/// are never masked, included). Throws InvalidInput for inputs the forward pass would reject.
BlockSparsity block_sparsity(const Config& config, const Params& params, const Inputs& inputs,
                             std::int64_t block);

}  // namespace mhaviz
