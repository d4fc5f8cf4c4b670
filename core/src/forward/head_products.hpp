#pragma once
// Steps 2 and 5 of docs/semantics.md for small passes: the in-projection multiplied straight
// into each head's rows, one product per batch element and head, with no scratch matrix and no
// copy (internal to the core; forward.cpp's project_heads decides when).

#include <cstdint>

#include "attention_tile.hpp"
#include "base/eigen_types.hpp"
#include "dims.hpp"
#include "mhaviz/core/base/tensor.hpp"

namespace mhaviz::detail {

/// Whether heads_direct() gives the same bits as a product over all E columns followed by a
/// copy into the heads: with kernels::gemm every element is the chain of fused multiply-adds
/// over the inner dimension in order, however the columns are cut (kernels/sgemm.hpp), so a
/// head's columns come out the same whether they are computed alone or with the others.
template <typename T>
constexpr bool kHeadsDirectExact = kernels::kSgemm&& kKernelScalar<T>;

/// For batch element n and head h: rows [0, len) of matrix n*H + h of `heads` (N, H,
/// block_rows, hd) = x's tokens of n @ wt's columns [h*hd, (h+1)*hd) + b's same columns. x is
/// (len*N, f) when seq_first (token l of n at row l*N + n), else (N*len, f).
template <typename T>
void heads_direct(const Tensor& x, const Transposed<T>& wt, const RowVec<T>& b, const Dims& d,
                  bool seq_first, std::int64_t len, Tensor& heads, std::int64_t block_rows) {
  const std::int64_t f = x.size(-1), hd = d.hd;
  const T* all = x.data<T>().data();
  T* out = heads.data<T>().data();
  const auto w = wt.matrix();
  for (std::int64_t n = 0; n < d.N; ++n) {
    const StridedMap<T> tokens(all + (seq_first ? n * f : n * len * f), len, f,
                               Eigen::OuterStride<>(seq_first ? d.N * f : f));
    for (std::int64_t h = 0; h < d.H; ++h) {
      MatMap<T> o(out + (n * d.H + h) * block_rows * hd, len, hd);
      product(o, tokens, w.middleCols(h * hd, hd));
      o.rowwise() += b.segment(h * hd, hd);
    }
  }
}

}  // namespace mhaviz::detail
