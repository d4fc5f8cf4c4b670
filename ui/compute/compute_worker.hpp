#pragma once
// The compute worker: one QObject living on its own QThread (see ComputeThread). It runs the
// forward pass for the newest submitted request on every hardware thread, hands the result over
// at once, and then computes its head measures; an older request still running (pass or
// measures) is abandoned between (batch, head) blocks through its std::atomic cancel flag.

#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

#include "compute/compute_request.hpp"
#include "compute/reduced_compute.hpp"
#include "mhaviz/core/problem.hpp"

namespace mhaviz::ui {

/// What the worker computes from: mhaviz::make_problem(config, *tensors) (everything generated
/// from the config when `tensors` is null). Throws InvalidInput. Any thread.
mhaviz::Problem makeComputeProblem(const mhaviz::Config& config,
                                   const mhaviz::io::TensorMap* tensors);

class ComputeWorker : public QObject {
  Q_OBJECT

 public:
  explicit ComputeWorker(QObject* parent = nullptr);

  /// Thread-safe (called from the GUI thread). Replaces any request still waiting (coalescing:
  /// only the newest waiting request is ever computed), asks the running computation to stop
  /// at its next block boundary, and schedules processing on the worker's thread.
  void submit(const ComputeRequest& request);

  /// Thread-safe. Cancels the running computation and the waiting request, if any. Each of them
  /// still reports `cancelled` with its generation, so the caller learns when work has ended.
  void cancelAll();

  /// Memory limit passed to mhaviz::check_memory, in bytes. Thread-safe.
  void setMemoryLimit(std::uint64_t bytes);

 signals:
  // All emitted on the worker's thread; connect with the default (queued) connection type.
  void started(quint64 generation);
  void progress(quint64 generation, qint64 done, qint64 total);
  void resultReady(quint64 generation, mhaviz::ui::ResultPtr result, double computeMs);
  /// After resultReady of a full (not reduced) result, which comes without head measures: the
  /// same result again (a copy sharing every tensor) with the head measures and value norms
  /// (mhaviz::measure_result), computed after the picture's data went out. Not emitted when a
  /// newer request or a cancel stopped them first; without measures when they failed.
  void measuresReady(quint64 generation, mhaviz::ui::ResultPtr result);
  /// Emitted before resultReady: what the reduced view shows ("reduced: block mean of 16x16
  /// cells") and where its region lies, or an empty string (and a default region) for a full
  /// result.
  void reducedView(quint64 generation, const QString& description,
                   const mhaviz::ui::ReducedRegion& region);
  /// A user-readable message: mhaviz::InvalidInput's text as is, or what went wrong otherwise.
  void failed(quint64 generation, const QString& message);
  void cancelled(quint64 generation);

 private:
  struct Job {
    ComputeRequest request;
    std::shared_ptr<std::atomic<bool>> cancel;
  };

  /// Runs on the worker thread: takes the waiting job (if another call took it already, does
  /// nothing) and computes it. Never throws.
  void processPending();
  void run(const Job& job);
  /// The head measures of `result` (emitted with measuresReady), unless `job` is cancelled.
  void measure(const Job& job, const ResultPtr& result, const mhaviz::Inputs& inputs);

  std::mutex m_mutex;  // guards the three members below
  std::optional<Job> m_pending;
  std::shared_ptr<std::atomic<bool>> m_runningCancel;
  std::uint64_t m_memoryLimit;
};

}  // namespace mhaviz::ui
