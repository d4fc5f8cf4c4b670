#pragma once
// What the computation (compute/computation.hpp) made of the document's settings: the newest
// result and its analyses, the inline error, whether the picture is out of date, busy, and the
// reduced view's region. The document holds it beside the settings (Document::computed), so
// that every view reads one model and follows one signal; only the computation writes it.

#include <QString>
#include <QtGlobal>
#include <cstddef>
#include <memory>

#include "mhaviz/core/analysis/analyses.hpp"
#include "mhaviz/core/forward/result.hpp"

namespace mhaviz::ui {

/// A finished forward pass, shared read-only between the worker, the document and the grid.
using ResultPtr = std::shared_ptr<const mhaviz::ForwardResult>;

/// What the worker computed from a result after its pass (block sparsity, then the head
/// measures), held beside the result, never inside it.
using AnalysesPtr = std::shared_ptr<const mhaviz::ResultAnalyses>;

/// Where a reduced result lies in the whole map: query rows [queryBegin, queryEnd) and key
/// columns [keyBegin, keyEnd) folded into blocks of blockRows x blockCols cells (1 x 1: exact),
/// of a map of L x Sx cells.
struct ReducedRegion {
  qint64 queryBegin = 0, queryEnd = 0, keyBegin = 0, keyEnd = 0;
  qint64 blockRows = 1, blockCols = 1;
  qint64 L = 0, Sx = 0;
  /// Whether the region is the whole map.
  [[nodiscard]] bool whole() const {
    return queryBegin == 0 && keyBegin == 0 && queryEnd == L && keyEnd == Sx;
  }
  bool operator==(const ReducedRegion&) const = default;
};

struct Computed {
  /// The last good result (kept while the settings are invalid); may be null.
  ResultPtr result;
  /// What was computed from `result` after its pass: its block sparsity, and its head measures
  /// once they arrived (Document::Change::measures). Null exactly when `result` is.
  AnalysesPtr analyses;
  /// Milliseconds the worker took for `result`; 0 before the first result.
  double computeMs = 0;
  /// The message shown inline; empty when the settings are usable.
  QString error;
  /// A computation is running.
  bool busy = false;
  /// From a full result's arrival until its head measures arrive: the worker computes them
  /// after the picture.
  bool measuring = false;
  /// The picture shows earlier settings; `outOfDateReason` says why (the error, "computing the
  /// new settings", a cancel), empty when it is up to date.
  bool outOfDate = false;
  QString outOfDateReason;
  /// What the reduced view of settings whose maps exceed the memory limit shows ("reduced:
  /// block mean of 16x16 cells"), or empty when the maps are shown in full.
  QString reduced;
  /// Where the current reduced result lies in the whole map; blockRows 0 when not reduced.
  ReducedRegion region{0, 0, 0, 0, 0, 0, 0, 0};

  /// The result's head measures (analyses->measures), or null.
  [[nodiscard]] std::shared_ptr<const mhaviz::ResultMeasures> measures() const {
    return analyses ? analyses->measures : nullptr;
  }
  /// Bytes held by the result and its analyses (the status bar's memory of the result).
  [[nodiscard]] std::size_t bytes() const {
    return (result ? result->bytes() : 0) + (analyses ? analyses->bytes() : 0);
  }
};

}  // namespace mhaviz::ui
