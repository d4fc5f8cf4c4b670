#pragma once
// The projected queries of a region and every head's keys for one batch element, for the
// long-context pass (long_context.cpp; internal to the core).

#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/eigen_types.hpp"
#include "forward/attention_tile.hpp"  // product(), as forward.cpp
#include "forward/dims.hpp"
#include "forward/projections.hpp"
#include "mhaviz/core/base/parallel.hpp"

namespace mhaviz::detail {

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
  /// Keys per panel of the stored keys.
  static constexpr std::int64_t kPanel = 64;

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
    // Each head's keys transposed, (hd, Sx), the right operand of product(), stored as panels
    // of kPanel keys, each a contiguous (hd, kPanel) block: a product then reads its keys at a
    // short stride (a stride of Sx put every row of a panel in the same cache sets: measured
    // 107 against 127 GFLOP/s on 128 x 512 x 64 tiles). The bias_k key is appended;
    // add_zero_attn's stays zero, as do the unused keys of the last panel.
    const std::int64_t panels = (d.Sx + kPanel - 1) / kPanel;
    keys_.resize(static_cast<std::size_t>(d.H));
    parallel_for(d.H, thread_count(threads, d.H), [&](std::int64_t h) {
      Mat<T> kt = Mat<T>::Zero(d.hd, d.Sx);
      if (in.static_k) {
        kt.leftCols(d.S) = transposed(
            ConstMatMap<T>(in.static_k->data<T>().data() + (n * d.H + h) * d.S * d.hd, d.S, d.hd));
      } else {
        kt.leftCols(d.S) = transposed(projected_keys.middleCols(h * d.hd, d.hd));
      }
      if (c.add_bias_kv) kt.col(d.S) = w.bias_k.segment(h * d.hd, d.hd).transpose();
      Mat<T>& p = keys_[static_cast<std::size_t>(h)];
      p = Mat<T>::Zero(panels * d.hd, kPanel);
      for (std::int64_t k = 0; k < panels; ++k) {
        const std::int64_t width = std::min(kPanel, d.Sx - k * kPanel);
        p.block(k * d.hd, 0, d.hd, width) = kt.middleCols(k * kPanel, width);
      }
    });
  }

  /// tile = q @ (head h's keys [a, a + w))^T: q is (rows, hd), tile (rows, w).
  template <typename Tile, typename Q>
  void scores(Tile&& tile, const Q& q, std::int64_t h, std::int64_t a, std::int64_t w) const {
    const Mat<T>& p = keys_[static_cast<std::size_t>(h)];
    for (std::int64_t j = a; j < a + w;) {
      const std::int64_t k = j / kPanel, first = j - k * kPanel;
      const std::int64_t n = std::min(kPanel - first, a + w - j);
      auto piece = tile.middleCols(j - a, n);
      product(piece, q, p.block(k * d_.hd, first, d_.hd, n));
      j += n;
    }
  }
  /// Head h's queries, rows [offset, offset + rows) of the region.
  [[nodiscard]] auto query(std::int64_t h, std::int64_t offset, std::int64_t rows) const {
    return queries_.block(offset, h * d_.hd, rows, d_.hd);
  }

 private:
  Dims d_;
  Mat<T> queries_;
  std::vector<Mat<T>> keys_;
};

}  // namespace mhaviz::detail
