#pragma once
// The process's one pool of worker threads (core/src/base/thread_pool.cpp): parallel_for's
// helpers and the window's background tasks (ui/tasks LatestTask) run on it, so that the
// scratch memory a thread keeps (thread_local) serves the next pass too.
//
// The pool is made of lanes, one per niceness (Linux nice value; 0 = the process's own
// priority). A lane's threads take its niceness when they start and keep it: a thread cannot
// give back a priority it has lowered without CAP_SYS_NICE (RLIMIT_NICE is 0 by default), so
// work of a lower priority runs on threads of its own rather than lowering and restoring a
// shared one. Threads are added when needed and kept until the process ends; a lane holds one
// thread per job it is running (a background task holds its thread while it runs) plus at most
// one per hardware thread for parallel_for's helpers.

#include <functional>

namespace mhaviz {

/// Runs `job` on a thread of the lane of `niceness`, at once: when no thread of the lane is
/// free, one is added, so a job never waits for another job (a background task that blocks
/// cannot starve the next). `job` must not throw. Any thread. Throws std::system_error when
/// the lane has no thread and the system gives none; with threads, the job then waits for one. The threads a lane adds take the
/// priority of the thread that asks (then lower it to the lane's niceness): ask from a thread
/// of niceness 0 for a lane of niceness 0 (LatestTask asks from the owner's thread).
void run_on_pool(std::function<void()> job, int niceness = 0);

/// The niceness of the lane the calling thread belongs to; 0 off the pool. parallel_for takes
/// its helpers from this lane, so a low-priority task's helpers run at its low priority.
int pool_niceness();

}  // namespace mhaviz
