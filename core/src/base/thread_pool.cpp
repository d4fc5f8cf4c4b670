#include "mhaviz/core/base/thread_pool.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "thread_pool_helpers.hpp"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace mhaviz {

namespace {

/// The threads of one niceness and the jobs waiting for them. Owned by the Pool, which is never
/// destroyed: its threads wait for jobs until the process ends them. Joining them at exit would
/// run their thread_local and Qt's per-thread clean-up after main has returned, and would hang
/// the exit if a job were still running.
class Lane {
 public:
  explicit Lane(int niceness) : m_niceness(niceness) {}
  Lane(const Lane&) = delete;
  Lane& operator=(const Lane&) = delete;

  /// run_on_pool: the job begins at once (a thread is added when none is free).
  void run(std::function<void()> job) {
    const std::lock_guard lock(m_mutex);
    ++m_running;
    m_jobs.push_back([this, job = std::move(job)] {
      job();
      const std::lock_guard done(m_mutex);
      --m_running;
    });
    if (free() < 0) {
      try {
        add_thread();
      } catch (...) {  // no thread to be had (std::system_error): the job waits for a free one
        if (!m_threads.empty()) {
          m_wake.notify_one();
          return;
        }
        m_jobs.pop_back();
        --m_running;
        throw;
      }
    }
    m_wake.notify_one();
  }

  /// post_helpers: queued only onto threads free now or that may be added.
  int help(int wanted, const std::function<void()>& helper) {
    static const auto hardware =
        static_cast<std::ptrdiff_t>(std::max(1U, std::thread::hardware_concurrency()));
    int posted = 0;
    const std::lock_guard lock(m_mutex);
    for (; posted < wanted; ++posted) {
      if (free() <= 0) {
        if (static_cast<std::ptrdiff_t>(m_threads.size()) >= m_running + hardware) break;
        try {
          add_thread();
        } catch (...) {  // no thread to be had: the caller does the rest
          break;
        }
      }
      m_jobs.push_back(helper);
    }
    for (int i = 0; i < posted; ++i) m_wake.notify_one();
    return posted;
  }

 private:
  /// Under m_mutex: threads waiting that no queued job has claimed yet (< 0: jobs wait).
  [[nodiscard]] std::ptrdiff_t free() const {
    return m_idle - static_cast<std::ptrdiff_t>(m_jobs.size());
  }
  /// Under m_mutex. The new thread counts as idle from now on. Throws std::system_error, with
  /// nothing changed, when the system gives no thread.
  void add_thread() {
    m_threads.emplace_back([this] { work(); });
    ++m_idle;  // the thread waits for m_mutex before it looks at the jobs
  }
  /// A thread of the lane: takes jobs in the order queued, for as long as the process runs.
  void work();

  int m_niceness;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::deque<std::function<void()>> m_jobs;  // queued, oldest first
  std::ptrdiff_t m_idle = 0;                 // threads waiting for a job (or about to)
  std::ptrdiff_t m_running = 0;              // run() jobs queued or running
  std::vector<std::jthread> m_threads;       // never shrinks, never joined (see above)
};

thread_local int t_niceness = 0;  // the lane of the calling pool thread; 0 off the pool

void Lane::work() {
  t_niceness = m_niceness;
#ifdef __linux__
  // Linux: PRIO_PROCESS with a thread id is that thread alone. Raising the nice value is always
  // allowed; lowering it again is not (without CAP_SYS_NICE), which is why lanes exist.
  if (m_niceness > 0) {
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), m_niceness);
  }
#endif
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(m_mutex);
      m_wake.wait(lock, [&] { return !m_jobs.empty(); });
      job = std::move(m_jobs.front());
      m_jobs.pop_front();
      --m_idle;
    }
    job();
    job = nullptr;  // what the job holds is freed before the thread is counted idle again
    const std::lock_guard lock(m_mutex);
    ++m_idle;
  }
}

/// The lanes, made when first asked for. One per process, made on first use, never destroyed
/// (see Lane).
class Pool {
 public:
  static Pool& instance() {
    static Pool& pool = *new Pool;
    return pool;
  }
  Lane& lane(int niceness) {
    const std::lock_guard lock(m_mutex);
    std::unique_ptr<Lane>& lane = m_lanes[niceness];
    if (!lane) lane = std::make_unique<Lane>(niceness);
    return *lane;
  }

 private:
  std::mutex m_mutex;
  std::map<int, std::unique_ptr<Lane>> m_lanes;
};

}  // namespace

void run_on_pool(std::function<void()> job, int niceness) {
  Pool::instance().lane(std::max(niceness, 0)).run(std::move(job));
}

int pool_niceness() { return t_niceness; }

namespace detail {

int post_helpers(int wanted, const std::function<void()>& helper) {
  if (wanted <= 0) return 0;
  return Pool::instance().lane(t_niceness).help(wanted, helper);
}

}  // namespace detail

}  // namespace mhaviz
