#include "mhaviz/core/base/thread_pool.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
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

/// The threads of one niceness and the jobs waiting for them. Owned by the Pool; its threads
/// are joined when the pool is destroyed (at the process's exit, when no job runs any more).
class Lane {
 public:
  explicit Lane(int niceness) : m_niceness(niceness) {}
  ~Lane() {
    for (std::jthread& t : m_threads) {
      t.request_stop();
      // A job that ends the process (std::exit) runs the destructors on its own thread.
      if (t.get_id() == std::this_thread::get_id()) t.detach();
    }
    m_threads.clear();  // joins: each thread wakes on its stop request
  }
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
    if (free() < 0) add_thread();
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
        add_thread();
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
  /// Under m_mutex. The new thread counts as idle from now on.
  void add_thread() {
    ++m_idle;
    m_threads.emplace_back([this](const std::stop_token& stop) { work(stop); });
  }
  /// A thread of the lane: takes jobs in the order queued until the pool is destroyed.
  void work(const std::stop_token& stop);

  int m_niceness;
  std::mutex m_mutex;
  std::condition_variable_any m_wake;
  std::deque<std::function<void()>> m_jobs;  // queued, oldest first
  std::ptrdiff_t m_idle = 0;                 // threads waiting for a job (or about to)
  std::ptrdiff_t m_running = 0;              // run() jobs queued or running
  std::vector<std::jthread> m_threads;       // never shrinks while the process runs
};

thread_local int t_niceness = 0;  // the lane of the calling pool thread; 0 off the pool

void Lane::work(const std::stop_token& stop) {
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
      if (!m_wake.wait(lock, stop, [&] { return !m_jobs.empty(); })) return;  // stop requested
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

/// The lanes, made when first asked for. One per process, made on first use, destroyed at exit.
class Pool {
 public:
  static Pool& instance() {
    static Pool pool;
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
