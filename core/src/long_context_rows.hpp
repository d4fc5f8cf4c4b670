#pragma once
// Pieces of the long-context pass (long_context.cpp; internal to the core): the projected
// queries of a region and every head's keys for one batch element, mask rows read straight
// from the mask tensors (never canonicalised in full: a float (L, S) copy of a 32768-token
// causal mask alone would take 4 GiB), and the folding of a stripe of weights into blocks.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "attention_tile.hpp"  // product(), as forward.cpp
#include "dims.hpp"
#include "eigen_types.hpp"
#include "masks.hpp"
#include "mhaviz/core/long_context.hpp"
#include "mhaviz/core/parallel.hpp"
#include "projections.hpp"

namespace mhaviz::detail {

/// One past the last key of [0, S) that some row of `mask` leaves unmasked (0 when none does).
template <typename M>
std::int64_t live_keys(const M& mask, std::int64_t S) {
  using T = typename M::Scalar;
  std::int64_t live = 0;
  for (std::int64_t i = 0; i < mask.rows(); ++i) {
    std::int64_t j = S;
    while (j > live && mask(i, j - 1) == -std::numeric_limits<T>::infinity()) --j;
    live = std::max(live, j);
  }
  return live;
}

/// Rows [begin, begin + count) of batch element n of a sequence tensor ((len, N, f),
/// (N, len, f) or unbatched (len, f)) as a contiguous (count, f) matrix.
template <typename T>
Mat<T> sequence_rows(const Tensor& x, const Dims& d, bool seq_first, std::int64_t len,
                     std::int64_t n, std::int64_t begin, std::int64_t count) {
  const std::int64_t f = x.size(-1);
  const T* src = x.data<T>().data();
  Mat<T> out(count, f);
  for (std::int64_t t = 0; t < count; ++t) {
    const std::int64_t row = !d.batched  ? begin + t
                             : seq_first ? (begin + t) * d.N + n
                                         : n * len + begin + t;
    std::copy_n(src + row * f, f, out.row(t).data());
  }
  return out;
}

/// Step 2 for a few rows: x @ W.T + b, in chunks of 256 rows on `threads` threads.
template <typename T>
Mat<T> project_rows(const Mat<T>& x, const ConstMatMap<T>& w, const RowVec<T>& b, int threads) {
  constexpr std::int64_t kChunk = 256;
  Mat<T> out(x.rows(), w.rows());
  const std::int64_t chunks = (x.rows() + kChunk - 1) / kChunk;
  const Mat<T> wt = transposed(w);
  parallel_for(chunks, thread_count(threads, chunks), [&](std::int64_t c) {
    const std::int64_t r0 = c * kChunk, nr = std::min(kChunk, x.rows() - r0);
    auto o = out.middleRows(r0, nr);
    product(o, x.middleRows(r0, nr), wt);
    o.rowwise() += b;
  });
  return out;
}

/// The projected queries of rows [q0, q1) and each head's keys (steps 2, 4-7) of batch
/// element n. Values are not needed: the weights do not depend on them.
template <typename T>
class HeadKeys {
 public:
  HeadKeys(const Config& c, const Inputs& in, const Dims& d, const Projections<T>& w,
           std::int64_t n, std::int64_t q0, std::int64_t q1, int threads)
      : d_(d) {
    const bool seq_first = d.batched && !c.batch_first;
    queries_ = project_rows<T>(sequence_rows<T>(in.query, d, seq_first, d.L, n, q0, q1 - q0), w.wq,
                               w.bq, threads);
    Mat<T> projected_keys;
    if (!in.static_k) {
      projected_keys = project_rows<T>(sequence_rows<T>(in.key, d, seq_first, d.S, n, 0, d.S), w.wk,
                                       w.bk, threads);
    }
    keys_.resize(static_cast<std::size_t>(d.H));
    for (std::int64_t h = 0; h < d.H; ++h) {
      Mat<T>& k = keys_[static_cast<std::size_t>(h)];
      k = Mat<T>::Zero(d.Sx, d.hd);
      if (in.static_k) {
        k.topRows(d.S) =
            ConstMatMap<T>(in.static_k->data<T>().data() + (n * d.H + h) * d.S * d.hd, d.S, d.hd);
      } else {
        k.topRows(d.S) = projected_keys.middleCols(h * d.hd, d.hd);
      }
      if (c.add_bias_kv) k.row(d.S) = w.bias_k.segment(h * d.hd, d.hd);
      // add_zero_attn: the last row stays zero.
      k.transposeInPlace();  // kept as k^T, the right operand of product()
    }
  }
  /// Head h's queries, rows [offset, offset + rows) of the region.
  [[nodiscard]] auto query(std::int64_t h, std::int64_t offset, std::int64_t rows) const {
    return queries_.block(offset, h * d_.hd, rows, d_.hd);
  }
  /// Head h's keys transposed, (hd, Sx).
  [[nodiscard]] const Mat<T>& keys_transposed(std::int64_t h) const {
    return keys_[static_cast<std::size_t>(h)];
  }

 private:
  Dims d_;
  Mat<T> queries_;
  std::vector<Mat<T>> keys_;
};

/// Merged mask rows read from the mask tensors as they are (bool or float, 2-D or 3-D),
/// with the values Masks<T> (masks.hpp) would give.
template <typename T>
class MaskRows {
 public:
  MaskRows(const Inputs& in, const Dims& d) : d_(d) {
    if (in.attn_mask) attn_ = &*in.attn_mask;
    if (in.key_padding_mask) padding_ = &*in.key_padding_mask;
  }
  [[nodiscard]] bool any() const { return attn_ != nullptr || padding_ != nullptr; }
  /// Whether rows differ between heads (a 3-D attn_mask).
  [[nodiscard]] bool per_head() const { return attn_ != nullptr && attn_->dim() == 3; }

  template <typename Row>
  void merged_row(std::int64_t n, std::int64_t b, std::int64_t i, Row&& out) const {
    out.setZero();
    if (attn_ != nullptr) {
      const std::int64_t row = attn_->dim() == 3 ? b * d_.L + i : i;
      add_row(*attn_, row, out, false);
    }
    if (padding_ != nullptr) add_row(*padding_, d_.batched ? n : 0, out, attn_ != nullptr);
  }

 private:
  /// out[0, S) = (or +=) row `row` of a (rows, S) mask, canonicalised as canonical_mask.
  template <typename Row>
  void add_row(const Tensor& m, std::int64_t row, Row& out, bool add) const {
    const std::int64_t S = d_.S;
    const auto off = static_cast<std::size_t>(row * S);
    constexpr T kMasked = -std::numeric_limits<T>::infinity();
    T* dst = &out(0, 0);
    if (m.type() == ElemType::boolean) {
      const std::uint8_t* src = m.data<std::uint8_t>().data() + off;
      for (std::int64_t j = 0; j < S; ++j) {
        const T v = src[j] != 0 ? kMasked : T(0);
        dst[j] = add ? dst[j] + v : v;
      }
    } else if (m.type() == ElemType::f64) {
      const double* src = m.data<double>().data() + off;
      for (std::int64_t j = 0; j < S; ++j) dst[j] = (add ? dst[j] : T(0)) + static_cast<T>(src[j]);
    } else {
      const float* src = m.data<float>().data() + off;
      for (std::int64_t j = 0; j < S; ++j) dst[j] = (add ? dst[j] : T(0)) + static_cast<T>(src[j]);
    }
  }
  Dims d_;
  const Tensor* attn_ = nullptr;
  const Tensor* padding_ = nullptr;
};

/// Folds stripes of weights into the blocks of a ReducedWeights. Each stripe starts at a block
/// row, so every block is folded from one stripe and threads never share a block.
template <typename T>
class BlockFolder {
 public:
  BlockFolder(T* maps, T* average, const ReducedWeights& r)
      : maps_(maps), average_(average), r_(r) {}

  /// Folds `w` (query rows from block row r0 on, the region's key columns) into map m
  /// (-1: the average).
  template <typename W>
  void fold(std::int64_t m, std::int64_t r0, const W& w) const {
    T* dst = m < 0 ? average_ : maps_ + m * r_.rows * r_.cols;
    const std::int64_t bh = r_.block_rows, bw = r_.block_cols;
    for (std::int64_t i = 0, r = r0; i < w.rows(); i += bh, ++r) {
      const std::int64_t nr = std::min(bh, w.rows() - i);
      for (std::int64_t j = 0, col = 0; j < w.cols(); j += bw, ++col) {
        const std::int64_t nc = std::min(bw, w.cols() - j);
        const auto cells = w.block(i, j, nr, nc);
        T v;
        if (r_.reduce == BlockReduce::max) {
          v = cells.template maxCoeff<Eigen::PropagateNaN>();
        } else {
          v = static_cast<T>(cells.template cast<double>().sum() / static_cast<double>(nr * nc));
        }
        dst[r * r_.cols + col] = v;
      }
    }
  }

 private:
  T* maps_;
  T* average_;
  const ReducedWeights& r_;
};

}  // namespace mhaviz::detail
