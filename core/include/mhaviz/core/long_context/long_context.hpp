#pragma once
/// \file
/// Attention weights of a long context, reduced to a screen as they are computed.
///
/// When every head's L x S weights do not fit in memory (L = S = 32768, H = 8 needs 32 GiB in
/// float32), the weights are computed exactly, stripe by stripe of query rows, and each stripe
/// is folded at once into blocks of `block_rows` x `block_cols` cells (their mean or maximum),
/// key chunk by key chunk while the chunk is in cache; chunks the mask covers entirely are
/// skipped. No row of weights is ever held. A region (a zoomed part of the map) is computed the
/// same way; when it is small enough, its blocks are single cells: the exact weights.

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "mhaviz/core/spec/inputs.hpp"
#include "mhaviz/core/spec/params.hpp"

namespace mhaviz {

/// How the cells of one block become one value.
enum class BlockReduce : std::uint8_t { mean, max };

/// What to compute: a region of the weights of one batch element, folded to at most
/// `max_rows` x `max_cols` values per map.
struct ReducedRequest {
  std::int64_t batch = 0;  ///< batch element n
  std::int64_t head = -1;  ///< one head, or -1 for every head (and their average)
  /// Query rows [query_begin, query_end) and key columns [key_begin, key_end) (key columns
  /// count the appended bias_k / zero keys); an end of -1 means the last row / column.
  std::int64_t query_begin = 0, query_end = -1;
  std::int64_t key_begin = 0, key_end = -1;
  std::int64_t max_rows = 512;  ///< values per map vertically (e.g. screen pixels)
  std::int64_t max_cols = 512;  ///< values per map horizontally
  BlockReduce reduce = BlockReduce::mean;
};

/// The folded weights. Value (r, c) of a map covers query rows
/// [query_begin + r*block_rows, ... + block_rows) and key columns
/// [key_begin + c*block_cols, ... + block_cols), clipped to the region (the last blocks may
/// be smaller; a mean is over the cells the block holds).
struct ReducedWeights {
  std::int64_t N = 0, H = 0, L = 0, Sx = 0;  ///< sizes of the whole problem
  std::int64_t batch = 0;
  std::int64_t query_begin = 0, query_end = 0, key_begin = 0, key_end = 0;
  std::int64_t block_rows = 1, block_cols = 1;
  std::int64_t rows = 0, cols = 0;  ///< values per map
  BlockReduce reduce = BlockReduce::mean;
  std::vector<std::int64_t> heads;  ///< the head of each map
  /// (heads.size(), rows, cols) in the config's dtype.
  Tensor maps;
  /// (rows, cols): the fold of the per-cell average over all heads (the weights
  /// average_attn_weights=True returns); empty unless every head was asked for.
  Tensor average;

  /// Whether every block is one cell (the values are the weights themselves).
  [[nodiscard]] bool exact() const { return block_rows == 1 && block_cols == 1; }
  /// "block mean of 16x16 cells", "block max of 4x3 cells" or "exact cells".
  [[nodiscard]] std::string description() const;
};

/// The block size that folds `cells` into at most `max_values` values (at least 1).
std::int64_t block_size(std::int64_t cells, std::int64_t max_values);

/// Computes the request. Without inputs.attn_mask, an attn_mask the config generates from a
/// pattern (make_reduced_problem leaves it out) is read row by row from the config; other
/// generated kinds must be given as the tensor. Checks everything forward() checks (throws
/// InvalidInput with the same messages), and InvalidInput for a request outside the problem (naming
/// the range) or for dropout in training mode (the reduced view shows weights without dropout
/// only). Throws Cancelled when control.cancel is set; control.progress gets (stripes done,
/// stripes).
ReducedWeights reduced_weights(const Config& config, const Params& params, const Inputs& inputs,
                               const ReducedRequest& request, const RunControl& control = {});

}  // namespace mhaviz
