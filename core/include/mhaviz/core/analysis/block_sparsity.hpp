#pragma once
/// \file
/// Block-sparsity summary of a mask: tile each (L, S') map of the merged additive mask into
/// square blocks (the last row/column of blocks may be partial) and count the blocks whose every
/// cell is -inf (bool True). Those are the blocks a block-sparse attention kernel (FlexAttention,
/// FlashAttention's block masks) skips. A finite value such as -1e4 does not count as masked.

#include <array>
#include <cstdint>
#include <vector>

#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/spec/inputs.hpp"
#include "mhaviz/core/spec/params.hpp"

namespace mhaviz {

/// The block sizes a block-sparsity summary reports (the tiles of common block-sparse kernels).
inline constexpr std::array<std::int64_t, 2> kSparsityBlocks = {64, 128};

/// The block-sparsity summary of a mask (block_sparsity below), kept beside the result it was
/// computed from (ResultAnalyses::block_sparsity, mhaviz/core/analysis/analyses.hpp).
struct BlockSparsity {
  std::int64_t block = 64;         ///< block edge, in cells
  std::int64_t maps = 0;           ///< (batch element, head) maps, N*H
  std::int64_t rows = 0;           ///< blocks down a map: ceil(L / block)
  std::int64_t cols = 0;           ///< blocks across a map: ceil(S' / block)
  std::int64_t fully_masked = 0;   ///< blocks whose every cell is masked, over all maps
  std::vector<std::uint8_t> full;  ///< maps*rows*cols flags, map-major: 1 = fully masked

  [[nodiscard]] std::int64_t total() const { return maps * rows * cols; }
  /// fully_masked / total (0 when there is no block).
  [[nodiscard]] double share() const {
    return total() > 0 ? static_cast<double>(fully_masked) / static_cast<double>(total()) : 0.0;
  }
  /// Whether block (r, c) of map `m` (= n*H + h) is fully masked.
  [[nodiscard]] bool is_full(std::int64_t m, std::int64_t r, std::int64_t c) const {
    return full[static_cast<std::size_t>((m * rows + r) * cols + c)] != 0;
  }
};

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
