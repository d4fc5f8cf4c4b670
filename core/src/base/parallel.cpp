#include "mhaviz/core/base/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "thread_pool_helpers.hpp"

namespace mhaviz {

int thread_count(int requested, std::int64_t work_items) {
  int n = requested > 0 ? requested : static_cast<int>(std::thread::hardware_concurrency());
  n = std::max(n, 1);
  return static_cast<int>(std::min<std::int64_t>(n, std::max<std::int64_t>(work_items, 1)));
}

namespace {

/// One call of parallel_for, shared by the caller and the helpers it queued on the pool. A
/// helper may begin after the caller has returned (it was queued behind other jobs): it holds
/// the loop, finds it closed and leaves without touching `fn`, which lives on the caller's stack.
struct Loop {
  std::int64_t count = 0;
  const std::function<void(std::int64_t)>* fn = nullptr;  // valid until `closed`
  std::atomic<std::int64_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;  // guards what follows
  std::condition_variable ended;
  std::exception_ptr error;  // the first one thrown
  int started = 0, finished = 0;  // helpers that entered the loop, and left it
  bool closed = false;            // the caller has finished its share: no helper enters

  /// Hands out indices until none is left or a call has thrown. Any participant.
  void work() {
    for (std::int64_t i = next++; i < count && !failed.load(); i = next++) {
      try {
        (*fn)(i);
      } catch (...) {
        const std::lock_guard lock(mutex);
        if (!error) error = std::current_exception();
        failed = true;
      }
    }
  }
};

}  // namespace

void parallel_for(std::int64_t count, int threads, const std::function<void(std::int64_t)>& fn) {
  if (threads <= 1 || count <= 1) {
    for (std::int64_t i = 0; i < count; ++i) fn(i);
    return;
  }
  auto loop = std::make_shared<Loop>();
  loop->count = count;
  loop->fn = &fn;
  // The helpers run on the pool (the calling thread's lane); the caller does its share at once
  // and so never waits for a helper that has not begun: nested and concurrent calls cannot
  // deadlock, however busy the pool.
  try {
    detail::post_helpers(static_cast<int>(std::min<std::int64_t>(threads, count) - 1), [loop] {
      {
        const std::lock_guard lock(loop->mutex);
        if (loop->closed) return;
        ++loop->started;
      }
      loop->work();
      const std::lock_guard lock(loop->mutex);
      ++loop->finished;
      loop->ended.notify_all();
    });
  } catch (...) {  // out of memory: the caller does the rest with the helpers queued so far
  }
  loop->work();
  std::unique_lock lock(loop->mutex);
  loop->closed = true;
  loop->ended.wait(lock, [&] { return loop->finished == loop->started; });
  if (loop->error) std::rethrow_exception(loop->error);
}

}  // namespace mhaviz
