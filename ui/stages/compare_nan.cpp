// Where the NaN cells of B - A come from (compare_stage.hpp, explainNaN): which side is NaN, in
// which rows and maps, and why, read from the two results (their merged masks and settings).
#include <QCoreApplication>
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "mhaviz/core/spec/semantics.hpp"
#include "stages/compare_stage.hpp"
#include "stages/param_stage.hpp"

namespace mhaviz::ui {
namespace {

/// "0-5", "0, 2, 4-7": sorted indices as ranges.
QString ranges(const std::set<std::int64_t>& indices) {
  QStringList parts;
  for (auto it = indices.begin(); it != indices.end();) {
    const std::int64_t first = *it;
    std::int64_t last = first;
    for (++it; it != indices.end() && *it == last + 1; ++it) last = *it;
    parts << (last == first ? QString::number(first)
                            : QStringLiteral("%1\u2013%2").arg(first).arg(last));
  }
  return parts.join(QStringLiteral(", "));
}

/// Whether every key of query i of batch element n is masked (-inf) in some head of `r`: the
/// softmax of that head's row has nothing to divide by.
bool fullyMasked(const mhaviz::ForwardResult& r, std::int64_t n, std::int64_t i) {
  if (!r.has_mask() || n >= r.N || i >= r.L) return false;
  for (std::int64_t h = 0; h < r.H; ++h) {
    const std::int64_t base = r.mask_offset(n, h, i);
    bool all = true;
    for (std::int64_t j = 0; j < r.Sx && all; ++j) {
      const double m = r.merged_mask.value(base + j);
      all = std::isinf(m) && m < 0;
    }
    if (all) return true;
  }
  return false;
}

/// Where one side is NaN: the rows and the maps (their titles).
struct NanCells {
  std::set<std::int64_t> rows;
  QStringList maps;
  [[nodiscard]] bool any() const { return !rows.empty(); }
};

/// Why `nan` (the side named `side`) is NaN in `rows` where `other` (named `otherSide`) is not,
/// read from both results: masked queries and the settings that turn them into NaN or 0.
QString cause(const mhaviz::ForwardResult& nan, const mhaviz::ForwardResult& other,
              const QString& side, const QString& otherSide, std::int64_t n,
              const std::set<std::int64_t>& rows, bool queryRows) {
  if (!queryRows) {
    return QCoreApplication::translate("mhaviz::ui::StageText",
                                       "NaN from the inputs or parameters, not from a mask");
  }
  const bool masked =
      std::all_of(rows.begin(), rows.end(), [&](std::int64_t i) { return fullyMasked(nan, n, i); });
  if (!masked) {
    return QCoreApplication::translate("mhaviz::ui::StageText",
                                       "not from a mask: %1's inputs or parameters hold NaN or Inf")
        .arg(side);
  }
  const bool otherMasked = std::all_of(rows.begin(), rows.end(),
                                       [&](std::int64_t i) { return fullyMasked(other, n, i); });
  if (!otherMasked) {
    return QCoreApplication::translate(
               "mhaviz::ui::StageText",
               "every key of these queries is masked in %1 but not in %2 (their masks differ), "
               "so %1's softmax divides 0 by 0")
        .arg(side, otherSide);
  }
  QString why = QCoreApplication::translate("mhaviz::ui::StageText",
                                            "every key of these queries is masked in both");
  // The path the other side was computed on (a reduced result has none: decided from its
  // configuration alone).
  const bool otherZero = other.path.reason.empty()
                             ? mhaviz::zero_fully_masked_rows(other.config, mhaviz::Inputs{})
                             : other.path.fully_masked_rows_zero;
  if (!otherZero) return why;
  // The other side gives 0: PyTorch 2.x's SDPA path (need_weights=False, its safe softmax).
  if (!nan.config.need_weights && nan.config.semantics == mhaviz::Semantics::v1_13) {
    return why + QCoreApplication::translate(
                     "mhaviz::ui::StageText",
                     "; a fully masked query under 1.13 with need_weights=False gives NaN, "
                     "2.x's SDPA path gives 0 (its weights are 0, its output is out_proj.bias)");
  }
  if (nan.config.need_weights) {
    return why + QCoreApplication::translate(
                     "mhaviz::ui::StageText",
                     "; with need_weights=True a fully masked query gives NaN, while "
                     "need_weights=False on 2.x's SDPA path gives 0 (%1 is on that path)")
                     .arg(otherSide);
  }
  return why;
}

}  // namespace

QStringList explainNaN(const mhaviz::ForwardResult& a, const mhaviz::ForwardResult& b,
                       const ViewOptions& view, const CompareData& data,
                       const std::vector<mhaviz::GridDifference>& diffs) {
  NanCells onlyA, onlyB, both;
  for (std::size_t m = 0; m < diffs.size() && m < data.a.maps.size(); ++m) {
    const mhaviz::GridDifference& d = diffs[m];
    const MapData& ma = data.a.maps[m];
    const MapData& mb = data.b.maps[m];
    NanCells* seen[3] = {nullptr, nullptr, nullptr};
    for (std::int64_t r = 0; r < d.diff.rows; ++r) {
      for (std::int64_t c = 0; c < d.diff.cols; ++c) {
        if (!std::isnan(d.diff.values[static_cast<std::size_t>(r * d.diff.cols + c)])) continue;
        const auto ar = static_cast<int>(d.a_rows[static_cast<std::size_t>(r)]);
        const auto ac = static_cast<int>(d.a_cols[static_cast<std::size_t>(c)]);
        const auto br = static_cast<int>(d.b_rows[static_cast<std::size_t>(r)]);
        const auto bc = static_cast<int>(d.b_cols[static_cast<std::size_t>(c)]);
        const bool nanA = std::isnan(ma.valueAt(ar, ac));
        const bool nanB = std::isnan(mb.valueAt(br, bc));
        const int k = nanA && nanB ? 2 : nanA ? 0 : 1;
        NanCells& cells = k == 2 ? both : k == 0 ? onlyA : onlyB;
        cells.rows.insert(ar);
        if (seen[k] == nullptr) {
          seen[k] = &cells;
          cells.maps << ma.shownTitle;
        }
      }
    }
  }
  // Rows are queries in every stage except k and v (key rows) and the parameter matrices.
  const bool queryRows =
      !isParamStage(view.stage) && view.stage != Stage::k && view.stage != Stage::v;
  const auto where = [&](const NanCells& cells) {
    const bool one = cells.rows.size() == 1;
    const QString rowsNoun =
        queryRows ? (one ? QCoreApplication::translate("mhaviz::ui::StageText", "query")
                         : QCoreApplication::translate("mhaviz::ui::StageText", "queries"))
                  : (one ? QCoreApplication::translate("mhaviz::ui::StageText", "row")
                         : QCoreApplication::translate("mhaviz::ui::StageText", "rows"));
    const QString maps = cells.maps.size() <= 4
                             ? cells.maps.join(QStringLiteral(", "))
                             : QCoreApplication::translate("mhaviz::ui::StageText", "%1 maps")
                                   .arg(cells.maps.size());
    return QCoreApplication::translate("mhaviz::ui::StageText", "%1 %2 of batch element %3 (%4)")
        .arg(rowsNoun, ranges(cells.rows))
        .arg(view.batch)
        .arg(maps);
  };
  const std::int64_t n = view.batch;
  const QString A = QStringLiteral("A"), B = QStringLiteral("B");
  QStringList notes;
  if (onlyB.any()) {
    notes << QCoreApplication::translate("mhaviz::ui::StageText",
                                         "B is NaN where A is not, in %1: %2")
                 .arg(where(onlyB), cause(b, a, B, A, n, onlyB.rows, queryRows));
  }
  if (onlyA.any()) {
    notes << QCoreApplication::translate("mhaviz::ui::StageText",
                                         "A is NaN where B is not, in %1: %2")
                 .arg(where(onlyA), cause(a, b, A, B, n, onlyA.rows, queryRows));
  }
  if (both.any()) {
    const bool masked =
        queryRows && std::all_of(both.rows.begin(), both.rows.end(), [&](std::int64_t i) {
          return fullyMasked(a, n, i) && fullyMasked(b, n, i);
        });
    notes << QCoreApplication::translate("mhaviz::ui::StageText", "A and B are both NaN in %1: %2")
                 .arg(where(both),
                      masked ? QCoreApplication::translate(
                                   "mhaviz::ui::StageText",
                                   "every key of these queries is masked in both")
                             : QCoreApplication::translate("mhaviz::ui::StageText",
                                                           "NaN from the inputs or parameters"));
  }
  return notes;
}

}  // namespace mhaviz::ui
