#pragma once
// Private to core_base: how parallel_for borrows the pool's threads (thread_pool.cpp).

#include <functional>

namespace mhaviz::detail {

/// Queues up to `wanted` runs of `helper` on the calling thread's lane (pool_niceness()), only
/// as many as the lane has threads for now or may add (one per hardware thread besides those
/// running jobs of run_on_pool). Returns how many were queued; a queued helper may start late
/// or never run before the caller has finished alone, so it must be safe to run at any time
/// afterwards (parallel_for's helpers hold their loop's state and find no work left). Any
/// thread.
int post_helpers(int wanted, const std::function<void()>& helper);

}  // namespace mhaviz::detail
