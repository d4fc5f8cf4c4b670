// Compare mode's core: A and B lined up by key meaning, and B - A.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "mhaviz/core/analysis/compare.hpp"

namespace mhaviz {
namespace {

std::vector<KeyColumn> keys(std::int64_t S, bool bias_k, bool zero) {
  std::vector<KeyColumn> k;
  for (std::int64_t j = 0; j < S; ++j) k.push_back({KeyKind::source, j});
  if (bias_k) k.push_back({KeyKind::bias_k, S});
  if (zero) k.push_back({KeyKind::zero, static_cast<std::int64_t>(k.size())});
  return k;
}

CompareGrid grid(std::int64_t rows, std::vector<KeyColumn> cols, double base) {
  CompareGrid g;
  g.rows = rows;
  g.cols = static_cast<std::int64_t>(cols.size());
  g.col_keys = std::move(cols);
  for (std::int64_t i = 0; i < rows * g.cols; ++i)
    g.values.push_back(base + static_cast<double>(i));
  return g;
}

TEST(Compare, SameShapeIsCellwiseBMinusA) {
  const CompareGrid a = grid(2, keys(3, false, false), 0.0);
  CompareGrid b = grid(2, keys(3, false, false), 0.5);
  b.values[4] = 10.0;
  const GridDifference d = grid_difference(a, b);
  ASSERT_TRUE(to_string(d.why).empty());
  ASSERT_EQ(d.diff.values.size(), 6u);
  EXPECT_DOUBLE_EQ(d.diff.values[0], 0.5);
  EXPECT_DOUBLE_EQ(d.diff.values[4], 10.0 - 4.0);
  EXPECT_TRUE(d.left_out.empty());
}

TEST(Compare, AppendedKeysLineUpByMeaningNotIndex) {
  // A: sources 0..2, bias_k, zero. B: sources 0..2, zero (no bias_k): B's column 3 is the zero
  // key and must meet A's column 4, not A's bias_k.
  const CompareGrid a = grid(1, keys(3, true, true), 0.0);  // 0 1 2 3(bias_k) 4(zero)
  CompareGrid b = grid(1, keys(3, false, true), 0.0);       // 0 1 2 3(zero)
  b.values = {1, 1, 1, 100};
  const GridDifference d = grid_difference(a, b);
  ASSERT_TRUE(to_string(d.why).empty()) << to_string(d.why);
  ASSERT_EQ(d.diff.cols, 4);
  EXPECT_EQ(d.diff.col_keys.back().kind, KeyKind::zero);
  EXPECT_DOUBLE_EQ(d.diff.values[3], 100.0 - 4.0);
  EXPECT_EQ(d.a_cols, (std::vector<std::int64_t>{0, 1, 2, 4}));
  EXPECT_EQ(d.b_cols, (std::vector<std::int64_t>{0, 1, 2, 3}));
  ASSERT_EQ(d.left_out.size(), 1u);
  EXPECT_EQ(to_string(d.left_out[0]), "the bias_k key is only in A: not in the difference");
  EXPECT_EQ(d.left_out[0].key.kind, KeyKind::bias_k);
  EXPECT_TRUE(d.left_out[0].only_in_a);
}

TEST(Compare, KeyRowsLineUpToo) {
  CompareGrid a;
  a.rows = 3, a.cols = 1, a.values = {1, 2, 3};
  a.row_keys = keys(2, true, false);
  CompareGrid b;
  b.rows = 2, b.cols = 1, b.values = {5, 7};
  b.row_keys = keys(2, false, false);
  const GridDifference d = grid_difference(a, b);
  ASSERT_TRUE(to_string(d.why).empty());
  EXPECT_EQ(d.diff.values, (std::vector<double>{4, 5}));
}

TEST(Compare, MismatchesSayWhy) {
  EXPECT_EQ(to_string(grid_difference(grid(2, keys(3, false, false), 0),
                                      grid(3, keys(3, false, false), 0))
                          .why),
            "A has 2 rows, B has 3");
  EXPECT_NE(
      to_string(
          grid_difference(grid(2, keys(3, false, false), 0), grid(2, keys(4, false, false), 0)).why)
          .find("A has 3 source keys, B has 4"),
      std::string::npos);
  const GridDifference rows =
      grid_difference(grid(2, keys(3, false, false), 0), grid(3, keys(3, false, false), 0));
  EXPECT_EQ(rows.why.kind, Mismatch::Kind::counts);
  EXPECT_EQ(rows.why.noun, "rows");
  EXPECT_EQ(rows.why.a, 2);
  EXPECT_EQ(rows.why.b, 3);
  Mismatch why;
  const auto diffs = maps_difference({grid(1, keys(1, false, false), 0)}, {}, &why);
  EXPECT_TRUE(diffs.empty());
  EXPECT_EQ(to_string(why), "A has 1 heads, B has 0 (num_heads differ)");
}

TEST(Compare, MaskedInBothIsNoChangeAndRangeIsSymmetric) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(cell_difference(-inf, -inf), 0.0);
  EXPECT_EQ(cell_difference(0.0, -inf), -inf);
  EXPECT_TRUE(std::isnan(cell_difference(std::nan(""), 1.0)));
  GridDifference d;
  d.diff.values = {0.25, -0.75, -inf, std::nan("")};
  EXPECT_DOUBLE_EQ(symmetric_limit({d}), 0.75);
}

}  // namespace
}  // namespace mhaviz
