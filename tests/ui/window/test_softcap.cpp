// The attention logit soft-cap in the window: a stage of its own, a row of the cell breakdown,
// gone with the cap, refused inline when <= 0. (The mask patterns of current practice, which
// were tested beside it, are tested in tests/ui/editors/test_mask_patterns.cpp.)

#include <QTest>
#include <cmath>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "mhaviz/core/gen/masks.hpp"
#include "prompted_window.hpp"
#include "stages/view_options.hpp"
#include "teach/cell_breakdown.hpp"
#include "teach/stage_guide.hpp"
#include "window/main_window.hpp"

using mhaviz::gen::MaskKind;
using mhaviz::ui::Computation;
using mhaviz::ui::Document;
using mhaviz::ui::MainWindow;
using mhaviz::ui::Stage;

namespace {
constexpr int kTimeout = 30000;
}  // namespace

class TestSoftCap : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { mhaviz::ui::testing::isolateSettings("mhaviz-softcap-tests"); }

  void init() {
    m_window = new MainWindow;
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(idle());
    // A known starting point: L = S = 8, one batch element, two heads, no mask.
    mhaviz::Config c;
    c.tgt_len = 8;
    c.src_len = 8;
    document()->changeConfig(c, QStringLiteral("test"));
    QVERIFY(idle());
  }

  void cleanup() {
    delete m_window;
    m_window = nullptr;
  }

  void softCapIsAStageAndABreakdownRow() {
    mhaviz::Config c = document()->config();
    c.attn_logit_softcapping = 0.5;
    c.attn_mask_spec.kind = MaskKind::causal;
    document()->changeConfig(c, QStringLiteral("test"));
    QVERIFY(idle());
    const auto r = computation()->result();
    QVERIFY(r->has_capped_scores());
    QVERIFY(mhaviz::ui::stageIn(Stage::capped_scores, *r));
    QVERIFY(mhaviz::ui::walkStages(r.get()).contains(Stage::capped_scores));
    mhaviz::ui::ViewOptions view = document()->view();
    view.stage = Stage::capped_scores;
    document()->setView(view);
    QCOMPARE(document()->view().stage, Stage::capped_scores);
    const mhaviz::ui::CellBreakdown b = mhaviz::ui::breakdownCell(*r, 0, 1, 5, 2);
    QVERIFY(b.capped);
    QCOMPARE(b.cap, 0.5);
    QVERIFY(std::abs(b.cappedStored) < 0.5);
    QVERIFY(mhaviz::ui::agrees(b.cappedRecomputed, b.cappedStored, b.tolerance));
    QVERIFY(mhaviz::ui::agrees(b.scoreRecomputed, b.scoreStored, b.tolerance));
    QVERIFY(mhaviz::ui::breakdownHtml(b).contains(QStringLiteral("tanh")));
    // Without the cap the stage is gone and the view falls back to the raw scores.
    c.attn_logit_softcapping.reset();
    document()->changeConfig(c, QStringLiteral("test"));
    QVERIFY(idle());
    QVERIFY(!computation()->result()->has_capped_scores());
    QVERIFY(!mhaviz::ui::walkStages(computation()->result().get()).contains(Stage::capped_scores));
    QCOMPARE(document()->view().stage, Stage::raw_scores);
    // A cap <= 0 is refused inline.
    c.attn_logit_softcapping = -1.0;
    document()->changeConfig(c, QStringLiteral("test"));
    QVERIFY(idle());
    QVERIFY2(computation()->error().contains(QStringLiteral("attn_logit_softcapping")),
             qPrintable(computation()->error()));
  }

 private:
  [[nodiscard]] Document* document() const { return m_window->document(); }
  [[nodiscard]] Computation* computation() const { return m_window->computation(); }
  [[nodiscard]] bool idle() const {
    const bool done = QTest::qWaitFor([this] { return !computation()->isBusy(); }, kTimeout);
    QCoreApplication::processEvents();
    return done;
  }

  MainWindow* m_window = nullptr;
};

QTEST_MAIN(TestSoftCap)
#include "test_softcap.moc"
