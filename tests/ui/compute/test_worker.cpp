// ComputeWorker: generations, coalescing, cancellation, errors, thread affinity.

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTest>
#include <QThread>
#include <atomic>

#include "compute/compute_worker.hpp"
#include "worker_gate.hpp"

using mhaviz::ui::AnalysesPtr;
using mhaviz::ui::ComputeRequest;
using mhaviz::ui::ComputeWorker;
using mhaviz::ui::ResultPtr;
using mhaviz::ui::testing::WorkerGate;

namespace {

ComputeRequest request(quint64 generation, std::int64_t L, std::int64_t S = 8) {
  ComputeRequest r;
  r.generation = generation;
  r.config.tgt_len = L;
  r.config.src_len = S;
  return r;
}

/// Big enough that every (batch, head) block takes a while: 4 * 8 blocks of 1024 x 1024.
ComputeRequest longRequest(quint64 generation) {
  ComputeRequest r = request(generation, 1024, 1024);
  r.config.batch_size = 4;
  r.config.num_heads = 8;
  r.config.embed_dim = 64;
  return r;
}

/// What the worker reported, recorded on the GUI thread (queued connections), so that the test
/// reads it without racing the worker thread. (QSignalSpy records on the emitting thread.)
struct Record {
  QList<quint64> started, cancelled, failed, results, measured;
  QStringList messages;
  QList<ResultPtr> resultPtrs;
  QList<double> computeMs;
  QList<qint64> arrivedNs;  // clock time at which each result reached the GUI thread
  int progress = 0;
  QElapsedTimer clock;
};

void record(ComputeWorker* worker, QObject* context, Record& r) {
  QObject::connect(worker, &ComputeWorker::started, context,
                   [&r](quint64 g) { r.started.append(g); });
  QObject::connect(worker, &ComputeWorker::cancelled, context,
                   [&r](quint64 g) { r.cancelled.append(g); });
  QObject::connect(worker, &ComputeWorker::failed, context, [&r](quint64 g, const QString& m) {
    r.failed.append(g);
    r.messages.append(m);
  });
  QObject::connect(worker, &ComputeWorker::resultReady, context,
                   [&r](quint64 g, const ResultPtr& result, const AnalysesPtr&, double ms) {
                     r.results.append(g);
                     r.resultPtrs.append(result);
                     r.computeMs.append(ms);
                     r.arrivedNs.append(r.clock.nsecsElapsed());
                   });
  QObject::connect(worker, &ComputeWorker::measuresReady, context,
                   [&r](quint64 g, const AnalysesPtr&) { r.measured.append(g); });
  QObject::connect(worker, &ComputeWorker::progress, context,
                   [&r](quint64, qint64, qint64) { ++r.progress; });
}

constexpr int kTimeout = 60000;

}  // namespace

class TestWorker : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    m_worker = new ComputeWorker;
    m_record = Record{};
    m_record.clock.start();
    m_context = new QObject;
    record(m_worker, m_context, m_record);
  }
  void cleanup() {
    delete m_worker;
    m_worker = nullptr;
    delete m_context;
    m_context = nullptr;
  }

  void resultCarriesGenerationAndConfig() {
    const qint64 submittedNs = m_record.clock.nsecsElapsed();
    m_worker->submit(request(7, 5, 6));
    QTRY_COMPARE_WITH_TIMEOUT(m_record.results.size(), 1, kTimeout);
    QCOMPARE(m_record.results.at(0), quint64{7});
    const ResultPtr result = m_record.resultPtrs.at(0);
    QVERIFY(result != nullptr);
    QCOMPARE(result->L, 5);
    QCOMPARE(result->S, 6);
    QCOMPARE(result->H, 2);
    // The computation's own time, in milliseconds: it took some time, and no more than passed
    // between the submission and the result's arrival.
    const double ms = m_record.computeMs.at(0);
    const double waitedMs = static_cast<double>(m_record.arrivedNs.at(0) - submittedNs) / 1e6;
    QVERIFY2(ms > 0.0 && ms <= waitedMs,
             qPrintable(QStringLiteral("computeMs %1, waited %2 ms").arg(ms).arg(waitedMs)));
    QCOMPARE(m_record.started, QList<quint64>{7});
  }

  void forwardRunsOnTheWorkerThread() {
    std::atomic<QThread*> seen{nullptr};
    // Direct connection: the lambda runs on the thread that emits, i.e. inside the computation.
    connect(
        m_worker, &ComputeWorker::started, m_context,
        [&seen](quint64) { seen.store(QThread::currentThread()); }, Qt::DirectConnection);
    m_worker->submit(request(1, 4));
    QTRY_COMPARE_WITH_TIMEOUT(m_record.results.size(), 1, kTimeout);
    QVERIFY(seen.load() != nullptr);
    QVERIFY(seen.load() != QCoreApplication::instance()->thread());
  }

  void onlyTheNewestWaitingRequestIsComputed() {
    ComputeWorker* worker = m_worker;
    // Hold a first computation at its start so that all requests below arrive while it runs.
    WorkerGate gate(worker);
    worker->submit(request(100, 2));
    QCOMPARE(gate.waitUntilHeld(kTimeout), quint64{100});
    for (quint64 g = 1; g <= 20; ++g) worker->submit(request(g, static_cast<std::int64_t>(g)));
    gate.release();
    // Every request ends, each exactly once: the held one and 1..19 cancelled, 20 computed.
    QTRY_COMPARE_WITH_TIMEOUT(m_record.results.size() + m_record.cancelled.size(), 21, kTimeout);
    QCOMPARE(m_record.started, (QList<quint64>{100, 20}));
    QCOMPARE(m_record.results, QList<quint64>{20});
    QCOMPARE(m_record.resultPtrs.at(0)->L, 20);
  }

  void newerRequestAbandonsTheRunningOne() {
    ComputeWorker* worker = m_worker;
    // The long request is held at its start (it is the running one); a newer request arrives
    // then, and the long one must give up instead of delivering.
    WorkerGate gate(worker);
    worker->submit(longRequest(1));
    QCOMPARE(gate.waitUntilHeld(kTimeout), quint64{1});
    worker->submit(request(2, 3));
    gate.release();
    QTRY_COMPARE_WITH_TIMEOUT(m_record.results.size(), 1, kTimeout);
    QCOMPARE(m_record.cancelled, QList<quint64>{1});
    QCOMPARE(m_record.results, QList<quint64>{2});
    QCOMPARE(m_record.started, (QList<quint64>{1, 2}));
  }

  void cancelStopsALongComputation() {
    ComputeWorker* worker = m_worker;
    // Cancelled while it runs (held at its start): it reports `cancelled` and computes no block.
    WorkerGate gate(worker);
    worker->submit(longRequest(5));
    QCOMPARE(gate.waitUntilHeld(kTimeout), quint64{5});
    worker->cancelAll();
    gate.release();
    QTRY_COMPARE_WITH_TIMEOUT(m_record.cancelled.size(), 1, kTimeout);
    QCOMPARE(m_record.cancelled.at(0), quint64{5});
    // A job's reports arrive in the order they were made, all before its `cancelled`.
    QVERIFY(m_record.results.isEmpty());
    QVERIFY(m_record.failed.isEmpty());
    QCOMPARE(m_record.progress, 0);
  }

  void cancelledWaitingRequestStillReportsItsEnd() {
    ComputeWorker* worker = m_worker;
    WorkerGate gate(worker);  // a running computation, so that request 9 waits
    worker->submit(request(8, 4));
    QCOMPARE(gate.waitUntilHeld(kTimeout), quint64{8});
    worker->submit(request(9, 4));
    worker->cancelAll();
    gate.release();
    QTRY_COMPARE_WITH_TIMEOUT(m_record.cancelled.size(), 2, kTimeout);
    QVERIFY(m_record.cancelled.contains(quint64{9}));
    QCOMPARE(m_record.started, QList<quint64>{8});
    QVERIFY(m_record.results.isEmpty());
  }

  void invalidInputArrivesAsAMessage() {
    ComputeRequest r = request(3, 4);
    r.config.embed_dim = 10;
    r.config.num_heads = 4;
    m_worker->submit(r);
    QTRY_COMPARE_WITH_TIMEOUT(m_record.failed.size(), 1, kTimeout);
    QCOMPARE(m_record.failed.at(0), quint64{3});
    const QString message = m_record.messages.at(0);
    QVERIFY2(message.startsWith(QStringLiteral("embed_dim must be divisible by num_heads")),
             qPrintable(message));
    QVERIFY(m_record.results.isEmpty());
  }

  // A model being opened holds the session's head measures back (they would share the cores
  // with it); resumed, the newest result's measures arrive, an older held one's never do.
  void heldMeasuresBeginWhenResumed() {
    m_worker->holdMeasures();
    m_worker->submit(request(1, 16, 16));
    QTRY_COMPARE_WITH_TIMEOUT(m_record.results.size(), 1, kTimeout);
    m_worker->submit(request(2, 12, 12));
    QTRY_COMPARE_WITH_TIMEOUT(m_record.results.size(), 2, kTimeout);
    QTest::qWait(200);  // measures of 16 tokens take well under a millisecond: none may come
    QVERIFY(m_record.measured.isEmpty());
    m_worker->resumeMeasures();
    QTRY_COMPARE_WITH_TIMEOUT(m_record.measured, QList<quint64>{2}, kTimeout);
    // Not held any more: the next result's measures follow it as always.
    m_worker->submit(request(3, 8, 8));
    QTRY_COMPARE_WITH_TIMEOUT(m_record.measured, (QList<quint64>{2, 3}), kTimeout);
  }

  void measuresRunningWhenHeldStopAndStartAgainWhenResumed() {
    ComputeRequest big = request(1, 384, 384);
    big.config.num_heads = 8;
    big.config.embed_dim = 256;
    m_worker->submit(big);
    QTRY_COMPARE_WITH_TIMEOUT(m_record.results.size(), 1, kTimeout);
    m_worker->holdMeasures();  // the measures (value zeroing of 384 tokens) have just begun
    QVERIFY(m_record.measured.isEmpty());
    QTest::qWait(1000);  // ten times what they take unheld on two cores (under ASan too)
    QVERIFY(m_record.measured.isEmpty());
    m_worker->resumeMeasures();
    QTRY_COMPARE_WITH_TIMEOUT(m_record.measured, QList<quint64>{1}, kTimeout);
  }

  void overTheMemoryLimitIsRefusedWithTheEstimate() {
    m_worker->setMemoryLimit(1024);
    m_worker->submit(request(4, 64, 64));
    QTRY_COMPARE_WITH_TIMEOUT(m_record.failed.size(), 1, kTimeout);
    const QString message = m_record.messages.at(0);
    QVERIFY2(message.contains(QStringLiteral("limit")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("KiB")) || message.contains(QStringLiteral("MiB")),
             qPrintable(message));
    QVERIFY(m_record.results.isEmpty());
  }

 private:
  ComputeWorker* m_worker = nullptr;
  QObject* m_context = nullptr;  // receiver of the recording connections (GUI thread)
  Record m_record;
};

QTEST_GUILESS_MAIN(TestWorker)
#include "test_worker.moc"
