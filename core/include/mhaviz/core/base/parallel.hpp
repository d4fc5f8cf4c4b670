#pragma once
// The one parallel loop of mhaviz (the core's passes and the window's work on maps use it):
// indices [0, count) handed out one at a time to `threads` std::threads (the calling thread is
// one of them). No pool is kept between calls: a pass starts a handful of threads, which costs
// microseconds. thread_count is the one rule for how many threads a piece of work gets.

#include <cstdint>
#include <functional>

namespace mhaviz {

/// Number of threads to use for `requested` (0 = one per hardware thread), never more than
/// `work_items` and never fewer than 1.
int thread_count(int requested, std::int64_t work_items);

/// Calls fn(i) for every i in [0, count) on `threads` threads. The first exception thrown by
/// any call stops the hand-out of further indices and is rethrown here after all threads end.
void parallel_for(std::int64_t count, int threads, const std::function<void(std::int64_t)>& fn);

}  // namespace mhaviz
