#pragma once
// The one parallel loop of mhaviz (the core's passes and the window's work on maps use it):
// indices [0, count) handed out one at a time to up to `threads` threads, the calling thread
// one of them and the others borrowed from the process's pool (thread_pool.hpp), so the
// scratch a thread keeps (thread_local) serves the next call. The caller always works itself
// and waits only for helpers that have begun: a call from inside a call, from a background
// task on the pool or from many threads at once never deadlocks; when the pool has no thread
// free the caller does more of the work (fewer threads than asked, never fewer than one).
// thread_count is the one rule for how many threads a piece of work gets.

#include <cstdint>
#include <functional>

namespace mhaviz {

/// Number of threads to use for `requested` (0 = one per hardware thread), never more than
/// `work_items` and never fewer than 1.
int thread_count(int requested, std::int64_t work_items);

/// Calls fn(i) for every i in [0, count) on up to `threads` threads, the caller included. The
/// first exception thrown by any call stops the hand-out of further indices and is rethrown
/// here after every call that began has ended. Any thread; the helpers run at the niceness of
/// the caller's lane (pool_niceness()).
void parallel_for(std::int64_t count, int threads, const std::function<void(std::int64_t)>& fn);

}  // namespace mhaviz
