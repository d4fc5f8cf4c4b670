// LatestTask: the newest run wins, waiting runs are skipped, outdated posts are dropped, every
// run's end is reported after its posts, nothing is delivered once the task is gone and what
// was not delivered is freed with it.

#include <QCoreApplication>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <atomic>
#include <memory>

#include "tasks/latest_task.hpp"

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
};

QTEST_GUILESS_MAIN(TestLatestTask)
#include "test_latest_task.moc"
