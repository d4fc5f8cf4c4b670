// The one parallel loop (mhaviz/core/base/parallel.hpp) and its thread-count rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

#include "mhaviz/core/base/parallel.hpp"

namespace {

TEST(Parallel, ThreadCountFollowsTheRule) {
  const int hardware = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  EXPECT_EQ(mhaviz::thread_count(0, 1'000'000), hardware);  // 0: one per hardware thread
  EXPECT_EQ(mhaviz::thread_count(3, 1'000'000), 3);
  EXPECT_EQ(mhaviz::thread_count(8, 2), 2);  // never more than the work items
  EXPECT_EQ(mhaviz::thread_count(8, 0), 1);  // never fewer than one
  EXPECT_EQ(mhaviz::thread_count(-4, 5), std::min(hardware, 5));
}

TEST(Parallel, CallsEveryIndexExactlyOnce) {
  for (const int threads : {1, 2, 3, 7}) {
    std::vector<std::atomic<int>> calls(1000);
    mhaviz::parallel_for(1000, threads,
                         [&](std::int64_t i) { ++calls[static_cast<std::size_t>(i)]; });
    for (std::size_t i = 0; i < calls.size(); ++i)
      ASSERT_EQ(calls[i].load(), 1) << i << " on " << threads;
  }
  int none = 0;
  mhaviz::parallel_for(0, 4, [&](std::int64_t) { ++none; });
  EXPECT_EQ(none, 0);
}

TEST(Parallel, RethrowsTheFirstExceptionAfterEveryThreadEnds) {
  std::atomic<int> running{0};
  EXPECT_THROW(mhaviz::parallel_for(100, 3,
                                    [&](std::int64_t i) {
                                      ++running;
                                      if (i == 10) throw std::runtime_error("block 10");
                                      --running;
                                    }),
               std::runtime_error);
  EXPECT_EQ(running.load(), 1);  // only the throwing call did not finish: none still runs
}

}  // namespace
