#pragma once
// The compute worker: runs the forward pass for the newest submitted request as a background
// task (tasks/latest_task.hpp) on every hardware thread, hands the result over at once with its
// block sparsity, and then computes its head measures as a second, lower-priority task. A newer
// request cancels both; an older computation still running stops at its next (batch, head) block.

#include <QHash>
#include <QObject>
#include <QString>
#include <cstdint>

#include "compute/compute_request.hpp"
#include "compute/reduced_compute.hpp"
#include "mhaviz/core/plan/problem.hpp"
#include "tasks/latest_task.hpp"

namespace mhaviz::ui {

/// What the worker computes from: mhaviz::make_problem(config, *tensors) (everything generated
/// from the config when `tensors` is null); for the `reduced` view make_reduced_problem, which
/// leaves a pattern mask out. Throws InvalidInput. Any thread.
mhaviz::Problem makeComputeProblem(const mhaviz::Config& config,
                                   const mhaviz::io::TensorMap* tensors, bool reduced = false);

class ComputeWorker : public QObject {
  Q_OBJECT

 public:
  explicit ComputeWorker(QObject* parent = nullptr);
  /// Cancels what is running and waits for it to stop (at its next block).
  ~ComputeWorker() override;

  /// GUI thread. Computes `request` as the newest computation: the one running is told to stop
  /// and one still waiting is skipped (only the newest waiting request is ever computed).
  void submit(const ComputeRequest& request);

  /// GUI thread. Cancels the running and the waiting computation, if any; each still reports
  /// `cancelled` with its generation, so the caller learns when work has ended.
  void cancelAll();

  /// GUI thread. Stops the head measures being computed, and starts none, until
  /// resumeMeasures(): then the newest result's measures are computed (unless a cancel came).
  /// For work about to replace the result (a model being opened: its first layer becomes the
  /// session), which would share the cores with measures nobody is going to read.
  void holdMeasures();
  void resumeMeasures();

  /// Memory limit of the requests submitted from now on (mhaviz::plan_view), in bytes.
  void setMemoryLimit(std::uint64_t bytes) { m_memoryLimit = bytes; }

 signals:
  /// Emitted on the computing thread as a computation begins (the others on the GUI thread).
  void started(quint64 generation);
  void progress(quint64 generation, qint64 done, qint64 total);
  /// A result and its analyses so far: the block sparsity of a full result's mask (none for a
  /// reduced result), never the head measures (measuresReady). Both are never null.
  void resultReady(quint64 generation, mhaviz::ui::ResultPtr result,
                   mhaviz::ui::AnalysesPtr analyses, double computeMs);
  /// After resultReady of a full (not reduced) result: its analyses again, now with the head
  /// measures and value norms (mhaviz::measure_result), computed after the picture's data went
  /// out. The result is unchanged. Not emitted when a newer request or a cancel stopped them
  /// first; without measures when they failed.
  void measuresReady(quint64 generation, mhaviz::ui::AnalysesPtr analyses);
  /// Emitted before resultReady: what the reduced view shows ("reduced: block mean of 16x16
  /// cells") and where its region lies, or an empty string (and a default region) for a full
  /// result.
  void reducedView(quint64 generation, const QString& description,
                   const mhaviz::ui::ReducedRegion& region);
  /// A user-readable message: mhaviz::InvalidInput's text as is, or what went wrong otherwise.
  void failed(quint64 generation, const QString& message);
  void cancelled(quint64 generation);

 private:
  /// On the pass task's thread: computes `request` and posts what it gives (never throws).
  void run(const ComputeRequest& request, std::uint64_t limit, const TaskScope& scope);
  /// GUI thread: starts the head measures of `result` (whose analyses so far are `analyses`)
  /// as the measures task.
  void measure(quint64 generation, const ResultPtr& result, const AnalysesPtr& analyses,
               std::shared_ptr<const mhaviz::Problem> problem);

  struct MeasureRequest {
    quint64 generation = 0;
    ResultPtr result;
    AnalysesPtr analyses;
    std::shared_ptr<const mhaviz::Problem> problem;
  };

  LatestTask m_pass;
  LatestTask m_measures;
  MeasureRequest m_measuring;  // of the measures run going on (result null: none)
  MeasureRequest m_held;       // stopped or not begun while holding (result null: none)
  bool m_holding = false;      // between holdMeasures and resumeMeasures
  QHash<quint64, quint64> m_requestOf;  // the request generation of each pass run still going
  std::uint64_t m_memoryLimit;
};

}  // namespace mhaviz::ui
