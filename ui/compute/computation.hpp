#pragma once
// The computation of the document (document/document.hpp): every change of its configuration
// or tensors is checked (closed-form size checks, no math on the GUI thread) and submitted to
// the compute worker; what comes back (the newest result, its analyses held beside it, the inline
// error, whether the picture is out of date, busy, the reduced view's region) is written into
// the document (Document::computed), which announces it. What is left here is how to get there:
// the requests, their generations, cancelling, zooming the reduced view, the memory limit.

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
#include "document/document.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "stages/view_options.hpp"

class QTimer;

namespace mhaviz::ui {

class Computation : public QObject {
  Q_OBJECT

 public:
  /// Follows `document` (which must outlive it) from now on; computes nothing until the first
  /// change or recompute().
  explicit Computation(Document* document, QObject* parent = nullptr);
  ~Computation() override;

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

  /// Empty when `config` can be computed; else the message to show (PyTorch's text for
  /// argument errors, the memory estimate for sizes over `limit`).
  static QString quickCheck(const mhaviz::Config& config, std::uint64_t limit);

 signals:
  /// Blocks of a long computation done so far (a notice for the progress bar, not state).
  void progress(qint64 done, qint64 total);
  /// The current computation was cancelled by the user (a notice; outOfDate says the rest).
  void cancelled();

 private:
  void onConfigChanged(const mhaviz::Config& config);
  void onViewChanged(const ViewOptions& view);
  /// What the document holds (an empty Computed once it is gone).
  [[nodiscard]] const Computed& state() const;
  /// Writes `next` into the document, announcing `what` (nothing when empty).
  void publish(const Computed& next, Document::Changes what);
  /// Tells the document what the view can show now: the settings being computed, else the
  /// result of `shown` (Document::setViewBounds); takes the view fitted to it.
  void updateViewBounds(const Computed& shown);
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
  // The region asked of the reduced view (end -1: to the last row / column); where the current
  // reduced result lies is the document's (Computed::region).
  qint64 m_queryBegin = 0, m_queryEnd = -1, m_keyBegin = 0, m_keyEnd = -1;
  QSize m_zoomValues;  // values per map of a zoomed region (empty: the default)
  // A computation still running after a moment marks the picture of the settings before as
  // out of date (a 32768-token result takes seconds).
  QTimer* m_slow = nullptr;
  quint64 m_generation = 0;
  quint64 m_awaiting = 0;  // generation whose end (result, error, cancel) we wait for; 0: none
  bool m_userCancelled = false;
  int m_staleDropped = 0;
  std::uint64_t m_memoryLimit;
};

}  // namespace mhaviz::ui
