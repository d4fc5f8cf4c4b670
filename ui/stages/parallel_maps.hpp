#pragma once
// Work on the maps of a grid spread over the hardware threads: statistics and screen
// reductions of large maps read hundreds of megabytes, one map per thread at a time.

#include <functional>

namespace mhaviz::ui {

/// Calls fn(i) for every i in [0, count), on up to one thread per hardware thread (the
/// calling thread is one of them), and returns when all calls have returned. fn must be safe
/// to call concurrently for different i and must not throw. Indices are handed out from the
/// last: a grid's last map is the head average, which reads every head and costs the most,
/// so it starts first and the threads finish together.
void forEachMap(int count, const std::function<void(int)>& fn);

}  // namespace mhaviz::ui
