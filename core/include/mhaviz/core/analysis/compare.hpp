#pragma once
/// \file
/// Compare mode (A | B | B - A): two maps of the same stage lined up by meaning and their
/// signed difference. Rows and columns that are keys line up by KeyColumn kind (source key j
/// with source key j, bias_k with bias_k, zero with zero), never by position; keys only one
/// side has are left out of the difference and named in `left_out`. Where the shapes cannot be
/// lined up, `why` says why and nothing is computed.

#include <cstdint>
#include <string>
#include <vector>

#include "mhaviz/core/forward/result.hpp"

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

/// Why A and B cannot be lined up, as data, so that a window can say it in its own language;
/// to_string gives the English sentence.
struct Mismatch {
  enum class Kind {
    none,
    different_axes,  ///< one side has key rows/columns where the other has plain ones
    counts,          ///< plain rows/columns: A has `a` `noun`, B has `b`
    source_keys,     ///< A has `a` source keys, B has `b` (src_len or static_k differ)
    heads,           ///< A has `a` maps (heads), B has `b` (num_heads differ)
  };
  Kind kind = Kind::none;
  std::string noun;  ///< the axis: the caller's row / column noun, "key rows" or "key columns"
  std::int64_t a = 0, b = 0;
  [[nodiscard]] bool any() const { return kind != Kind::none; }
};
std::string to_string(const Mismatch& m);

/// A key only one side has, left out of the difference.
struct KeyNote {
  KeyColumn key;
  bool only_in_a = true;
};
std::string to_string(const KeyNote& note);  ///< "the bias_k key is only in A: not in ..."

struct GridDifference {
  Mismatch why;      ///< kind none when A and B line up
  CompareGrid diff;  ///< B - A over the rows and columns both have, in A's order
  std::vector<std::int64_t> a_rows, a_cols;  ///< for each diff row / column: A's index
  std::vector<std::int64_t> b_rows, b_cols;  ///< ... and B's
  std::vector<KeyNote> left_out;             ///< keys only one side has
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
/// The first mismatch wins (empty result, `*why` set).
std::vector<GridDifference> maps_difference(const std::vector<CompareGrid>& a,
                                            const std::vector<CompareGrid>& b, Mismatch* why,
                                            const std::string& rows = "rows",
                                            const std::string& cols = "columns");

/// The largest |value| over finite values of the differences (0 when none): the half-width of
/// the range symmetric about 0 the difference is drawn with.
double symmetric_limit(const std::vector<GridDifference>& diffs);

}  // namespace mhaviz
