#pragma once
// The one way mhaviz runs work off the GUI thread. Each owner (the compute worker, the grid's
// picture preparation, compare mode, the model view) holds a LatestTask per kind of work.
// start() runs a piece of work on the process's pool of threads (mhaviz/core/base/thread_pool.hpp),
// one run of a task at a time in the order started, and the newest start wins: the run
// before it is told to stop (its cancel flag is set), a run still waiting is skipped, and
// whatever an outdated run hands to the GUI thread is dropped there. Nothing throws across the
// thread: the work function catches its own exceptions and posts what the user should read.

#include <QObject>
#include <QtGlobal>
#include <atomic>
#include <functional>
#include <memory>

namespace mhaviz::ui {

namespace detail {
struct TaskState;
}
class Mailbox;

/// What one run of a LatestTask sees: whether it is still wanted and a way to hand results to
/// the owner's thread. Copyable; valid on any thread for as long as the work function runs.
class TaskScope {
 public:
  /// True once a newer start() or a cancel() made this run unwanted. Any thread.
  [[nodiscard]] bool cancelled() const { return m_cancel->load(std::memory_order_relaxed); }
  /// The flag itself, for core functions that poll one (mhaviz::RunControl::cancel).
  [[nodiscard]] const std::atomic<bool>* cancelFlag() const { return m_cancel.get(); }
  [[nodiscard]] quint64 generation() const { return m_generation; }
  /// Runs `fn` on the owner's thread, after the earlier posts of this run, unless by then this
  /// run is cancelled or no longer the newest, or the task is gone. Any thread.
  void post(std::function<void()> fn) const;

 private:
  friend class LatestTask;
  TaskScope(std::shared_ptr<detail::TaskState> state, quint64 generation,
            std::shared_ptr<std::atomic<bool>> cancel);
  std::shared_ptr<detail::TaskState> m_state;
  quint64 m_generation;
  std::shared_ptr<std::atomic<bool>> m_cancel;
};

class LatestTask {
 public:
  using Work = std::function<void(const TaskScope& scope)>;
  /// Called on the owner's thread when a run has ended (its work function returned, or it was
  /// skipped because a newer start came first), after everything it posted.
  using Ended = std::function<void(quint64 generation, bool cancelled)>;

  /// Posts are delivered on `context`'s thread (the owner: a widget or controller on the GUI
  /// thread), never after `context` or this task is destroyed. `niceness` > 0 runs the work
  /// on the pool's threads of that lower priority (Linux nice value; their parallel_for helpers
  /// too), for work that must not slow what is on screen.
  explicit LatestTask(QObject* context, int niceness = 0);
  /// Cancels the running work and waits for its work function to return (it sees the cancel
  /// flag at its next check); runs not begun never begin; nothing is delivered afterwards.
  ~LatestTask();
  LatestTask(const LatestTask&) = delete;
  LatestTask& operator=(const LatestTask&) = delete;

  /// Owner's thread. Starts `work` as the newest run and returns its generation (1, 2, ...).
  quint64 start(Work work);
  /// Owner's thread. Cancels the newest run (and with it every older one); its end is still
  /// reported to onEnded, with `cancelled` true.
  void cancel();
  /// Owner's thread. True from start() until the newest run has ended.
  [[nodiscard]] bool isBusy() const;
  /// The generation of the newest start(); 0 before the first.
  [[nodiscard]] quint64 generation() const;
  /// Owner's thread: true when `generation` is the newest run and it is not cancelled.
  [[nodiscard]] bool isCurrent(quint64 generation) const;
  void onEnded(Ended ended) { m_ended = std::move(ended); }

 private:
  std::shared_ptr<detail::TaskState> m_state;
  std::unique_ptr<Mailbox> m_mailbox;  // declared after m_state, destroyed before it
  int m_niceness;  // the pool lane the runs go to
  Ended m_ended;
  quint64 m_endedGeneration = 0;  // newest generation whose end was reported
};

}  // namespace mhaviz::ui
