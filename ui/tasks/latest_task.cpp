#include "tasks/latest_task.hpp"

#include <QtGlobal>
#ifdef Q_OS_LINUX
#include <sys/resource.h>
#endif

#include <QMetaObject>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace mhaviz::ui {

namespace detail {

/// Shared by a LatestTask, its thread and its runs. The task clears `context` and `task` under
/// `mutex` when it is destroyed; runs post only while holding `mutex` with `context` set, so that
/// nothing is ever posted to an object being destroyed. Runs wait in `queue` under the same
/// mutex, and deliveries take it again on arrival: every hand-over between the owner's thread
/// and the task's thread goes through this mutex, where ThreadSanitizer sees it (Qt's thread
/// pool and event queue are not instrumented).
struct TaskState {
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<std::function<void()>> queue;  // runs started and not begun, oldest first
  bool stopping = false;
  QObject* context = nullptr;
  LatestTask* task = nullptr;
  quint64 latest = 0;
  std::shared_ptr<std::atomic<bool>> latestCancel = std::make_shared<std::atomic<bool>>(false);

  /// Under `mutex`: whether a run of `generation` may still deliver.
  [[nodiscard]] bool wants(quint64 generation, const std::atomic<bool>& cancel) const {
    return context != nullptr && generation == latest && !cancel.load();
  }
};

}  // namespace detail

namespace {

/// Queues `fn` on the state's context unless `generation` is outdated by then (checked when
/// posting and again on arrival). `always`: deliver even when outdated (the end of a run).
void deliver(const std::shared_ptr<detail::TaskState>& state, quint64 generation,
             const std::shared_ptr<std::atomic<bool>>& cancel, std::function<void()> fn,
             bool always) {
  const std::lock_guard lock(state->mutex);
  if (state->context == nullptr || (!always && !state->wants(generation, *cancel))) return;
  QMetaObject::invokeMethod(
      state->context,
      [state, generation, cancel, fn = std::move(fn), always] {
        bool wanted = false;
        {
          const std::lock_guard arrived(state->mutex);
          wanted = state->context != nullptr && (always || state->wants(generation, *cancel));
        }
        if (wanted) fn();
      },
      Qt::QueuedConnection);
}

void lowerPriority(int niceness) {
#ifdef Q_OS_LINUX
  if (niceness > 0) setpriority(PRIO_PROCESS, 0, niceness);  // Linux: 0 is the calling thread
#else
  (void)niceness;
#endif
}

/// The task's thread: runs what start() queued, one at a time in order, until told to stop.
void runQueue(const std::shared_ptr<detail::TaskState>& state, int niceness) {
  lowerPriority(niceness);
  for (;;) {
    std::function<void()> run;
    {
      std::unique_lock lock(state->mutex);
      state->wake.wait(lock, [&] { return state->stopping || !state->queue.empty(); });
      if (state->stopping) return;
      run = std::move(state->queue.front());
      state->queue.pop_front();
    }
    run();
  }
}

}  // namespace

TaskScope::TaskScope(std::shared_ptr<detail::TaskState> state, quint64 generation,
                     std::shared_ptr<std::atomic<bool>> cancel)
    : m_state(std::move(state)), m_generation(generation), m_cancel(std::move(cancel)) {}

void TaskScope::post(std::function<void()> fn) const {
  deliver(m_state, m_generation, m_cancel, std::move(fn), false);
}

LatestTask::LatestTask(QObject* context, int niceness)
    : m_state(std::make_shared<detail::TaskState>()), m_niceness(niceness) {
  m_state->context = context;
  m_state->task = this;
}

LatestTask::~LatestTask() {
  std::deque<std::function<void()>> notBegun;
  {
    const std::lock_guard lock(m_state->mutex);
    m_state->context = nullptr;
    m_state->task = nullptr;
    m_state->latestCancel->store(true);
    m_state->stopping = true;
    notBegun.swap(m_state->queue);  // destroyed below, outside the lock
  }
  m_state->wake.notify_one();
  if (m_thread.joinable()) m_thread.join();  // the running one stops at its next look at the flag
}

quint64 LatestTask::start(Work work) {
  quint64 generation = 0;
  std::shared_ptr<std::atomic<bool>> cancel;
  {
    const std::lock_guard lock(m_state->mutex);
    m_state->latestCancel->store(true);  // the run before is no longer wanted
    m_state->latestCancel = std::make_shared<std::atomic<bool>>(false);
    generation = ++m_state->latest;
    cancel = m_state->latestCancel;
  }
  auto run = [state = m_state, generation, cancel, work = std::move(work)] {
    bool skipped = false;
    {
      const std::lock_guard lock(state->mutex);
      skipped = !state->wants(generation, *cancel);  // a newer run came before this one began
    }
    if (!skipped) work(TaskScope(state, generation, cancel));
    deliver(
        state, generation, cancel,
        [state, generation, cancel] {
          if (state->task != nullptr) {
            LatestTask& task = *state->task;
            if (generation > task.m_endedGeneration && generation == task.generation()) {
              task.m_endedGeneration = generation;
            }
            if (task.m_ended) task.m_ended(generation, cancel->load());
          }
        },
        true);
  };
  {
    const std::lock_guard lock(m_state->mutex);
    m_state->queue.push_back(std::move(run));
  }
  // The thread starts with the first run and lives as long as the task.
  if (!m_thread.joinable()) m_thread = std::thread(runQueue, m_state, m_niceness);
  m_state->wake.notify_one();
  return generation;
}

void LatestTask::cancel() {
  const std::lock_guard lock(m_state->mutex);
  m_state->latestCancel->store(true);
}

quint64 LatestTask::generation() const {
  const std::lock_guard lock(m_state->mutex);
  return m_state->latest;
}

bool LatestTask::isBusy() const { return m_endedGeneration != generation(); }

bool LatestTask::isCurrent(quint64 generation) const {
  const std::lock_guard lock(m_state->mutex);
  return generation == m_state->latest && !m_state->latestCancel->load();
}

}  // namespace mhaviz::ui
