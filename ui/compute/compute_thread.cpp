#include "compute/compute_thread.hpp"

namespace mhaviz::ui {

ComputeThread::ComputeThread(QObject* parent) : QObject(parent), m_worker(new ComputeWorker) {
  m_thread.setObjectName(QStringLiteral("mhaviz-compute"));
  m_worker->moveToThread(&m_thread);
  connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
  m_thread.start();
}

ComputeThread::~ComputeThread() {
  // The core checks the cancel flag between (batch, head) blocks, so wait() is short.
  m_worker->cancelAll();
  m_thread.quit();
  m_thread.wait();
}

}  // namespace mhaviz::ui
