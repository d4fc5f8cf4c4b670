#pragma once
// One stripe of the long-context pass (long_context.cpp; internal to the core): the weights of
// a stripe of query rows, computed key chunk by key chunk and folded into blocks while the
// chunk is in cache, without ever holding a row of weights.
//
// Per row the softmax is kept online: the largest score so far M, the sum of exp(x - M) so far
// Z and, per block column of the region, the sum of exp(x - M) of its keys (block means) or
// the largest score (block maxima); when a chunk raises M, the sums are rescaled by
// exp(M_old - M_new). At the end a block's mean is sum over its rows of (row sum / Z) / cells,
// and its maximum exp(max score - M) / Z: the weights docs/semantics.md step 10 defines, to
// float rounding. Chunks the mask covers entirely are skipped (their weights are exactly 0),
// and a masked key adds exp(-inf) = 0 exactly. A fully masked row is NaN (or 0 where PyTorch's
// need_weights=False path gives 0), as in forward().

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "base/eigen_types.hpp"
#include "forward/attention_tile.hpp"  // product(), as forward.cpp
#include "forward/exact_exp.hpp"
#include "kernels/fold_row.hpp"
#include "long_context_masks.hpp"
#include "long_context_rows.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/long_context/long_context.hpp"

namespace mhaviz::detail {

/// Per-thread storage of StripeFolder, reused from stripe to stripe.
template <typename T>
struct FoldScratch {
  MaskScratch<T> mask;
  Mat<T> q;                 // the stripe's scaled queries of one head, rows x hd
  Mat<T> scores;            // rows x chunk keys
  Mat<T> average;           // rows x chunk keys: the head average (block maxima only)
  RowVec<T> e;              // exp of one row of a chunk
  Mat<T> acc;               // rows x block columns: exp sums (means) or maxima
  std::vector<T> max, sum;  // per map and row: M and Z
  Mat<double> head_means;   // block rows x block columns: the sum over heads of block means
};

/// What the fold writes and how.
struct FoldTarget {
  ReducedWeights* out;
  std::int64_t q0, k0, k1;  // the region's first query and its keys [k0, k1)
  bool zero_masked_rows;    // a fully masked row is 0 rather than NaN
};

template <typename T>
class StripeFolder {
 public:
  static constexpr T kInf = std::numeric_limits<T>::infinity();

  StripeFolder(const HeadKeys<T>& keys, const StripeMasks<T>& masks, const Dims& d,
               const FoldTarget& target)
      : keys_(keys), masks_(masks), d_(d), t_(target), r_(*target.out) {}

  /// Folds query rows [i0, i0 + rows), which start at block row r0, into every map (and the
  /// average when asked for). `cancelled` is polled between heads.
  template <typename Cancel>
  void fold(std::int64_t i0, std::int64_t rows, std::int64_t r0, FoldScratch<T>& s,
            const Cancel& cancelled) const {
    const auto maps = static_cast<std::int64_t>(r_.heads.size());
    const bool mean = r_.reduce == BlockReduce::mean;
    const bool average = r_.average.dim() > 0;
    masks_.begin_stripe(i0, rows, s.mask);
    s.max.assign(static_cast<std::size_t>(maps * rows), -kInf);
    s.sum.assign(static_cast<std::size_t>(maps * rows), T(0));
    s.scores.resize(rows, std::max(masks_.chunk_width(), d_.Sx - d_.S));
    s.e.resize(s.scores.cols());
    const std::int64_t block_rows = (rows + r_.block_rows - 1) / r_.block_rows;
    if (average && mean) s.head_means.setZero(block_rows, r_.cols);
    const T scale = score_scale<T>(d_.hd);
    for (std::int64_t m = 0; m < maps; ++m) {
      if (cancelled()) throw mhaviz::Cancelled();
      const std::int64_t h = r_.heads[static_cast<std::size_t>(m)];
      s.q = keys_.query(h, i0 - t_.q0, rows) * scale;
      if (mean) {
        s.acc.setZero(rows, r_.cols);
      } else {
        s.acc.setConstant(rows, r_.cols, -kInf);
      }
      T* mx = s.max.data() + m * rows;
      T* sum = s.sum.data() + m * rows;
      for (std::int64_t k = 0; k < chunks(); ++k) {
        one_chunk(r_.batch * d_.H + h, k, false, s,
                  [&](std::int64_t a, std::int64_t w) { accumulate(a, w, mx, sum, s); });
      }
      write_head(m, r0, mx, sum, s);
    }
    if (!average) return;
    if (cancelled()) throw mhaviz::Cancelled();
    T* dst = r_.average.template data<T>().data() + r0 * r_.cols;
    if (mean) {
      for (std::int64_t br = 0; br < block_rows; ++br) {
        for (std::int64_t c = 0; c < r_.cols; ++c) {
          dst[br * r_.cols + c] = static_cast<T>(s.head_means(br, c) / static_cast<double>(d_.H));
        }
      }
    } else {
      average_maxima(rows, block_rows, dst, s);
    }
  }

 private:
  /// The chunks of a row: those of the mask, then the appended bias_k / zero keys (never
  /// masked) when there are any.
  [[nodiscard]] std::int64_t chunks() const { return masks_.chunks() + (d_.Sx > d_.S ? 1 : 0); }

  /// Calls f(a, w) after s.scores' first w columns hold the masked scores of chunk k, keys
  /// [a, a + w), of batch-head b for the queries s.q; nothing when the mask covers the chunk
  /// entirely or, with `region_only`, when the chunk holds no key of the region.
  template <typename F>
  void one_chunk(std::int64_t b, std::int64_t k, bool region_only, FoldScratch<T>& s, F&& f) const {
    const bool appended = k == masks_.chunks();
    const std::int64_t a = appended ? d_.S : masks_.chunk_begin(k);
    const std::int64_t w = appended ? d_.Sx - d_.S : masks_.chunk_end(k) - a;
    if (region_only && (a + w <= t_.k0 || a >= t_.k1)) return;
    const ChunkMask kind = appended ? ChunkMask::none : masks_.prepare(b, k, s.mask);
    if (kind == ChunkMask::all) return;
    auto tile = s.scores.leftCols(w);
    keys_.scores(tile, s.q, b % d_.H, a, w);
    if (kind == ChunkMask::some) tile += s.mask.values.leftCols(w);
    f(a, w);
  }

  /// Calls f(j, n, col) for the keys [j, j + n) of [a, a + w) that lie in block column col of
  /// the region, in order.
  template <typename F>
  void for_each_block_column(std::int64_t a, std::int64_t w, F&& f) const {
    const std::int64_t end = std::min(a + w, t_.k1);
    for (std::int64_t j = std::max(a, t_.k0); j < end;) {
      const std::int64_t col = (j - t_.k0) / r_.block_cols;
      const std::int64_t next = std::min(end, t_.k0 + (col + 1) * r_.block_cols);
      f(j, next - j, col);
      j = next;
    }
  }

  /// The online softmax and block sums (or maxima) of one chunk's rows.
  void accumulate(std::int64_t a, std::int64_t w, T* mx, T* sum, FoldScratch<T>& s) const {
    const bool mean = r_.reduce == BlockReduce::mean;
    for (std::int64_t r = 0; r < s.scores.rows(); ++r) {
      const auto x = s.scores.row(r).head(w);
      T m;
      if constexpr (std::is_same_v<T, float>) {
        m = kernels::fold_kernels().max_f32(x.data(), w);
      } else {
        m = x.maxCoeff();
      }
      if (m == -kInf) continue;  // every key of this row masked here: weights 0
      if (m > mx[r]) {
        const T f = mx[r] == -kInf ? T(0) : std::exp(mx[r] - m);
        sum[r] *= f;
        if (mean) s.acc.row(r) *= f;
        mx[r] = m;
      }
      // Only the keys from the first to the last unmasked one: masked keys add exactly 0 (the
      // diagonal chunk of a causal mask is half masked).
      std::int64_t lo = 0, hi = w;
      while (x(lo) == -kInf) ++lo;
      while (x(hi - 1) == -kInf) --hi;
      sum[r] += exp_sums(x, a, lo, hi, mx[r], mean ? &s.acc(r, 0) : nullptr, s);
      if (!mean) {
        for_each_block_column(
            a + lo, hi - lo, [&](std::int64_t j, std::int64_t n, std::int64_t col) {
              s.acc(r, col) = std::max(
                  s.acc(r, col), x.segment(j - a, n).template maxCoeff<Eigen::PropagateNaN>());
            });
      }
    }
  }

  /// The sum of exp(x_j - shift) over keys [a + lo, a + hi) of a chunk starting at key a; with
  /// `acc` (a row of block sums), each key's term is also added to its block column's sum.
  template <typename X>
  T exp_sums(const X& x, std::int64_t a, std::int64_t lo, std::int64_t hi, T shift, T* acc,
             FoldScratch<T>& s) const {
    // The part of [lo, hi) inside the region's keys: [ra, rb).
    const std::int64_t ra = std::clamp(t_.k0 - a, lo, hi), rb = std::clamp(t_.k1 - a, lo, hi);
    if constexpr (std::is_same_v<T, float>) {
      const kernels::FoldKernels& k = kernels::fold_kernels();
      if (acc == nullptr) return k.exp_sums_f32(x.data() + lo, hi - lo, shift, 0, 0, nullptr);
      float total = 0.0F;
      if (ra > lo) total += k.exp_sums_f32(x.data() + lo, ra - lo, shift, 0, 0, nullptr);
      if (rb > ra) {
        const std::int64_t col = (a + ra - t_.k0) / r_.block_cols;
        const std::int64_t first = t_.k0 + (col + 1) * r_.block_cols - (a + ra);
        total += k.exp_sums_f32(x.data() + ra, rb - ra, shift, first, r_.block_cols, acc + col);
      }
      if (hi > rb) total += k.exp_sums_f32(x.data() + rb, hi - rb, shift, 0, 0, nullptr);
      return total;
    } else {
      auto e = s.e.segment(lo, hi - lo);
      exp_shifted(x.segment(lo, hi - lo), e, shift);
      if (acc == nullptr) return e.sum();
      T total = 0;
      if (ra > lo) total += s.e.segment(lo, ra - lo).sum();
      for_each_block_column(a + ra, rb - ra, [&](std::int64_t j, std::int64_t n, std::int64_t col) {
        const T part = s.e.segment(j - a, n).sum();
        acc[col] += part;
        total += part;
      });
      if (hi > rb) total += s.e.segment(rb, hi - rb).sum();
      return total;
    }
  }

  /// The value a fully masked row gives every cell.
  [[nodiscard]] double masked_row_value() const {
    return t_.zero_masked_rows ? 0.0 : std::numeric_limits<double>::quiet_NaN();
  }

  /// Block values of map m for the stripe's block rows (from r0 on).
  void write_head(std::int64_t m, std::int64_t r0, const T* mx, const T* sum,
                  FoldScratch<T>& s) const {
    const bool mean = r_.reduce == BlockReduce::mean;
    const std::int64_t rows = s.scores.rows(), bh = r_.block_rows;
    T* dst = r_.maps.template data<T>().data() + (m * r_.rows + r0) * r_.cols;
    for (std::int64_t i = 0, br = 0; i < rows; i += bh, ++br) {
      const std::int64_t nr = std::min(bh, rows - i);
      for (std::int64_t c = 0; c < r_.cols; ++c) {
        const std::int64_t nc = std::min(r_.block_cols, t_.k1 - t_.k0 - c * r_.block_cols);
        double v = mean ? 0.0 : -std::numeric_limits<double>::infinity();
        for (std::int64_t r = i; r < i + nr; ++r) {
          double cell;
          if (mx[r] == -kInf) {
            cell = masked_row_value();
          } else if (mean) {
            cell = static_cast<double>(s.acc(r, c)) / static_cast<double>(sum[r]);
          } else {
            cell = static_cast<double>(std::exp(s.acc(r, c) - mx[r]) / sum[r]);
          }
          v = mean ? v + cell : (std::isnan(cell) || std::isnan(v) ? cell + v : std::max(v, cell));
        }
        if (mean) {
          v /= static_cast<double>(nr * nc);
          if (r_.average.dim() > 0) s.head_means(br, c) += v;
        }
        dst[br * r_.cols + c] = static_cast<T>(v);
      }
    }
  }

  /// Block maxima of the head average (the per-cell mean over heads): a second pass over the
  /// region's chunks, now that every head's M and Z of the stripe are known.
  void average_maxima(std::int64_t rows, std::int64_t block_rows, T* dst, FoldScratch<T>& s) const {
    const auto maps = static_cast<std::int64_t>(r_.heads.size());
    // A row fully masked in any head is NaN in the average; where PyTorch gives such a row 0,
    // its head adds 0 (add_head skips it).
    std::vector<bool> masked_row(static_cast<std::size_t>(rows), false);
    for (std::int64_t m = 0; m < maps && !t_.zero_masked_rows; ++m) {
      for (std::int64_t r = 0; r < rows; ++r) {
        if (s.max[static_cast<std::size_t>(m * rows + r)] == -kInf)
          masked_row[static_cast<std::size_t>(r)] = true;
      }
    }
    // Weights are >= 0, so a block whose keys were all skipped has maximum 0.
    s.acc.setZero(rows, r_.cols);
    s.average.resize(rows, s.scores.cols());
    // Chunk by chunk over every head, so that one chunk of the average is held at a time.
    const auto add_head = [&](std::int64_t m, std::int64_t w) {
      const T* mx = s.max.data() + m * rows;
      const T* sum = s.sum.data() + m * rows;
      for (std::int64_t r = 0; r < rows; ++r) {
        if (mx[r] == -kInf) continue;  // the whole row is NaN (masked_row) or 0
        auto e = s.e.head(w);
        exp_shifted(s.scores.row(r).head(w), e, mx[r]);
        s.average.row(r).head(w) += e / sum[r];
      }
    };
    for (std::int64_t k = 0; k < chunks(); ++k) {
      bool any = false;
      std::int64_t a = 0, w = 0;
      for (std::int64_t m = 0; m < maps; ++m) {
        const std::int64_t h = r_.heads[static_cast<std::size_t>(m)];
        s.q = keys_.query(h, s.mask.i0 - t_.q0, rows) * score_scale<T>(d_.hd);
        one_chunk(r_.batch * d_.H + h, k, true, s, [&](std::int64_t ca, std::int64_t cw) {
          if (!any) s.average.leftCols(cw).setZero();
          any = true;
          a = ca, w = cw;
          add_head(m, cw);
        });
      }
      if (!any) continue;
      auto avg = s.average.leftCols(w);
      avg /= static_cast<T>(d_.H);
      for (std::int64_t r = 0; r < rows; ++r) {
        for_each_block_column(a, w, [&](std::int64_t j, std::int64_t n, std::int64_t col) {
          s.acc(r, col) = std::max(
              s.acc(r, col), avg.row(r).segment(j - a, n).template maxCoeff<Eigen::PropagateNaN>());
        });
      }
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::int64_t i = 0, br = 0; br < block_rows; i += r_.block_rows, ++br) {
      const std::int64_t nr = std::min(r_.block_rows, rows - i);
      for (std::int64_t c = 0; c < r_.cols; ++c) {
        double v = 0.0;
        for (std::int64_t r = i; r < i + nr; ++r) {
          const double cell = masked_row[static_cast<std::size_t>(r)] ? nan : s.acc(r, c);
          v = std::isnan(cell) || std::isnan(v) ? cell + v : std::max(v, cell);
        }
        dst[br * r_.cols + c] = static_cast<T>(v);
      }
    }
  }

  const HeadKeys<T>& keys_;
  const StripeMasks<T>& masks_;
  Dims d_;
  FoldTarget t_;
  ReducedWeights& r_;
};

}  // namespace mhaviz::detail
