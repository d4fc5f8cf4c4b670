#include "stages/parallel_maps.hpp"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace mhaviz::ui {

void forEachMap(int count, const std::function<void(int)>& fn) {
  const int threads =
      std::min(count, std::max(1, static_cast<int>(std::thread::hardware_concurrency())));
  std::atomic<int> next{count - 1};
  const auto work = [&] {
    for (int i = next--; i >= 0; i = next--) fn(i);
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  for (std::thread& t : helpers) t.join();
}

}  // namespace mhaviz::ui
