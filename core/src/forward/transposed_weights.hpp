#pragma once
// Weight matrices transposed once for many passes (internal to the core).
//
// Every pass multiplies by W^T (docs/semantics.md steps 2 and 14) and so needs W transposed
// (attention_tile.hpp: transposed_padded); a window recomputing at each slider step with the
// same weights would transpose them every time (about 4 x 115 us at E = 512, a tenth of a
// small pass). transposed_weight() keeps the last few in a process-wide cache keyed on the
// tensor's storage. An entry holds a copy of the tensor, which keeps that storage alive and
// unchanged: a Tensor copies its elements before it is written while another copy shares them
// (tensor.hpp), so a weight changed since is stored elsewhere and misses.

#include <cstdint>
#include <memory>

#include "attention_tile.hpp"
#include "mhaviz/core/base/tensor.hpp"

namespace mhaviz::detail {

/// Rows [row0, row0 + rows) of the 2-D tensor `w` (element type T) transposed, from the cache
/// or made and kept there (at most kTransposedWeightsBytes of them, the least recently used
/// dropped first). Thread-safe.
template <typename T>
std::shared_ptr<const Transposed<T>> transposed_weight(const Tensor& w, std::int64_t row0,
                                                       std::int64_t rows);

/// The most the cache holds, in bytes of transposed matrices.
inline constexpr std::int64_t kTransposedWeightsBytes = std::int64_t{64} << 20;

}  // namespace mhaviz::detail
