// The one parallel loop (mhaviz/core/base/parallel.hpp), its thread-count rule, and the pool
// of threads it runs on (mhaviz/core/base/thread_pool.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <future>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "mhaviz/core/base/parallel.hpp"
#include "mhaviz/core/base/thread_pool.hpp"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

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

TEST(Parallel, CountZeroAndOneRunOnTheCaller) {
  int calls = 0;
  std::thread::id ranOn;
  mhaviz::parallel_for(1, 8, [&](std::int64_t i) {
    EXPECT_EQ(i, 0);
    ++calls;
    ranOn = std::this_thread::get_id();
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(ranOn, std::this_thread::get_id());
  mhaviz::parallel_for(0, 1, [&](std::int64_t) { ++calls; });
  EXPECT_EQ(calls, 1);
}

TEST(Parallel, MoreThreadsThanThePoolHasStillCallsEveryIndexOnce) {
  std::vector<std::atomic<int>> calls(5000);
  std::mutex mutex;
  std::set<std::thread::id> threads;
  mhaviz::parallel_for(5000, 256, [&](std::int64_t i) {
    ++calls[static_cast<std::size_t>(i)];
    const std::lock_guard lock(mutex);
    threads.insert(std::this_thread::get_id());
  });
  for (std::size_t i = 0; i < calls.size(); ++i) ASSERT_EQ(calls[i].load(), 1) << i;
  // The pool lends at most one thread per hardware thread to the loops besides the caller.
  const auto hardware = std::max(1U, std::thread::hardware_concurrency());
  EXPECT_LE(threads.size(), hardware + 1);
}

TEST(Parallel, NestedCallsFinish) {
  // Every outer call runs an inner loop: the pool's threads are all busy with outer calls, so
  // inner calls run on their callers (which must not wait for helpers that never begin).
  std::atomic<std::int64_t> sum{0};
  mhaviz::parallel_for(64, 16, [&](std::int64_t i) {
    mhaviz::parallel_for(64, 16, [&](std::int64_t j) {
      mhaviz::parallel_for(4, 4, [&](std::int64_t k) { sum += i * 10000 + j * 10 + k; });
    });
  });
  std::int64_t expected = 0;
  for (std::int64_t i = 0; i < 64; ++i)
    for (std::int64_t j = 0; j < 64; ++j)
      for (std::int64_t k = 0; k < 4; ++k) expected += i * 10000 + j * 10 + k;
  EXPECT_EQ(sum.load(), expected);
}

TEST(Parallel, CallsFromManyThreadsAtOnce) {
  constexpr int kCallers = 12;
  std::vector<std::int64_t> sums(kCallers, 0);
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c) {
    callers.emplace_back([&, c] {
      for (int round = 0; round < 50; ++round) {
        std::atomic<std::int64_t> sum{0};
        mhaviz::parallel_for(200, 4, [&](std::int64_t i) { sum += i; });
        sums[static_cast<std::size_t>(c)] += sum.load();
      }
    });
  }
  for (std::thread& t : callers) t.join();
  for (const std::int64_t s : sums) EXPECT_EQ(s, 50 * (199 * 200 / 2));
}

TEST(Parallel, AnExceptionInANestedCallReachesTheOuterCaller) {
  EXPECT_THROW(mhaviz::parallel_for(8, 4,
                                    [&](std::int64_t i) {
                                      mhaviz::parallel_for(8, 4, [&](std::int64_t j) {
                                        if (i == 3 && j == 5) throw std::invalid_argument("3/5");
                                      });
                                    }),
               std::invalid_argument);
  // The pool is still whole afterwards.
  std::atomic<int> calls{0};
  mhaviz::parallel_for(100, 4, [&](std::int64_t) { ++calls; });
  EXPECT_EQ(calls.load(), 100);
}

TEST(Parallel, ThreadLocalScratchOutlivesACall) {
  // The point of the pool: a helper's thread_local state is still there at the next call, so
  // across many calls far fewer distinct threads take part than calls were made.
  std::mutex mutex;
  std::set<std::thread::id> threads;
  for (int call = 0; call < 50; ++call) {
    mhaviz::parallel_for(64, 2, [&](std::int64_t) {
      std::this_thread::sleep_for(std::chrono::microseconds(20));
      const std::lock_guard lock(mutex);
      threads.insert(std::this_thread::get_id());
    });
  }
  EXPECT_LE(threads.size(), std::max(1U, std::thread::hardware_concurrency()) + 1);
}

TEST(ThreadPool, AJobBeginsAtOnceEvenWhenEveryThreadIsBusy) {
  // More blocked jobs than hardware threads: each still begins (the pool adds a thread), so
  // background tasks that wait cannot starve the next.
  const int jobs = static_cast<int>(std::max(1U, std::thread::hardware_concurrency())) + 3;
  std::mutex mutex;
  std::condition_variable cv;
  int begun = 0;
  bool release = false;
  for (int j = 0; j < jobs; ++j) {
    mhaviz::run_on_pool([&] {
      std::unique_lock lock(mutex);
      ++begun;
      cv.notify_all();
      cv.wait(lock, [&] { return release; });
      --begun;
      cv.notify_all();
    });
  }
  std::unique_lock lock(mutex);
  ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(20), [&] { return begun == jobs; }));
  // While they all block, a parallel_for from a pool job still finishes (its caller works).
  std::promise<int> done;
  mhaviz::run_on_pool([&] {
    std::atomic<int> calls{0};
    mhaviz::parallel_for(100, 8, [&](std::int64_t) { ++calls; });
    done.set_value(calls.load());
  });
  lock.unlock();
  auto result = done.get_future();
  ASSERT_EQ(result.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  EXPECT_EQ(result.get(), 100);
  lock.lock();
  release = true;
  cv.notify_all();
  ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(20), [&] { return begun == 0; }));
}

#ifdef __linux__
int thread_nice() {
  return getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
}

TEST(ThreadPool, ALanesThreadsAndTheirHelpersRunAtItsNiceness) {
  const int base = thread_nice();
  const int nice = std::min(base + 7, 19);
  std::promise<std::vector<int>> seen;
  mhaviz::run_on_pool(
      [&] {
        std::vector<int> values{thread_nice(), mhaviz::pool_niceness()};
        std::mutex mutex;
        mhaviz::parallel_for(64, 4, [&](std::int64_t) {
          std::this_thread::sleep_for(std::chrono::microseconds(50));
          const int v = thread_nice();
          const std::lock_guard lock(mutex);
          values.push_back(v);
        });
        seen.set_value(values);
      },
      nice);
  auto result = seen.get_future();
  ASSERT_EQ(result.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  const std::vector<int> values = result.get();
  EXPECT_EQ(values[1], nice);
  for (const int v : values) EXPECT_EQ(v, nice);  // the job and every helper it borrowed
  // The lane of niceness 0 was never lowered: its threads and the caller's are as they were.
  std::promise<int> plain;
  mhaviz::run_on_pool([&] { plain.set_value(thread_nice()); });
  EXPECT_EQ(plain.get_future().get(), base);
  EXPECT_EQ(thread_nice(), base);
  EXPECT_EQ(mhaviz::pool_niceness(), 0);
}
#endif

}  // namespace
