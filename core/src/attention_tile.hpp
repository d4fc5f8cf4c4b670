#pragma once
// The score tile shared by the forward pass and the on-demand maps (derived_maps.cpp): both
// compute a head's raw scores in the same tiles with the same kernel, so that a map derived
// later is bit for bit the one the pass fed to the softmax (internal to the core).

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "eigen_types.hpp"

namespace mhaviz::detail {

/// dst = a * b. Eigen's blocked GEMM pays for packing; for the tiny products of small
/// configurations a coefficient-wise product is several times faster.
template <typename Dst, typename A, typename B>
void product(Dst&& dst, const A& a, const B& b) {
  if (a.rows() * a.cols() * b.cols() <= 16 * 16 * 64) {
    dst.noalias() = a.lazyProduct(b);
  } else {
    dst.noalias() = a * b;
  }
}

/// Queries per tile of a head: a stripe of rows x all Sx keys of about 256 KiB (half of a
/// Zen 3 core's L2), so that the scores, mask, softmax and dropout of a stripe happen in L2,
/// between 16 and 64 rows (fewer rows make the two products slower: Eigen's q.k^T at
/// head_dim 64 and 2048 keys measured ~76 GFLOP/s with 16 rows, ~86 with 32, ~93 with 64).
template <typename T>
std::int64_t query_tile_rows(std::int64_t Sx) {
  const std::int64_t fit = (std::int64_t{256} << 10) / (std::max<std::int64_t>(Sx, 1) * sizeof(T));
  return std::clamp<std::int64_t>(fit, 16, 64) & ~std::int64_t{15};
}

/// The scale PyTorch 2.x applies to q: sqrt(1 / head_dim).
template <typename T>
T score_scale(std::int64_t hd) {
  return static_cast<T>(std::sqrt(1.0 / static_cast<double>(hd)));
}

/// Steps 8-9 before the mask: tile = (q.middleRows(i0, rows) * scale) @ k^T, a (rows, Sx)
/// scratch matrix (resized as needed; its storage is reused across tiles).
template <typename T, typename Q, typename K>
void raw_score_tile(const Q& q, const K& k, std::int64_t i0, std::int64_t rows, T scale,
                    Mat<T>& q_scaled, Mat<T>& tile) {
  q_scaled = q.middleRows(i0, rows) * scale;
  tile.resize(rows, k.rows());
  product(tile, q_scaled, k.transpose());
}

}  // namespace mhaviz::detail
