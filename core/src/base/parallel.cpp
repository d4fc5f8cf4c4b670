#include "mhaviz/core/base/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace mhaviz {

int thread_count(int requested, std::int64_t work_items) {
  int n = requested > 0 ? requested : static_cast<int>(std::thread::hardware_concurrency());
  n = std::max(n, 1);
  return static_cast<int>(std::min<std::int64_t>(n, std::max<std::int64_t>(work_items, 1)));
}

void parallel_for(std::int64_t count, int threads, const std::function<void(std::int64_t)>& fn) {
  if (threads <= 1 || count <= 1) {
    for (std::int64_t i = 0; i < count; ++i) fn(i);
    return;
  }
  std::atomic<std::int64_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  const auto work = [&] {
    for (std::int64_t i = next++; i < count && !failed.load(); i = next++) {
      try {
        fn(i);
      } catch (...) {
        const std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(threads - 1));
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace mhaviz
