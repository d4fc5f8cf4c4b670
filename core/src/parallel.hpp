#pragma once
// A minimal parallel loop for the forward pass: indices [0, count) handed out one at a time
// to `threads` std::threads (the calling thread is one of them). No pool is kept between
// calls: a forward pass starts a handful of threads, which costs microseconds.

#include <cstdint>
#include <functional>

namespace mhaviz::detail {

/// Number of threads to use for `requested` (0 = one per hardware thread), never more than
/// `work_items`.
int thread_count(int requested, std::int64_t work_items);

/// Calls fn(i) for every i in [0, count) on `threads` threads. The first exception thrown by
/// any call stops the hand-out of further indices and is rethrown here after all threads end.
void parallel_for(std::int64_t count, int threads, const std::function<void(std::int64_t)>& fn);

}  // namespace mhaviz::detail
