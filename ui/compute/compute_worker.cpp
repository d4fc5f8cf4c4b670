#include "compute/compute_worker.hpp"

#include <QtGlobal>
#ifdef Q_OS_LINUX
#include <sys/resource.h>
#endif

#include <QElapsedTimer>
#include <QMetaObject>
#include <QThread>
#include <algorithm>
#include <cstdint>
#include <exception>
#include <new>
#include <thread>
#include <vector>

#include "compute/reduced_compute.hpp"
#include "mhaviz/core/block_sparsity.hpp"
#include "mhaviz/core/errors.hpp"
#include "mhaviz/core/forward.hpp"
#include "mhaviz/core/measures.hpp"
#include "mhaviz/core/memory.hpp"
#include "mhaviz/core/problem.hpp"

namespace mhaviz::ui {
namespace {

// Threads of a pass and of its measures: every hardware thread.
int computeThreads() { return std::max(1, QThread::idealThreadCount()); }

// Nice value of the threads that compute the measures after the picture (background work).
constexpr int kMeasuresNice = 5;

}  // namespace

void registerComputeMetaTypes() {
  qRegisterMetaType<ComputeRequest>();
  qRegisterMetaType<ResultPtr>();
  qRegisterMetaType<ReducedRegion>();
}

/// Everything the forward call needs: parameters, inputs and masks generated from the config's
/// settings (mhaviz::make_problem), replaced by the user's tensors when given. is_causal adds no
/// mask: as in PyTorch 2.x it is only a hint, and forward() rejects it without an attn_mask.
mhaviz::Problem makeComputeProblem(const mhaviz::Config& config,
                                   const mhaviz::io::TensorMap* tensors) {
  return tensors != nullptr ? mhaviz::make_problem(config, *tensors, "loaded tensors")
                            : mhaviz::make_problem(config);
}

ComputeWorker::ComputeWorker(QObject* parent)
    : QObject(parent), m_memoryLimit(mhaviz::kDefaultMemoryLimit) {
  registerComputeMetaTypes();
}

void ComputeWorker::submit(const ComputeRequest& request) {
  {
    std::lock_guard lock(m_mutex);
    if (m_runningCancel) m_runningCancel->store(true);
    m_pending = Job{request, std::make_shared<std::atomic<bool>>(false)};
  }
  // Queued: processPending runs on the worker's thread once the current job has returned.
  QMetaObject::invokeMethod(this, &ComputeWorker::processPending, Qt::QueuedConnection);
}

void ComputeWorker::cancelAll() {
  std::lock_guard lock(m_mutex);
  if (m_runningCancel) m_runningCancel->store(true);
  if (m_pending) m_pending->cancel->store(true);
}

void ComputeWorker::setMemoryLimit(std::uint64_t bytes) {
  std::lock_guard lock(m_mutex);
  m_memoryLimit = bytes;
}

void ComputeWorker::processPending() {
  Job job;
  {
    std::lock_guard lock(m_mutex);
    if (!m_pending) return;  // a later queued call already took the newest request
    job = std::move(*m_pending);
    m_pending.reset();
    m_runningCancel = job.cancel;
  }
  run(job);
  std::lock_guard lock(m_mutex);
  m_runningCancel.reset();
}

void ComputeWorker::measure(const Job& job, const ResultPtr& result, const mhaviz::Inputs& inputs) {
  mhaviz::RunControl control;
  control.cancel = job.cancel.get();
  control.threads = computeThreads();
  // A copy of the result: it shares every tensor, so only the measures are new.
  auto measured = std::make_shared<mhaviz::ForwardResult>(*result);
  bool cancelled = false;
  // On a thread of its own with a lower priority (its helper threads inherit it), so that the
  // grid's preparation of the picture, which runs meanwhile, comes first; this thread waits.
  std::thread measuring([&] {
#ifdef Q_OS_LINUX
    setpriority(PRIO_PROCESS, 0, kMeasuresNice);  // Linux: 0 is this thread
#endif
    try {
      measured->measures = std::make_shared<const mhaviz::ResultMeasures>(
          mhaviz::measure_result(*result, inputs, control));
    } catch (const mhaviz::Cancelled&) {
      cancelled = true;  // a newer request (or a cancel) came: it needs no measures of this
    } catch (const std::exception&) {
      // Without measures: the dock says so. The picture is already out and stays.
    }
  });
  measuring.join();
  if (cancelled || job.cancel->load()) return;
  emit measuresReady(job.request.generation, std::move(measured));
}

void ComputeWorker::run(const Job& job) {
  const quint64 generation = job.request.generation;
  const mhaviz::Config& config = job.request.config;
  if (job.cancel->load()) {
    emit cancelled(generation);
    return;
  }
  emit started(generation);
  QElapsedTimer timer;
  timer.start();
  try {
    std::uint64_t limit = 0;
    {
      std::lock_guard lock(m_mutex);
      limit = m_memoryLimit;
    }
    const bool reduced = mhaviz::needs_reduced_view(config, limit);
    // Refused even reduced: the message of every map (what the user can change first).
    if (!reduced || mhaviz::estimate_reduced_memory(config) > limit) {
      mhaviz::check_memory(config, limit);
    }
    const mhaviz::Problem problem = makeComputeProblem(config, job.request.tensors.get());

    mhaviz::RunControl control;
    control.cancel = job.cancel.get();
    // Every hardware thread: the GUI thread mostly sleeps meanwhile, and the scheduler wakes it
    // ahead of the computing threads (they have run, it has not).
    control.threads = computeThreads();
    qint64 lastPercent = -1;
    // Called between blocks from a computing thread (serialised); throttled to whole percents.
    control.progress = [this, generation, &lastPercent](std::int64_t done, std::int64_t total) {
      const qint64 percent = total > 0 ? done * 100 / total : 100;
      if (percent == lastPercent) return;
      lastPercent = percent;
      emit progress(generation, done, total);
    };
    QString description;
    ReducedRegion region;
    std::shared_ptr<const mhaviz::ForwardResult> result;
    if (reduced) {
      result = computeReduced(problem, job.request, control, description, &region);
    } else {
      mhaviz::ForwardResult computed =
          mhaviz::forward(problem.config, problem.params, problem.inputs, control);
      // The head measures come after the picture (measure()); what a block-sparse kernel would
      // skip, for the mask editor's block grid, is cheap (it reads only the mask): here.
      for (const std::int64_t block : mhaviz::kSparsityBlocks) {
        computed.block_sparsity.push_back(mhaviz::block_sparsity(computed, block));
      }
      result = std::make_shared<const mhaviz::ForwardResult>(std::move(computed));
    }
    const double ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    if (job.cancel->load()) {
      // Superseded or cancelled after the last block: the caller no longer wants this result.
      emit cancelled(generation);
      return;
    }
    emit reducedView(generation, description, region);
    emit resultReady(generation, result, ms);
    if (!reduced) measure(job, result, problem.inputs);
  } catch (const mhaviz::Cancelled&) {
    emit cancelled(generation);
  } catch (const mhaviz::InvalidInput& e) {
    emit failed(generation, QString::fromUtf8(e.what()));
  } catch (const std::bad_alloc&) {
    emit failed(generation,
                tr("Out of memory while computing this configuration. Reduce L, S, N or E, "
                   "or switch to float32."));
  } catch (const std::exception& e) {
    emit failed(generation, tr("Computation failed: %1").arg(QString::fromUtf8(e.what())));
  } catch (...) {
    emit failed(generation, tr("Computation failed with an unknown error."));
  }
}

}  // namespace mhaviz::ui
