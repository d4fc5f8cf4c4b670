// The patterns of current practice in the window: their controls in the mask editor reach the
// result through the real compute worker; impossible settings give the core's message inline;
// the block-sparsity summary and grid follow the result; the soft-cap is a stage of its own and
// a row of the cell breakdown.

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>
#include <cmath>
#include <limits>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "editors/attn_mask_editor.hpp"
#include "editors/block_sparsity_view.hpp"
#include "editors/mask_grid_view.hpp"
#include "mhaviz/core/forward/derived_maps.hpp"
#include "mhaviz/core/gen/masks.hpp"
#include "prompted_window.hpp"
#include "stages/view_options.hpp"
#include "teach/cell_breakdown.hpp"
#include "teach/stage_guide.hpp"
#include "window/main_window.hpp"
#include "window/parameter_panel.hpp"

using mhaviz::gen::MaskKind;
using mhaviz::ui::Computation;
using mhaviz::ui::Document;
using mhaviz::ui::MainWindow;
using mhaviz::ui::Stage;

namespace {
constexpr int kTimeout = 30000;
constexpr double kInf = std::numeric_limits<double>::infinity();

double maskAt(const mhaviz::ForwardResult& r, std::int64_t h, std::int64_t i, std::int64_t j) {
  return mhaviz::derived_value(r, mhaviz::DerivedMap::mask, 0, h, i, j);
}
}  // namespace

class TestMaskPatterns : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { mhaviz::ui::testing::isolateSettings("mhaviz-mask-pattern-tests"); }

  void init() {
    m_window = new MainWindow;
    m_window->resize(1400, 900);
    m_window->show();
    dock()->raise();
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

  void prefixLengthSpinReachesTheResult() {
    chooseKind(MaskKind::prefix_lm);
    QVERIFY(idle());
    spin("maskPrefixLength")->setValue(3);
    QVERIFY(idle());
    QCOMPARE(document()->config().attn_mask_spec.prefix_length, 3);
    const auto r = computation()->result();
    QVERIFY2(computation()->error().isEmpty(), qPrintable(computation()->error()));
    QCOMPARE(maskAt(*r, 0, 0, 2), 0.0);    // inside the prefix: bidirectional
    QCOMPARE(maskAt(*r, 0, 0, 3), -kInf);  // past it, for an earlier query
    QCOMPARE(maskAt(*r, 1, 5, 4), 0.0);    // causal after the prefix
    QCOMPARE(maskAt(*r, 1, 5, 6), -kInf);
    QVERIFY(!spin("maskPrefixLength")->isHidden());
    QVERIFY(spin("maskDilation")->isHidden());
  }

  void documentLengthsAreEditedAndBadOnesShowInline() {
    chooseKind(MaskKind::document);
    QVERIFY(idle());
    // The kind starts as two halves of the sequence.
    QCOMPARE(document()->config().attn_mask_spec.document_lengths,
             (std::vector<std::int64_t>{4, 4}));
    QVERIFY2(computation()->error().isEmpty(), qPrintable(computation()->error()));
    auto* lengths = dock()->findChild<QLineEdit*>(QStringLiteral("maskDocumentLengths"));
    QVERIFY(lengths != nullptr);
    lengths->setText(QStringLiteral("3 5"));
    emit lengths->editingFinished();
    QVERIFY(idle());
    QCOMPARE(document()->config().attn_mask_spec.document_lengths,
             (std::vector<std::int64_t>{3, 5}));
    auto r = computation()->result();
    QCOMPARE(maskAt(*r, 0, 2, 3), -kInf);  // across documents
    QCOMPARE(maskAt(*r, 0, 4, 7), 0.0);    // inside the second (not causal)
    // Lengths that do not add up to L: the core's message, inline; the picture is kept.
    lengths->setText(QStringLiteral("3 4"));
    emit lengths->editingFinished();
    QVERIFY(idle());
    const QString error = computation()->error();
    QVERIFY2(error.contains(QStringLiteral("attn_mask.document_lengths sum to 7")),
             qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("add up to 8")), qPrintable(error));
    QCOMPARE(computation()->result()->config.attn_mask_spec.document_lengths,
             (std::vector<std::int64_t>{3, 5}));
    // The preview grid says it too, instead of a picture.
    QVERIFY(editor()->grid()->message().contains(QStringLiteral("document_lengths")));
  }

  void dilatedAndSinkControls() {
    chooseKind(MaskKind::dilated);
    QVERIFY(idle());
    spin("maskDilation")->setValue(3);
    spin("maskWidth")->setValue(2);
    QVERIFY(idle());
    auto r = computation()->result();
    QCOMPARE(maskAt(*r, 0, 4, 1), 0.0);    // distance 3 = 1 * d
    QCOMPARE(maskAt(*r, 0, 4, 7), 0.0);    // not causal: both sides
    QCOMPARE(maskAt(*r, 0, 4, 2), -kInf);  // distance 2
    QCOMPARE(maskAt(*r, 0, 7, 1), -kInf);  // distance 6 = 2 * d, past the width
    chooseKind(MaskKind::sink);
    QVERIFY(idle());
    spin("maskSinkTokens")->setValue(1);
    QVERIFY(idle());
    r = computation()->result();
    QCOMPARE(maskAt(*r, 0, 7, 0), 0.0);    // the sink
    QCOMPARE(maskAt(*r, 0, 7, 1), -kInf);  // neither sink nor window (width 2)
    QCOMPARE(maskAt(*r, 0, 7, 6), 0.0);
    QCOMPARE(maskAt(*r, 0, 2, 3), -kInf);  // causal
  }

  void blockSparsityFollowsTheResult() {
    mhaviz::Config c = document()->config();
    c.tgt_len = 200;
    c.src_len = 200;
    c.attn_mask_spec.kind = MaskKind::causal;
    document()->changeConfig(c, QStringLiteral("test"));
    QVERIFY(idle());
    auto* view = editor()->blockSparsity();
    // 200 x 200 causal: blocks of 64 -> 4 x 4 with 6 above the diagonal fully masked;
    // blocks of 128 -> 2 x 2 with 1.
    const auto r = computation()->result();
    const auto analyses = computation()->analyses();  // held beside the result
    const auto& sparsity = analyses->block_sparsity;
    QCOMPARE(sparsity.size(), std::size_t{2});
    QCOMPARE(sparsity[0].fully_masked, 6 * r->H);
    QCOMPARE(sparsity[1].fully_masked, r->H);
    QVERIFY2(view->summaryText().contains(QStringLiteral("6 of 16")) ||
                 view->summaryText().contains(QStringLiteral("12 of 32")),
             qPrintable(view->summaryText()));
    QVERIFY2(view->summaryText().contains(QStringLiteral("37.5%")),
             qPrintable(view->summaryText()));
    // add_zero_attn adds a key no mask covers: no block of its last column is skipped.
    c.add_zero_attn = true;
    document()->changeConfig(c, QStringLiteral("test"));
    QVERIFY(idle());
    QCOMPARE(computation()->analyses()->block_sparsity[0].cols, 4);  // 201 keys
    QVERIFY(!computation()->analyses()->block_sparsity[0].is_full(0, 0, 3));
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
  [[nodiscard]] QDockWidget* dock() const {
    QDockWidget* d = m_window->maskDock();
    if (d == nullptr) qFatal("no mask dock");
    return d;
  }
  [[nodiscard]] mhaviz::ui::AttnMaskEditor* editor() const {
    return dock()->findChild<mhaviz::ui::AttnMaskEditor*>();
  }
  [[nodiscard]] QSpinBox* spin(const char* name) const {
    auto* s = dock()->findChild<QSpinBox*>(QString::fromLatin1(name));
    if (s == nullptr) qFatal("no spin box %s", name);
    return s;
  }
  void chooseKind(MaskKind kind) const {
    auto* combo = dock()->findChild<QComboBox*>(QStringLiteral("attnMaskKind"));
    const int index = combo->findData(static_cast<int>(kind));
    combo->setCurrentIndex(index);
    emit combo->activated(index);
  }
  [[nodiscard]] bool idle() const {
    const bool done = QTest::qWaitFor([this] { return !computation()->isBusy(); }, kTimeout);
    QCoreApplication::processEvents();
    return done;
  }

  MainWindow* m_window = nullptr;
};

QTEST_MAIN(TestMaskPatterns)
#include "test_mask_patterns.moc"
