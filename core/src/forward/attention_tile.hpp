#pragma once
// The score tile shared by the forward pass and the on-demand maps (derived_maps.cpp): both
// compute a head's raw scores in the same tiles with the same kernel, so that a map derived
// later is bit for bit the one the pass fed to the softmax (internal to the core).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "base/eigen_types.hpp"
#include "kernels/sgemm.hpp"

namespace mhaviz::detail {

/// Whether an Eigen expression is a row-major block of memory (a matrix, a map, a block of
/// rows) that kernels::gemm can take as it is.
template <typename X>
constexpr bool kRowMajorMemory = (std::remove_cvref_t<X>::Flags & Eigen::RowMajorBit) != 0 &&
                                 (std::remove_cvref_t<X>::Flags & Eigen::DirectAccessBit) != 0;

/// Whether kernels::gemm and kernels::transpose take elements of type T.
template <typename T>
constexpr bool kKernelScalar = std::is_same_v<T, float> || std::is_same_v<T, double>;

/// dst = a * b. Eigen's blocked GEMM pays for packing; for the tiny products of small
/// configurations a coefficient-wise product is several times faster. Larger products of
/// row-major operands, float or double, run on kernels::gemm when it is built in (libxsmm;
/// docs/architecture.md, the core's pass): a transposed operand (a weight matrix, a head's
/// keys) is therefore handed over as a row-major copy (transposed() below), made once and used
/// by many products.
template <typename Dst, typename A, typename B>
void product(Dst&& dst, const A& a, const B& b) {
  using Scalar = typename std::remove_cvref_t<A>::Scalar;
  if constexpr (kernels::kSgemm && kKernelScalar<Scalar> && kRowMajorMemory<A> &&
                kRowMajorMemory<B> && kRowMajorMemory<Dst>) {
    if (a.innerStride() == 1 && b.innerStride() == 1 && dst.innerStride() == 1 &&
        kernels::gemm(a.rows(), b.cols(), a.cols(), a.data(), a.outerStride(), b.data(),
                      b.outerStride(), dst.data(), dst.outerStride())) {
      return;
    }
  }
  if (a.rows() * a.cols() * b.cols() <= 16 * 16 * 64) {
    dst.noalias() = a.lazyProduct(b);
  } else {
    dst.noalias() = a * b;
  }
}

/// m^T as a row-major matrix, the right operand of product() for x @ m^T (projections with a
/// weight matrix, q @ k^T).
template <typename M>
Mat<typename M::Scalar> transposed(const M& m) {
  if constexpr (kernels::kSgemm && kKernelScalar<typename M::Scalar> && kRowMajorMemory<M>) {
    if (m.innerStride() == 1) {  // Eigen's transposing copy is one element at a time
      Mat<typename M::Scalar> t(m.cols(), m.rows());
      kernels::transpose(m.rows(), m.cols(), m.data(), m.outerStride(), t.data(), t.cols());
      return t;
    }
  }
  return m.transpose();
}

/// m^T as a row-major matrix whose rows lie one 64-byte line further apart than they need
/// (its storage has padded_cols(rows of m) columns; matrix() is the transpose itself). The
/// q.k^T and projection kernels read a panel of such a matrix row after row: rows 4 KiB (or a
/// multiple) apart, as 1024 or 2048 keys would be unpadded, all fall into the same few sets of
/// the L1 cache and evict each other (libxsmm's q.k^T tile at 2048 keys: 112 GFLOP/s unpadded,
/// 154 padded, on a core whose FMA peak is about 160).
template <typename T>
struct Transposed {
  Mat<T> storage;
  std::int64_t cols = 0;
  [[nodiscard]] auto matrix() const { return storage.leftCols(cols); }
};

/// Columns of a Transposed's storage for `cols` columns: whole 64-byte lines, plus one.
template <typename T>
std::int64_t padded_cols(std::int64_t cols) {
  constexpr std::int64_t line = 64 / sizeof(T);
  return (cols + line - 1) / line * line + line;
}

/// t = m^T (as transposed_padded), its storage reused when it has the size already.
template <typename M>
void transpose_padded_into(const M& m, Transposed<typename M::Scalar>& t) {
  using T = typename M::Scalar;
  t.storage.resize(m.cols(), padded_cols<T>(m.rows()));
  t.cols = m.rows();
  if constexpr (kernels::kSgemm && kKernelScalar<T> && kRowMajorMemory<M>) {
    if (m.innerStride() == 1) {
      kernels::transpose(m.rows(), m.cols(), m.data(), m.outerStride(), t.storage.data(),
                         t.storage.cols());
      return;
    }
  }
  t.storage.leftCols(t.cols) = m.transpose();
}

template <typename M>
Transposed<typename M::Scalar> transposed_padded(const M& m) {
  Transposed<typename M::Scalar> t;
  transpose_padded_into(m, t);
  return t;
}

/// Queries per tile of a head: a stripe of rows x all Sx keys of about 256 KiB (half of a
/// Zen 3 core's L2), so that the scores, mask, softmax and dropout of a stripe happen in L2,
/// between 16 and 64 rows (fewer rows make the two products slower: Eigen's q.k^T at
/// head_dim 64 and 2048 keys measured ~76 GFLOP/s with 16 rows, ~86 with 32, ~93 with 64).
template <typename T>
std::int64_t query_tile_rows(std::int64_t Sx) {
  const std::int64_t fit =
      (std::int64_t{256} << 10) / (std::max<std::int64_t>(Sx, 1) * std::int64_t{sizeof(T)});
  return std::clamp<std::int64_t>(fit, 16, 64) & ~std::int64_t{15};
}

/// The scale PyTorch 2.x applies to q: sqrt(1 / head_dim).
template <typename T>
T score_scale(std::int64_t hd) {
  return static_cast<T>(std::sqrt(1.0 / static_cast<double>(hd)));
}

/// Steps 8-9 before the mask: tile = (q.middleRows(i0, rows) * scale) @ k^T, a (rows, Sx)
/// scratch matrix (resized as needed; its storage is reused across tiles). kt is the head's
/// keys transposed, (hd, Sx) (transposed_padded()).
template <typename T, typename Q>
void raw_score_tile(const Q& q, const Transposed<T>& kt, std::int64_t i0, std::int64_t rows,
                    T scale, Mat<T>& q_scaled, Mat<T>& tile) {
  q_scaled = q.middleRows(i0, rows) * scale;
  tile.resize(rows, kt.cols);
  product(tile, q_scaled, kt.matrix());
}

}  // namespace mhaviz::detail
