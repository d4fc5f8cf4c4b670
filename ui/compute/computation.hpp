#pragma once
// The computation of the document (document/document.hpp): every change of its configuration
// or tensors is checked (closed-form size checks, no math on the GUI thread) and submitted to
// the compute worker; the newest result, its analyses (held beside it, not inside it), the inline
// error, whether the picture is out of date, busy/progress, and the zoomed region of a reduced
// view live here.

#include <QObject>
#include <QPointer>
#include <QSize>
#include <QString>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "compute/compute_request.hpp"
#include "compute/compute_worker.hpp"
#include "compute/reduced_compute.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "stages/view_options.hpp"

class QTimer;

namespace mhaviz::ui {

class Document;

class Computation : public QObject {
  Q_OBJECT

 public:
  /// What an announcement (`changed`) says is new, as Document::Change does for the document:
  /// everything that follows the computation connects once to `changed` and reads the new state
  /// from the getters.
  enum class Change {
    result = 0x1,     // result(), analyses(), computeMs(): a fresh result for the document's
                      // settings, to be drawn with the document's view (fitted to it already)
    measures = 0x2,   // analyses() now holds the result's head measures; result() is unchanged
    error = 0x4,      // error()
    outOfDate = 0x8,  // isOutOfDate() and outOfDateReason() (said again when unchanged)
    busy = 0x10,      // isBusy()
    reduced = 0x20,   // reducedDescription() and reducedRegion()
  };
  Q_DECLARE_FLAGS(Changes, Change)

  /// Follows `document` (which must outlive it) from now on; computes nothing until the first
  /// change or recompute().
  explicit Computation(Document* document, QObject* parent = nullptr);
  ~Computation() override;

  /// The last good result (kept while the settings are invalid); may be null.
  [[nodiscard]] ResultPtr result() const { return m_result; }
  /// What was computed from result() after its pass: its block sparsity, and its head measures
  /// once they arrived (Change::measures). Null exactly when result() is.
  [[nodiscard]] AnalysesPtr analyses() const { return m_analyses; }
  /// The result's measures (analyses()->measures), or null.
  [[nodiscard]] std::shared_ptr<const mhaviz::ResultMeasures> measures() const {
    return m_analyses ? m_analyses->measures : nullptr;
  }
  /// Bytes held by the result and its analyses (the status bar's memory of the result).
  [[nodiscard]] std::size_t bytes() const {
    return (m_result ? m_result->bytes() : 0) + (m_analyses ? m_analyses->bytes() : 0);
  }
  /// The message shown inline; empty when the settings are usable.
  [[nodiscard]] QString error() const { return m_error; }
  [[nodiscard]] bool isBusy() const { return m_awaiting != 0; }
  /// True from a full result's arrival (Change::result) until its head measures arrive
  /// (Change::measures): the worker computes them after the picture.
  [[nodiscard]] bool isMeasuring() const { return m_measuring; }
  [[nodiscard]] bool isOutOfDate() const { return m_outOfDate; }
  /// Why the picture is out of date (the error, "computing the new settings", a cancel); empty
  /// when it is not.
  [[nodiscard]] QString outOfDateReason() const { return m_outOfDateReason; }
  /// Milliseconds the worker took for result(); 0 before the first result.
  [[nodiscard]] double computeMs() const { return m_computeMs; }
  /// Generation of the newest request; results of older ones are dropped.
  [[nodiscard]] quint64 generation() const { return m_generation; }
  /// Number of results that arrived after a newer request and were dropped (for diagnostics).
  [[nodiscard]] int staleResultsDropped() const { return m_staleDropped; }
  [[nodiscard]] ComputeWorker* worker() { return &m_worker; }

  /// Validates the document's settings and submits them (at start-up, and F5).
  void recompute();
  /// Stops the running computation; the picture stays, marked out of date.
  void cancel();
  void setMemoryLimit(std::uint64_t bytes);

  /// Zooms the reduced view into query rows [queryBegin, queryEnd) and key columns [keyBegin,
  /// keyEnd) of the whole map (clamped to it): the worker computes that region at the finest
  /// fold that gives at most `values` values per map across and down (the pixels of the map
  /// that shows it), exact cells once the region fits. Nothing happens when the view is not
  /// reduced or the same region is shown or asked for already.
  void zoomReduced(qint64 queryBegin, qint64 queryEnd, qint64 keyBegin, qint64 keyEnd,
                   QSize values = QSize(kReducedCells, kReducedCells));
  /// Returns a zoomed reduced view to the whole map (nothing happens when it is not zoomed).
  void zoomReducedOut();
  /// What the reduced view of a configuration whose maps exceed the memory limit shows
  /// ("reduced: block mean of 16x16 cells"), or empty when the maps are shown in full.
  [[nodiscard]] QString reducedDescription() const { return m_reduced; }
  /// Where the current reduced result lies in the whole map; blockRows 0 when not reduced.
  [[nodiscard]] const ReducedRegion& reducedRegion() const { return m_shownRegion; }

  /// Empty when `config` can be computed; else the message to show (PyTorch's text for
  /// argument errors, the memory estimate for sizes over `limit`).
  static QString quickCheck(const mhaviz::Config& config, std::uint64_t limit);

 signals:
  /// Something changed: `what` says which part (one flag per announcement, in the order the
  /// computation reaches them: busy ends before a result arrives, the picture is up to date
  /// again before the result is announced).
  void changed(mhaviz::ui::Computation::Changes what);
  /// Blocks of a long computation done so far (a notice for the progress bar, not state).
  void progress(qint64 done, qint64 total);
  /// The current computation was cancelled by the user (a notice; outOfDate says the rest).
  void cancelled();

 private:
  void onConfigChanged(const mhaviz::Config& config);
  void onViewChanged(const ViewOptions& view);
  /// Tells the document what the view can show now: the settings being computed, else the
  /// result on screen (Document::setViewBounds); takes the view fitted to it.
  void updateViewBounds();
  void submitCurrent();
  void setError(const QString& message);
  void setOutOfDate(bool outOfDate, const QString& why = {});
  void finishGeneration(quint64 generation);
  void onResult(quint64 generation, const ResultPtr& result, const AnalysesPtr& analyses,
                double computeMs);
  void onMeasures(quint64 generation, const AnalysesPtr& analyses);
  void onFailed(quint64 generation, const QString& message);
  void onCancelled(quint64 generation);

  QPointer<Document> m_document;  // a sibling in the window: either may be destroyed first
  ComputeWorker m_worker;
  mhaviz::Config m_config;  // the configuration last taken from the document
  ViewOptions m_view;       // the view last taken from the document
  ResultPtr m_result;
  AnalysesPtr m_analyses;  // of m_result
  QString m_error;
  QString m_reduced;  // reducedDescription() of the current result
  QString m_outOfDateReason;
  double m_computeMs = 0;
  // The region asked of the reduced view (end -1: to the last row / column), and where the
  // current reduced result lies (blockRows 0: the result is not reduced).
  qint64 m_queryBegin = 0, m_queryEnd = -1, m_keyBegin = 0, m_keyEnd = -1;
  QSize m_zoomValues;  // values per map of a zoomed region (empty: the default)
  ReducedRegion m_shownRegion{0, 0, 0, 0, 0, 0, 0, 0};
  bool m_outOfDate = false;
  // A computation still running after a moment marks the picture of the settings before as
  // out of date (a 32768-token result takes seconds).
  QTimer* m_slow = nullptr;
  bool m_measuring = false;  // the current result's measures are still to come
  quint64 m_generation = 0;
  quint64 m_awaiting = 0;  // generation whose end (result, error, cancel) we wait for; 0: none
  bool m_userCancelled = false;
  int m_staleDropped = 0;
  std::uint64_t m_memoryLimit;
};

Q_DECLARE_OPERATORS_FOR_FLAGS(Computation::Changes)

}  // namespace mhaviz::ui
