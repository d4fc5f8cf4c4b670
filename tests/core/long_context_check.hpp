#pragma once
// Checks shared by the long-context tests: every block of a reduced map against the block of
// the full weights forward() computes.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/long_context/long_context.hpp"

namespace mhaviz {

/// Weight (h, i, j) of batch element n, or of the head average for h = -1.
inline double weight(const ForwardResult& r, std::int64_t n, std::int64_t h, std::int64_t i,
                     std::int64_t j) {
  if (h >= 0) return r.weights.value(((n * r.H + h) * r.L + i) * r.Sx + j);
  double sum = 0.0;
  for (std::int64_t k = 0; k < r.H; ++k) sum += weight(r, n, k, i, j);
  return sum / static_cast<double>(r.H);
}

/// Every value of `got` against the mean or maximum of its block of the full weights: NaN where
/// that is NaN, exactly 0 where that is exactly 0, else within `tolerance`.
inline void expect_folds(const ForwardResult& full, const ReducedWeights& got, double tolerance) {
  ASSERT_EQ(got.maps.shape(),
            (Shape{static_cast<std::int64_t>(got.heads.size()), got.rows, got.cols}));
  const std::int64_t maps = static_cast<std::int64_t>(got.heads.size());
  for (std::int64_t m = -1; m < maps; ++m) {
    if (m < 0 && got.average.dim() == 0) continue;
    const std::int64_t h = m < 0 ? -1 : got.heads[static_cast<std::size_t>(m)];
    for (std::int64_t r = 0; r < got.rows; ++r) {
      for (std::int64_t c = 0; c < got.cols; ++c) {
        const std::int64_t i0 = got.query_begin + r * got.block_rows;
        const std::int64_t j0 = got.key_begin + c * got.block_cols;
        const std::int64_t i1 = std::min(got.query_end, i0 + got.block_rows);
        const std::int64_t j1 = std::min(got.key_end, j0 + got.block_cols);
        double sum = 0.0, mx = -std::numeric_limits<double>::infinity();
        for (std::int64_t i = i0; i < i1; ++i) {
          for (std::int64_t j = j0; j < j1; ++j) {
            const double w = weight(full, got.batch, h, i, j);
            sum += w;
            mx = std::isnan(w) ? w : std::max(mx, w);  // NaN propagates, as PropagateNaN
          }
        }
        const double want =
            got.reduce == BlockReduce::max ? mx : sum / static_cast<double>((i1 - i0) * (j1 - j0));
        const double value = m < 0 ? got.average.value(r * got.cols + c)
                                   : got.maps.value((m * got.rows + r) * got.cols + c);
        // A NaN block (a fully masked row) is NaN; a block of masked cells exactly 0.
        if (std::isnan(want)) {
          ASSERT_TRUE(std::isnan(value)) << "map " << m << " block (" << r << ", " << c << ")";
        } else if (want == 0.0) {
          ASSERT_EQ(value, 0.0) << "map " << m << " block (" << r << ", " << c << ")";
        } else {
          ASSERT_NEAR(value, want, tolerance) << "map " << m << " block (" << r << ", " << c << ")";
        }
      }
    }
  }
}

}  // namespace mhaviz
