#pragma once
/// \file
/// Compare mode (A | B | B - A): two maps of the same stage lined up by meaning and their
/// signed difference. Rows and columns that are keys line up by KeyColumn kind (source key j
/// with source key j, bias_k with bias_k, zero with zero), never by position; keys only one
/// side has are left out of the difference and named in `notes`. Where the shapes cannot be
/// lined up, `mismatch` says why and nothing is computed.

#include <cstdint>
#include <string>
#include <vector>

#include "mhaviz/core/result.hpp"

namespace mhaviz {

/// One map: rows x cols values, row-major. row_keys / col_keys describe each row / column when
/// it is a key (k and v rows; score and weight columns) and are empty otherwise (queries,
/// features).
struct CompareGrid {
  std::int64_t rows = 0, cols = 0;
  std::vector<double> values;
  std::vector<KeyColumn> row_keys;
  std::vector<KeyColumn> col_keys;
};

struct GridDifference {
  std::string mismatch;  ///< empty when A and B line up; else why they do not (both sizes)
  CompareGrid diff;      ///< B - A over the rows and columns both have, in A's order
  std::vector<std::int64_t> a_rows, a_cols;  ///< for each diff row / column: A's index
  std::vector<std::int64_t> b_rows, b_cols;  ///< ... and B's
  std::vector<std::string> notes;            ///< keys only one side has ("bias_k only in A")
};

/// B - A of one cell: 0 where both are equal (also both -inf: masked in both), else b - a
/// (NaN when either is NaN, +-inf where only one side is masked).
double cell_difference(double a, double b);

/// Lines up `a` and `b` and computes B - A. `rows` / `cols` name plain (non-key) rows and
/// columns in messages ("queries", "features").
GridDifference grid_difference(const CompareGrid& a, const CompareGrid& b,
                               const std::string& rows = "rows",
                               const std::string& cols = "columns");

/// Several maps (one per head): the same count is required, then grid_difference for each.
/// The first mismatch (with "head h: " in front) wins; notes are those of the first map.
std::vector<GridDifference> maps_difference(const std::vector<CompareGrid>& a,
                                            const std::vector<CompareGrid>& b,
                                            std::string* mismatch,
                                            const std::string& rows = "rows",
                                            const std::string& cols = "columns");

/// The largest |value| over finite values of the differences (0 when none): the half-width of
/// the range symmetric about 0 the difference is drawn with.
double symmetric_limit(const std::vector<GridDifference>& diffs);

}  // namespace mhaviz
