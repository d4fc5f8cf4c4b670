// Computation over a Document, without a window: what it writes into the document
// (Document::computed) and announces, in the order things happen; a bad setting's error with the
// last picture kept, out of date, and the measures it made stale; a long computation marked out
// of date while it runs; cancel; the pass off the GUI thread.

#include <QCoreApplication>
#include <QTest>
#include <QThread>
#include <atomic>

#include "../document/announced.hpp"
#include "compute/computation.hpp"
#include "document/document.hpp"
#include "worker_gate.hpp"

using mhaviz::ui::Computation;
using mhaviz::ui::Document;
using mhaviz::ui::ResultPtr;
using mhaviz::ui::testing::Announced;
using mhaviz::ui::testing::WorkerGate;
using Change = mhaviz::ui::Document::Change;

namespace {

constexpr int kTimeout = 30000;

mhaviz::Config withHeads(mhaviz::Config c, std::int64_t heads) {
  c.num_heads = heads;
  return c;
}

/// Four batch elements of 1024 x 1024 over 8 heads: long enough to be held, cancelled, marked.
mhaviz::Config big(mhaviz::Config c) {
  c.tgt_len = 1024;
  c.src_len = 1024;
  c.batch_size = 4;
  c.num_heads = 8;
  c.embed_dim = 64;
  return c;
}

}  // namespace

class TestComputation : public QObject {
  Q_OBJECT

  /// Waits until everything submitted so far is done (results, measures) and the events are in.
  [[nodiscard]] bool idle() const {
    const bool done = QTest::qWaitFor(
        [this] { return !m_doc->computed().busy && !m_doc->computed().measuring; }, kTimeout);
    QCoreApplication::processEvents();
    return done;
  }

  std::unique_ptr<Document> m_doc;
  std::unique_ptr<Computation> m_computation;

 private slots:
  void init() {
    m_doc = std::make_unique<Document>();
    m_computation = std::make_unique<Computation>(m_doc.get());
    m_computation->recompute();
    QVERIFY(idle());
    QVERIFY(m_doc->computed().result != nullptr);
  }
  void cleanup() {
    m_computation.reset();
    m_doc.reset();
  }

  void aChangeIsAnnouncedInTheOrderItHappens() {
    const Announced all(m_doc.get(), Change::result | Change::measures | Change::error |
                                         Change::outOfDate | Change::busy | Change::reduced);
    m_doc->changeConfig(withHeads(m_doc->config(), 4), QStringLiteral("Set num_heads to 4"));
    QVERIFY(idle());
    // Busy from the submission; idle again before the result arrives, which is up to date when
    // it is announced; its measures follow, the result unchanged. Nothing else is said.
    QCOMPARE(all.changes, (QList<Document::Changes>{Change::busy, Change::busy, Change::outOfDate,
                                                    Change::result, Change::measures}));
    QCOMPARE(all.busy, (QList<bool>{true, false, false, false, false}));
    QCOMPARE(all.outOfDate, (QList<bool>{false, false, false, false, false}));
    QCOMPARE(all.results.at(1), all.results.at(0));   // the result before, while it computes
    QVERIFY(all.results.at(2) != all.results.at(0));  // the new one, up to date
    QCOMPARE(all.results.at(2)->H, 4);
    QCOMPARE(all.results.at(3), all.results.at(2));
    QCOMPARE(all.results.at(4), all.results.at(2));
    QVERIFY(all.analyses.at(3)->measures == nullptr);  // the measures come after the picture
    QVERIFY(m_doc->computed().measures() != nullptr);
    QVERIFY(m_doc->computed().computeMs > 0.0);
    QCOMPARE(m_doc->computed().bytes(),
             m_doc->computed().result->bytes() + m_doc->computed().analyses->bytes());
  }

  void aBadSettingIsTheErrorAndKeepsTheLastPictureOutOfDate() {
    const ResultPtr good = m_doc->computed().result;
    const Announced said(m_doc.get(), Change::error | Change::outOfDate | Change::busy);
    mhaviz::Config bad = m_doc->config();
    bad.embed_dim = 10;
    bad.num_heads = 4;
    m_doc->changeConfig(bad, QStringLiteral("Set embed_dim to 10"));
    // Checked at once on the GUI thread: nothing is submitted.
    QCOMPARE(said.changes, (QList<Document::Changes>{Change::error, Change::outOfDate}));
    const QString error = m_doc->computed().error;
    QVERIFY2(error.contains(QStringLiteral("embed_dim must be divisible by num_heads")),
             qPrintable(error));
    QCOMPARE(m_doc->computed().result, good);
    QVERIFY(m_doc->computed().outOfDate);
    QCOMPARE(m_doc->computed().outOfDateReason, error);
    QVERIFY(!m_doc->computed().busy);

    bad.embed_dim = 12;
    m_doc->changeConfig(bad, QStringLiteral("Set embed_dim to 12"));
    QVERIFY(idle());
    QVERIFY(m_doc->computed().error.isEmpty());
    QVERIFY(!m_doc->computed().outOfDate);
    QCOMPARE(m_doc->computed().result->E, 12);
  }

  // A bad setting while the measures of the result before are still to come: they are stale,
  // and nothing waits for them (the value norms stage would wait for ever).
  void aBadSettingEndsTheWaitForTheMeasures() {
    m_computation->worker()->holdMeasures();
    m_doc->changeConfig(withHeads(m_doc->config(), 4), QStringLiteral("Set num_heads to 4"));
    QTRY_VERIFY_WITH_TIMEOUT(!m_doc->computed().busy, kTimeout);
    QCOMPARE(m_doc->computed().result->H, 4);
    QVERIFY(m_doc->computed().measuring);
    const Announced measures(m_doc.get(), Change::measures);
    mhaviz::Config bad = m_doc->config();
    bad.embed_dim = 10;
    m_doc->changeConfig(bad, QStringLiteral("Set embed_dim to 10"));
    QVERIFY(!m_doc->computed().error.isEmpty());
    QVERIFY(!m_doc->computed().measuring);
    const ResultPtr stale = m_doc->computed().result;
    m_computation->worker()->resumeMeasures();
    QVERIFY(m_doc->computed().measures() == nullptr);
    // Anything of the stale result's would arrive before the next result's measures: only
    // those are announced.
    bad.embed_dim = 16;
    m_doc->changeConfig(bad, QStringLiteral("Set embed_dim to 16"));
    QVERIFY(idle());
    QCOMPARE(measures.count(), 1);
    QVERIFY(measures.results.first() != stale);
    QCOMPARE(measures.results.first(), m_doc->computed().result);
  }

  // Issue 40 defect 8: during a long computation the previous result's maps stayed up with
  // nothing saying they were out of date. After a moment they are marked, until the result.
  void aLongComputationMarksThePictureOutOfDate() {
    QVERIFY(!m_doc->computed().outOfDate);
    {
      WorkerGate gate(m_computation->worker());
      m_doc->changeConfig(withHeads(m_doc->config(), 8), QStringLiteral("Set num_heads to 8"));
      QVERIFY(gate.waitUntilHeld(kTimeout) != 0);
      QTRY_VERIFY_WITH_TIMEOUT(m_doc->computed().outOfDate, kTimeout);
      QVERIFY(!m_doc->computed().outOfDateReason.isEmpty());
      gate.release();
      QVERIFY(idle());
    }
    QVERIFY(!m_doc->computed().outOfDate);
    QCOMPARE(m_doc->computed().result->H, 8);
  }

  void cancelStopsALongComputation() {
    const Announced results(m_doc.get(), Change::result);
    const Announced busy(m_doc.get(), Change::busy);
    // Cancelled while it runs: the computation is held at its start until the cancel is in.
    WorkerGate gate(m_computation->worker());
    m_doc->changeConfig(big(m_doc->config()), QStringLiteral("big"));
    QVERIFY(m_doc->computed().busy);
    QVERIFY(gate.waitUntilHeld(kTimeout) != 0);
    m_computation->cancel();
    gate.release();
    QTRY_VERIFY_WITH_TIMEOUT(!m_doc->computed().busy, kTimeout);
    QCOMPARE(busy.busy, (QList<bool>{true, false}));
    QCOMPARE(results.count(), 0);
    QVERIFY(m_doc->computed().outOfDate);
    QVERIFY(m_doc->computed().result->L != 1024);  // the earlier picture stays
  }

  void theWorkerComputesOffTheGuiThread() {
    std::atomic<QThread*> seen{nullptr};
    connect(
        m_computation->worker(), &mhaviz::ui::ComputeWorker::started, this,
        [&seen](quint64) { seen.store(QThread::currentThread()); }, Qt::DirectConnection);
    m_doc->changeConfig(withHeads(m_doc->config(), 8), QStringLiteral("Set num_heads to 8"));
    QVERIFY(idle());
    QVERIFY(seen.load() != nullptr);
    QVERIFY(seen.load() != QCoreApplication::instance()->thread());
  }
};

QTEST_GUILESS_MAIN(TestComputation)
#include "test_computation.moc"
