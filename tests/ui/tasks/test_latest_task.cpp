// LatestTask: the newest run wins, waiting runs are skipped, outdated posts are dropped, every
// run's end is reported after its posts, nothing is delivered once the task is gone and what
// was not delivered is freed with it. Runs share the process's pool of threads: two runs of one
// task never overlap, a run never waits for other tasks' runs, parallel_for inside a run
// finishes however busy the pool, and a task's niceness is its runs' alone.

#include <QCoreApplication>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "mhaviz/core/base/parallel.hpp"
#include "tasks/latest_task.hpp"

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

using mhaviz::ui::LatestTask;
using mhaviz::ui::TaskScope;

namespace {

constexpr int kTimeout = 20000;

/// Blocks a run inside its work function until released: the test decides what happens while
/// a run is busy instead of racing it.
struct Gate {
  QSemaphore entered, open;
  void hold() {
    entered.release();
    open.acquire();
  }
};

struct Ends {
  QList<quint64> generations;
  QList<bool> cancelled;
};

#ifdef Q_OS_LINUX
int threadNice() { return getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid))); }
#endif

}  // namespace

class TestLatestTask : public QObject {
  Q_OBJECT

 private slots:
  void workRunsOffTheOwnersThreadAndPostsComeBackToIt() {
    QObject owner;
    LatestTask task(&owner);
    std::atomic<QThread*> ranOn{nullptr};
    QThread* deliveredOn = nullptr;
    int value = 0;
    task.start([&](const TaskScope& scope) {
      ranOn = QThread::currentThread();
      scope.post([&] {
        deliveredOn = QThread::currentThread();
        value = 42;
      });
    });
    QTRY_COMPARE_WITH_TIMEOUT(value, 42, kTimeout);
    QVERIFY(ranOn.load() != nullptr);
    QVERIFY(ranOn.load() != owner.thread());
    QCOMPARE(deliveredOn, owner.thread());
  }

  void aNewerStartCancelsTheRunningOneAndDropsItsPosts() {
    QObject owner;
    LatestTask task(&owner);
    Gate gate;
    std::atomic<bool> sawCancel{false};
    QList<int> delivered;
    const quint64 first = task.start([&](const TaskScope& scope) {
      gate.hold();
      sawCancel = scope.cancelled();
      scope.post([&] { delivered << 1; });  // outdated by the second start: dropped
    });
    QVERIFY(gate.entered.tryAcquire(1, kTimeout));
    const quint64 second = task.start([&](const TaskScope& scope) {
      scope.post([&] { delivered << 2; });
    });
    QCOMPARE(second, first + 1);
    QVERIFY(!task.isCurrent(first));
    QVERIFY(task.isCurrent(second));
    gate.open.release();
    QTRY_VERIFY_WITH_TIMEOUT(!task.isBusy(), kTimeout);
    QVERIFY(sawCancel.load());
    QCOMPARE(delivered, QList<int>{2});
  }

  void onlyTheNewestWaitingRunIsStartedAndEveryEndIsReported() {
    QObject owner;
    LatestTask task(&owner);
    Gate gate;
    Ends ends;
    task.onEnded([&](quint64 g, bool cancelled) {
      ends.generations << g;
      ends.cancelled << cancelled;
    });
    std::atomic<int> started{0};
    task.start([&](const TaskScope&) { gate.hold(); });
    QVERIFY(gate.entered.tryAcquire(1, kTimeout));
    quint64 last = 0;
    for (int i = 0; i < 10; ++i) last = task.start([&](const TaskScope&) { ++started; });
    QVERIFY(task.isBusy());
    gate.open.release();
    QTRY_COMPARE_WITH_TIMEOUT(ends.generations.size(), 11, kTimeout);
    QCOMPARE(started.load(), 1);  // the ten waiting runs: only the newest one ran
    QCOMPARE(ends.generations.last(), last);
    QCOMPARE(ends.cancelled.last(), false);
    QCOMPARE(ends.cancelled.count(true), 10);
    QVERIFY(!task.isBusy());
  }

  void cancelDropsPostsButStillReportsTheEnd() {
    QObject owner;
    LatestTask task(&owner);
    Gate gate;
    Ends ends;
    task.onEnded([&](quint64 g, bool cancelled) {
      ends.generations << g;
      ends.cancelled << cancelled;
    });
    bool delivered = false;
    const quint64 g = task.start([&](const TaskScope& scope) {
      gate.hold();
      scope.post([&] { delivered = true; });
    });
    QVERIFY(gate.entered.tryAcquire(1, kTimeout));
    task.cancel();
    QVERIFY(task.isBusy());  // until the run has actually ended
    gate.open.release();
    QTRY_COMPARE_WITH_TIMEOUT(ends.generations.size(), 1, kTimeout);
    QCOMPARE(ends.generations.first(), g);
    QCOMPARE(ends.cancelled.first(), true);
    QVERIFY(!delivered);
    QVERIFY(!task.isBusy());
  }

  void theEndComesAfterEveryPostOfTheRun() {
    QObject owner;
    LatestTask task(&owner);
    QList<QString> order;
    task.onEnded([&](quint64, bool) { order << QStringLiteral("end"); });
    task.start([&](const TaskScope& scope) {
      for (int i = 0; i < 3; ++i) scope.post([&order, i] { order << QString::number(i); });
    });
    QTRY_COMPARE_WITH_TIMEOUT(order.size(), 4, kTimeout);
    QCOMPARE(order, (QList<QString>{"0", "1", "2", "end"}));
  }

  void nothingIsDeliveredOnceTheTaskIsGone() {
    QObject owner;  // outlives the task: only the task's own guard can drop the delivery
    auto task = std::make_unique<LatestTask>(&owner);
    Gate gate;
    auto delivered = std::make_shared<std::atomic<bool>>(false);
    QSemaphore posted;
    task->start([&, delivered](const TaskScope& scope) {
      gate.hold();
      scope.post([delivered] { *delivered = true; });
      posted.release();
    });
    QVERIFY(gate.entered.tryAcquire(1, kTimeout));
    gate.open.release();
    // Blocks without running the event loop: the post is queued to the owner, not delivered.
    QVERIFY(posted.tryAcquire(1, kTimeout));
    task.reset();
    QCoreApplication::processEvents();  // delivers everything queued so far
    QVERIFY(!*delivered);
  }

  void whatUndeliveredPostsHoldIsFreedWithTheTask() {
    QObject owner;
    auto task = std::make_unique<LatestTask>(&owner);
    auto result = std::make_shared<int>(42);  // stands for a result a post carries to the owner
    QSemaphore posted;
    task->start([&, result](const TaskScope& scope) {
      scope.post([result] { (void)*result; });
      posted.release();
    });
    QVERIFY(posted.tryAcquire(1, kTimeout));
    // A second run begins only once the first has queued its end, which holds the task's state.
    QSemaphore secondBegan;
    task->start([&](const TaskScope&) { secondBegan.release(); });
    QVERIFY(secondBegan.tryAcquire(1, kTimeout));
    task.reset();  // the post and the first run's end are still queued, never delivered
    // Joined: the run is gone, so only the outbox could still hold the result (and the task's
    // state, which the end's delivery holds in turn: a cycle that would never be freed).
    QCOMPARE(result.use_count(), 1L);
  }

  void theCancelFlagIsWhatCoreFunctionsPoll() {
    QObject owner;
    LatestTask task(&owner);
    Gate gate;
    std::atomic<bool> flagSet{false};
    task.start([&](const TaskScope& scope) {
      gate.hold();
      flagSet = scope.cancelFlag()->load();
    });
    QVERIFY(gate.entered.tryAcquire(1, kTimeout));
    task.cancel();
    gate.open.release();
    QTRY_VERIFY_WITH_TIMEOUT(!task.isBusy(), kTimeout);
    QVERIFY(flagSet.load());
  }

  void twoRunsOfATaskNeverOverlap() {
    QObject owner;
    LatestTask task(&owner);
    std::atomic<int> inside{0};
    std::atomic<int> most{0};
    std::atomic<int> ran{0};
    const auto work = [&](const TaskScope&) {
      const int now = ++inside;
      int seen = most.load();
      while (now > seen && !most.compare_exchange_weak(seen, now)) {
      }
      QThread::usleep(200);
      --inside;
      ++ran;
    };
    for (int round = 0; round < 30; ++round) {
      task.start(work);
      if (round % 3 == 0) QCoreApplication::processEvents();  // ends arrive between starts
    }
    QTRY_VERIFY_WITH_TIMEOUT(!task.isBusy(), kTimeout);
    QVERIFY(ran.load() >= 1);
    QCOMPARE(most.load(), 1);
  }

  void aRunBeginsWhileMoreTasksThanThreadsAreBusy() {
    QObject owner;
    const int busy = QThread::idealThreadCount() + 2;
    std::vector<std::unique_ptr<LatestTask>> tasks;
    Gate gate;
    for (int i = 0; i < busy; ++i) {
      tasks.push_back(std::make_unique<LatestTask>(&owner));
      tasks.back()->start([&](const TaskScope&) { gate.hold(); });
    }
    QVERIFY(gate.entered.tryAcquire(busy, kTimeout));  // every one began: none waits for a thread
    // One more task, whose work spreads over threads with parallel_for: it finishes while all
    // the others still block (its own thread does the loop's work when no helper is free).
    LatestTask last(&owner);
    std::atomic<int> calls{0};
    last.start([&](const TaskScope&) {
      mhaviz::parallel_for(1000, mhaviz::thread_count(0, 1000), [&](std::int64_t) { ++calls; });
    });
    QTRY_VERIFY_WITH_TIMEOUT(!last.isBusy(), kTimeout);
    QCOMPARE(calls.load(), 1000);
    gate.open.release(busy);
    for (auto& t : tasks) QTRY_VERIFY_WITH_TIMEOUT(!t->isBusy(), kTimeout);
  }

  void theDestructorWaitsForTheRunningWorkToReturn() {
    QObject owner;
    auto task = std::make_unique<LatestTask>(&owner);
    Gate gate;
    std::atomic<bool> returned{false};
    task->start([&](const TaskScope&) {
      gate.hold();
      QThread::msleep(20);
      returned = true;
    });
    QVERIFY(gate.entered.tryAcquire(1, kTimeout));
    // The gate opens while the destructor waits (or, on a slow machine, just before it).
    std::thread opener([&] {
      QThread::msleep(100);
      gate.open.release();
    });
    task.reset();
    QVERIFY(returned.load());
    opener.join();
  }

#ifdef Q_OS_LINUX
  void nicenessIsTheRunsAloneAndReachesTheirHelpers() {
    QObject owner;
    const int base = threadNice();
    const int nice = std::min(base + 5, 19);
    LatestTask low(&owner, nice);
    LatestTask normal(&owner);
    std::atomic<int> lowSeen{-100};
    std::atomic<int> helpersOff{0};
    low.start([&](const TaskScope&) {
      lowSeen = threadNice();
      mhaviz::parallel_for(64, 4, [&](std::int64_t) {
        QThread::usleep(50);
        if (threadNice() != nice) ++helpersOff;
      });
    });
    QTRY_VERIFY_WITH_TIMEOUT(!low.isBusy(), kTimeout);
    QCOMPARE(lowSeen.load(), nice);
    QCOMPARE(helpersOff.load(), 0);
    // Other tasks' runs, on the pool too, never run at the low task's niceness.
    for (int round = 0; round < 10; ++round) {
      std::atomic<int> seen{-100};
      std::atomic<int> off{0};
      normal.start([&](const TaskScope&) {
        seen = threadNice();
        mhaviz::parallel_for(16, 4, [&](std::int64_t) {
          if (threadNice() != base) ++off;
        });
      });
      QTRY_VERIFY_WITH_TIMEOUT(!normal.isBusy(), kTimeout);
      QCOMPARE(seen.load(), base);
      QCOMPARE(off.load(), 0);
    }
    QCOMPARE(threadNice(), base);
  }
#endif
};

QTEST_GUILESS_MAIN(TestLatestTask)
#include "test_latest_task.moc"
