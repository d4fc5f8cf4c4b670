#include "tasks/latest_task.hpp"

#include <QMetaObject>
#include <condition_variable>
#include <deque>
#include <mutex>

#include "mhaviz/core/base/thread_pool.hpp"

namespace mhaviz::ui {

namespace detail {

/// Shared by a LatestTask, the pool job that runs its queue and its runs. The task clears `context` and `task` under
/// `mutex` when it is destroyed; runs post only while holding `mutex` with `context` set, so that
/// nothing is ever posted to an object being destroyed. Runs wait in `queue` under the same
/// mutex, and so do deliveries (`outbox`), which the task's mailbox takes out on the owner's
/// thread: every hand-over between the two threads goes through this mutex, where
/// ThreadSanitizer sees it. Qt's event queue (not instrumented) carries only a call without
/// arguments that tells the mailbox to look.
struct TaskState {
  struct Delivery {
    quint64 generation;
    std::shared_ptr<std::atomic<bool>> cancel;
    std::function<void()> fn;
    bool always;
  };
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<std::function<void()>> queue;  // runs started and not begun, oldest first
  bool draining = false;  // a job on the pool is running the queue (at most one: runs never overlap)
  bool stopping = false;
  std::deque<Delivery> outbox;  // posted and not delivered yet, oldest first
  QObject* context = nullptr;
  QObject* mailbox = nullptr;  // lives on the owner's thread; see Mailbox
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
  state->outbox.push_back({generation, cancel, std::move(fn), always});
  // By name, without arguments: what Qt queues is made and read inside Qt alone.
  QMetaObject::invokeMethod(state->mailbox, "drain", Qt::QueuedConnection);
}

/// A job on the pool (the lane of the task's niceness): runs what start() queued, one at a time
/// in order, until the queue is empty or the task is being destroyed; then lets go of the queue.
/// start() queues this job only when none is running, so two runs of a task never overlap.
void drain(const std::shared_ptr<detail::TaskState>& state) {
  for (;;) {
    std::function<void()> run;
    {
      const std::lock_guard lock(state->mutex);
      if (state->stopping || state->queue.empty()) {
        state->draining = false;
        state->wake.notify_all();
        return;
      }
      run = std::move(state->queue.front());
      state->queue.pop_front();
    }
    run();
    // `run` (and what its work captured) is freed here, before the next run or the release.
  }
}

}  // namespace

/// Delivers a task's posts on the owner's thread, in the order posted, each unless it is
/// outdated by the time it arrives (or it is a run's end, `always`).
class Mailbox : public QObject {
  Q_OBJECT

 public:
  explicit Mailbox(std::weak_ptr<detail::TaskState> state) : m_state(std::move(state)) {}

 public slots:
  void drain() {
    const std::shared_ptr<detail::TaskState> state = m_state.lock();
    if (!state) return;
    for (;;) {
      detail::TaskState::Delivery d;
      bool wanted = false;
      {
        const std::lock_guard lock(state->mutex);
        if (state->outbox.empty()) return;
        d = std::move(state->outbox.front());
        state->outbox.pop_front();
        wanted = state->context != nullptr && (d.always || state->wants(d.generation, *d.cancel));
      }
      if (wanted) d.fn();
    }
  }

 private:
  std::weak_ptr<detail::TaskState> m_state;
};

TaskScope::TaskScope(std::shared_ptr<detail::TaskState> state, quint64 generation,
                     std::shared_ptr<std::atomic<bool>> cancel)
    : m_state(std::move(state)), m_generation(generation), m_cancel(std::move(cancel)) {}

void TaskScope::post(std::function<void()> fn) const {
  deliver(m_state, m_generation, m_cancel, std::move(fn), false);
}

LatestTask::LatestTask(QObject* context, int niceness)
    : m_state(std::make_shared<detail::TaskState>()),
      m_mailbox(std::make_unique<Mailbox>(m_state)),
      m_niceness(niceness) {
  m_state->context = context;
  m_state->mailbox = m_mailbox.get();
  m_state->task = this;
}

LatestTask::~LatestTask() {
  // Runs not begun and posts not delivered hold the state (a run's end captures it): they are
  // taken out and destroyed here, outside the lock, or state and outbox would keep each other.
  // With `context` cleared nothing is posted any more, so the outbox stays empty after this.
  std::deque<std::function<void()>> notBegun;
  std::deque<detail::TaskState::Delivery> undelivered;
  {
    const std::lock_guard lock(m_state->mutex);
    m_state->context = nullptr;
    m_state->mailbox = nullptr;
    m_state->task = nullptr;
    m_state->latestCancel->store(true);
    m_state->stopping = true;
    notBegun.swap(m_state->queue);
    undelivered.swap(m_state->outbox);
  }
  // The running one stops at its next look at the flag; its pool thread goes back to the pool.
  std::unique_lock lock(m_state->mutex);
  m_state->wake.wait(lock, [&] { return !m_state->draining; });
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
  bool startDrain = false;
  {
    const std::lock_guard lock(m_state->mutex);
    m_state->queue.push_back(std::move(run));
    startDrain = !m_state->draining;
    m_state->draining = true;
  }
  // The queue runs on the pool, at the task's niceness, and begins at once (the pool adds a
  // thread rather than make a run wait for other work).
  if (startDrain) {
    try {
      mhaviz::run_on_pool([state = m_state] { drain(state); }, m_niceness);
    } catch (...) {  // the system gives no thread at all: the next start() tries again
      const std::lock_guard lock(m_state->mutex);
      m_state->draining = false;
      throw;
    }
  }
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

#include "latest_task.moc"
