#pragma once
// Compare mode's maps (A | B | B - A): one stage of two results extracted through
// extractStage and their difference, lined up by key meaning (mhaviz::grid_difference). Pure
// data, no widgets; any thread (the window runs it off the GUI thread).

#include <QString>
#include <QStringList>

#include <vector>

#include "mhaviz/core/analysis/compare.hpp"
#include "mhaviz/core/forward/result.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

struct CompareData {
  StageData a, b;    // the stage of A and of B, as extractStage gives it (copied values)
  StageData diff;    // B - A per map over the rows/columns both have; signed, symmetric range
  QString mismatch;  // why there is no difference (sizes, heads, a missing batch element)
  QStringList
      notes;  // keys only one side has, left out of the difference ("the bias_k key is only in A")
  QStringList nanNotes;  // where the NaN cells of B - A come from (explainNaN), one per side
  [[nodiscard]] bool ok() const { return mismatch.isEmpty(); }
};

/// A's and B's `view.stage` for batch element view.batch and B - A. A missing batch element or
/// head in either result, a different number of heads or sizes that do not line up give a
/// CompareData with `mismatch` set (and whichever of a / b could be extracted). `measuresA` and
/// `measuresB`: the measures held beside each result (null: none), for the stages drawn from
/// them.
CompareData compareStage(const mhaviz::ForwardResult& a, const mhaviz::ForwardResult& b,
                         const ViewOptions& view, const mhaviz::ResultMeasures* measuresA = nullptr,
                         const mhaviz::ResultMeasures* measuresB = nullptr);

/// Why B - A has NaN cells, read from the data: which side is NaN where the other is not (or
/// both), in which rows (queries) of batch element view.batch and which maps, and the cause
/// that A's and B's masks and settings give (a query whose every key is masked: NaN under 1.13
/// or with need_weights=True, 0 under 2.x with need_weights=False; NaN in the inputs). Empty
/// when no cell is NaN. `data` holds A's and B's maps, `diffs` their differences.
QStringList explainNaN(const mhaviz::ForwardResult& a, const mhaviz::ForwardResult& b,
                       const ViewOptions& view, const CompareData& data,
                       const std::vector<mhaviz::GridDifference>& diffs);

/// The B - A maps of every batch element as one tensor per stage for data export: the stage's
/// layout (N, H, rows, cols) over the lined-up rows and columns, float64. Throws InvalidInput
/// with the mismatch.
mhaviz::Tensor differenceTensor(const mhaviz::ForwardResult& a, const mhaviz::ForwardResult& b,
                                Stage stage);

}  // namespace mhaviz::ui
