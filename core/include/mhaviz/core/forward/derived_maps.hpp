#pragma once
/// \file
/// The per-head maps a forward pass does not store, derived on demand from its result: the
/// raw scores (q / sqrt(hd)) @ k^T, their soft-capped copy when attn_logit_softcapping is set,
/// the merged additive mask per head, and the scores (raw scores, capped when a cap is set,
/// + mask: the softmax input). They are computed with the pass's own tiles and kernel,
/// so every value is bit for bit the one the pass used. One head costs one L x Sx x hd
/// product: cheap next to the pass.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/forward/result.hpp"

namespace mhaviz {

enum class DerivedMap : std::uint8_t {
  raw_scores,     ///< (q / sqrt(hd)) @ k^T
  mask,           ///< merged additive mask (0 where nothing is masked)
  capped_scores,  ///< cap * tanh(raw_scores / cap); raw_scores when no cap is set
  scores,         ///< raw_scores (capped_scores when a cap is set) + mask
};

/// "raw_scores", "mask", "capped_scores" or "scores".
std::string_view derived_map_name(DerivedMap map);

/// Rows [row0, row0 + rows) of map `map` of head h of batch element n: a (rows, Sx) tensor of
/// the result's element type. Throws InvalidInput when n, h or the rows are out of range.
Tensor derived_rows(const ForwardResult& r, DerivedMap map, std::int64_t n, std::int64_t h,
                    std::int64_t row0, std::int64_t rows);

/// How many rows of one head's map to derive at a time for pieces of about `bytes` bytes: a
/// multiple of the pass's query tile when a tile fits in `bytes` (so that no tile is computed
/// twice), at least 1 row, at most L.
std::int64_t derived_piece_rows(const ForwardResult& r, std::size_t bytes);

/// The whole (L, Sx) map of head h of batch element n.
Tensor derived_head(const ForwardResult& r, DerivedMap map, std::int64_t n, std::int64_t h);

/// The map for every head: an (N, H, L, Sx) tensor, as the pass used to store it (for
/// `mhaviz-cli run`, exports and tests). `threads` as RunControl::threads.
Tensor derived_all(const ForwardResult& r, DerivedMap map, int threads = 1);

/// One cell (n, h, i, j) of the map, as a double.
double derived_value(const ForwardResult& r, DerivedMap map, std::int64_t n, std::int64_t h,
                     std::int64_t i, std::int64_t j);

}  // namespace mhaviz
