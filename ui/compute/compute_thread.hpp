#pragma once
// Owns the one compute thread and the ComputeWorker living on it. Create and destroy on the GUI
// thread; destruction cancels the running computation and joins the thread.

#include <QObject>
#include <QThread>

#include "compute/compute_worker.hpp"

namespace mhaviz::ui {

class ComputeThread : public QObject {
  Q_OBJECT

 public:
  explicit ComputeThread(QObject* parent = nullptr);
  ~ComputeThread() override;  // cancels, quit(), wait()

  ComputeThread(const ComputeThread&) = delete;
  ComputeThread& operator=(const ComputeThread&) = delete;

  /// The worker, for connecting to its signals and calling its thread-safe methods. It lives on
  /// thread(); it is deleted (deleteLater) when the thread finishes.
  [[nodiscard]] ComputeWorker* worker() const { return m_worker; }
  [[nodiscard]] QThread* workerThread() { return &m_thread; }

 private:
  QThread m_thread;
  ComputeWorker* m_worker;  // owned by m_thread's event loop via deleteLater
};

}  // namespace mhaviz::ui
