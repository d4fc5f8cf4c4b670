#pragma once
// Holds the compute worker's next computation at its start until the test releases it, so that
// a test decides what happens while a computation is running (a newer request, a cancel, more
// changes) instead of racing it. It uses the worker's `started` signal with a direct connection:
// the slot runs on the worker's thread, after the job became the running one and before the
// forward pass, and blocks there.

#include <QObject>
#include <QSemaphore>
#include <atomic>
#include <memory>

#include "compute/compute_worker.hpp"

namespace mhaviz::ui::testing {

class WorkerGate {
 public:
  explicit WorkerGate(ComputeWorker* worker) {
    // The slot owns a reference to the state: it may still be returning from acquire() while
    // the gate is destroyed.
    QObject::connect(
        worker, &ComputeWorker::started, &m_context,
        [state = m_state](quint64 generation) {
          if (state->used.exchange(true)) return;  // only the first computation is held
          state->held = generation;
          state->entered.release();
          state->open.acquire();
        },
        Qt::DirectConnection);
  }
  /// Never leaves the worker's thread blocked.
  ~WorkerGate() { release(); }
  WorkerGate(const WorkerGate&) = delete;
  WorkerGate& operator=(const WorkerGate&) = delete;

  /// Waits until a computation is held; returns its generation, or 0 after `timeoutMs`.
  quint64 waitUntilHeld(int timeoutMs) {
    return m_state->entered.tryAcquire(1, timeoutMs) ? m_state->held.load() : 0;
  }
  /// Lets the held computation (if any, or the next one) go on.
  void release() {
    if (!m_state->released.exchange(true)) m_state->open.release();
  }

 private:
  struct State {
    QSemaphore entered, open;
    std::atomic<bool> used{false}, released{false};
    std::atomic<quint64> held{0};
  };
  std::shared_ptr<State> m_state = std::make_shared<State>();
  QObject m_context;  // disconnects the slot when the gate goes away
};

}  // namespace mhaviz::ui::testing
