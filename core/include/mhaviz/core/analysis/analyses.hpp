#pragma once
/// \file
/// The analyses of one forward pass's result, kept beside it and never inside it: whoever asks
/// for them owns them (the window's computation, mhaviz-cli's commands), as LLVM's analysis
/// manager keeps analyses beside the IR. ForwardResult holds only what the pass computed.

#include <cstddef>
#include <memory>
#include <vector>

#include "mhaviz/core/analysis/block_sparsity.hpp"
#include "mhaviz/core/analysis/measures.hpp"

namespace mhaviz {

/// What was computed from a finished result after its pass, each part when it was asked for.
struct ResultAnalyses {
  /// Head measures, value norms, value zeroing, sinks and logit scales
  /// (measure_result(result, ...)); null until computed, or when computing them failed.
  std::shared_ptr<const ResultMeasures> measures;
  /// block_sparsity(result, block) for each block of kSparsityBlocks; empty when not asked for.
  std::vector<BlockSparsity> block_sparsity;

  /// Bytes of the measures' tensors (the block-sparsity flags, a bit per block of cells, are
  /// not counted). A result with its analyses holds result.bytes() + analyses.bytes().
  [[nodiscard]] std::size_t bytes() const { return measures ? measures->bytes() : 0; }
};

}  // namespace mhaviz
