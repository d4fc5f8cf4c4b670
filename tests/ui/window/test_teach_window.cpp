// Teaching features in the main window: walk-through buttons and arrow keys, the cell breakdown
// on click, the live shape flow, File > Examples (undoable); presentation mode is in
// test_presentation.cpp.

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QToolTip>
#include <QTest>
#include <QUndoStack>
#include <algorithm>
#include <cmath>
#include <utility>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "prompted_window.hpp"
#include "render/heatmap_grid.hpp"
#include "teach/stage_guide.hpp"
#include "teach/teach_docks.hpp"
#include "teach/teaching_tools.hpp"
#include "teaching_window.hpp"
#include "window/main_window.hpp"
#include "window/parameter_panel.hpp"
#include "window/workspace_arrangements.hpp"
#include "window/workspaces.hpp"

using namespace mhaviz::ui;  // NOLINT(google-build-using-namespace): test brevity

Q_DECLARE_METATYPE(mhaviz::ui::Stage)

class TestTeachWindow : public mhaviz::ui::testing::TeachingWindowTest {
  Q_OBJECT

 private slots:
  void initTestCase() { mhaviz::ui::testing::isolateSettings("mhaviz-teach-window-tests"); }

  void init() { QVERIFY(openWindow()); }

  void cleanup() { closeWindow(); }

  // The picture a first start shows: unmodified, and heads a class can tell apart at once
  // (not weights near 1/S everywhere, as random weights on random inputs give).
  void firstPictureShowsHeadsThatDiffer() {
    m_window->showFirstPicture();
    QVERIFY(idle());
    QVERIFY(!m_window->session()->isModified());
    QCOMPARE(m_window->windowTitle(), QStringLiteral("mhaviz"));
    const auto r = document()->computed().result;
    QVERIFY(r != nullptr);
    QCOMPARE(r->H, std::int64_t{4});
    const std::int64_t L = r->L, S = r->Sx;
    const auto w = [&](std::int64_t h, std::int64_t i, std::int64_t j) {
      return r->weights.value((h * L + i) * S + j);
    };
    // The sharpest head is far from uniform (some weight at least 5/S) ...
    double largest = 0;
    for (std::int64_t i = 0; i < L; ++i) {
      for (std::int64_t j = 0; j < S; ++j) largest = std::max(largest, w(0, i, j));
    }
    QVERIFY2(largest >= 5.0 / static_cast<double>(S), qPrintable(QString::number(largest)));
    // ... and the broadest head looks different: some cell differs by more than 0.2.
    double difference = 0;
    for (std::int64_t i = 0; i < L; ++i) {
      for (std::int64_t j = 0; j < S; ++j)
        difference = std::max(difference, std::abs(w(0, i, j) - w(3, i, j)));
    }
    QVERIFY2(difference > 0.2, qPrintable(QString::number(difference)));
  }

  void nextAndPreviousButtonsWalkTheStagesInOrder() {
    setStage(Stage::in_proj_weight);
    const QList<Stage> stages = walkStages(document()->computed().result.get());
    auto* next = m_tools->walkthrough()->nextButton();
    auto* prev = m_tools->walkthrough()->previousButton();
    QVERIFY(next != nullptr && prev != nullptr);
    QVERIFY(!prev->isEnabled());
    for (qsizetype i = 1; i < stages.size(); ++i) {
      QTest::mouseClick(next, Qt::LeftButton);
      QCOMPARE(document()->view().stage, stages[i]);
      // The value norms are drawn when the head measures arrive (after the result).
      QTRY_COMPARE_WITH_TIMEOUT(grid()->view().stage, stages[i], 10000);
      QVERIFY(grid()->mapCount() > 0);
      QVERIFY(m_tools->walkthrough()->codeText() == guideStep(stages[i]).code ||
              stages[i] == Stage::weights);
    }
    QVERIFY(!next->isEnabled());
    for (qsizetype i = stages.size() - 2; i >= 0; --i) {
      QTest::mouseClick(prev, Qt::LeftButton);
      QCOMPARE(document()->view().stage, stages[i]);
    }
  }

  void arrowKeysOnTheGridStep() {
    setStage(Stage::raw_scores);
    grid()->setFocus();
    QTest::keyClick(grid(), Qt::Key_Right);
    QCOMPARE(document()->view().stage, Stage::mask);
    QTest::keyClick(grid(), Qt::Key_Right);
    QCOMPARE(document()->view().stage, Stage::scores);
    QTest::keyClick(grid(), Qt::Key_Left);
    QTest::keyClick(grid(), Qt::Key_Left);
    QCOMPARE(document()->view().stage, Stage::raw_scores);
    QVERIFY(m_tools->walkthrough()->codeText().contains(QStringLiteral("torch.bmm(q_scaled")));
  }

  void clickingACellOpensItsBreakdown() {
    setStage(Stage::weights);
    emit grid()->cellClicked(1, 2, 3);
    const QString html = m_tools->breakdown()->html();
    QVERIFY2(html.contains(QStringLiteral("head 1, query 2, key 3")), qPrintable(html));
    QVERIFY(html.contains(QStringLiteral("softmax")));
    QVERIFY(m_tools->breakdown()->isVisible());
    // The average map (after the H head maps) lists the per-head values.
    emit grid()->cellClicked(static_cast<int>(document()->computed().result->H), 0, 0);
    QVERIFY(m_tools->breakdown()->html().contains(QStringLiteral("Average over heads")));
  }

  void shapeFlowFollowsTheSettings() {
    QTableWidget* table = m_tools->shapeFlow()->table();
    QVERIFY(table->rowCount() > 0);
    mhaviz::Config c = document()->config();
    c.add_bias_kv = true;
    c.add_zero_attn = true;
    document()->changeConfig(c, QStringLiteral("bias and zero"));
    bool s1 = false, s2 = false;
    for (int r = 0; r < table->rowCount(); ++r) {
      s1 = s1 || table->item(r, 2)->text().contains(QStringLiteral("S+1"));
      s2 = s2 || table->item(r, 2)->text().contains(QStringLiteral("S+2"));
    }
    QVERIFY(s1 && s2);
    QVERIFY(idle());
  }

  // Issue 40: the k and v steps said "with bias_k and the zero key" with both options off.
  void theKAndVStepsNameOnlyTheRowsAppended() {
    QSignalSpy shown(m_tools->walkthrough(), &WalkthroughDock::stepShown);
    const auto titleAt = [&](Stage stage) {
      setStage(stage);
      return shown.isEmpty() ? QString() : shown.last().at(0).toString();
    };
    for (const auto& [bias, zero] : {std::pair{false, false}, std::pair{true, false},
                                     std::pair{false, true}, std::pair{true, true}}) {
      mhaviz::Config c = document()->config();
      c.add_bias_kv = bias;
      c.add_zero_attn = zero;
      document()->changeConfig(c, QStringLiteral("bias and zero"));
      QVERIFY(idle());
      const QString k = titleAt(Stage::k);
      const QString v = titleAt(Stage::v);
      QCOMPARE(k.contains(QStringLiteral("bias_k")), bias);
      QCOMPARE(k.contains(QStringLiteral("zero key")), zero);
      QCOMPARE(v.contains(QStringLiteral("bias_v")), bias);
      QCOMPARE(v.contains(QStringLiteral("zero value")), zero);
    }
  }

  void examplesMenuOpensAConfig() {
    auto* menu = m_tools->examplesMenu();
    QVERIFY(menu != nullptr);
    // Six configurations, a separator, then the four bundled models (ModelPages::addExamples).
    QCOMPARE(menu->actions().size(), 6 + 1 + 4);
    const mhaviz::Config before = document()->config();
    for (QAction* a : menu->actions()) {
      if (a->data().toString().contains(QStringLiteral("bias_kv_and_zero_attn"))) a->trigger();
    }
    QVERIFY(document()->config().add_bias_kv);
    QVERIFY(document()->config().add_zero_attn);
    QVERIFY(idle());
    QCOMPARE(document()->computed().result->Sx, document()->computed().result->S + 2);
    QVERIFY(document()->config() != before);
    // Opened as a file is (test_session_window's anExampleOpensAsAFileDoes): nothing to undo.
    QVERIFY(!document()->undoStack()->canUndo());
  }

  // Issue 28 item 14: the add_bias_kv tooltip states what the help page states (the facts
  // themselves are checked against the core in test_teach's biasKHelpSaysItIsAKeyWithoutAQuery).
  void addBiasKvTooltipSaysWhatBiasKIs() {
    auto* box = m_window->panel()->controls().addBiasKv;
    QVERIFY(box != nullptr);
    const QString tip = box->toolTip();
    for (const char* fact : {"at the end", "not prepended", "no query row", "never attends",
                             "\"null\" key", "attention sink"}) {
      QVERIFY2(tip.contains(QLatin1String(fact)), qPrintable(tip));
    }
  }

  // Issue 15 item 1: the colour scale keeps its rule (0..1 for weights) after dock toggles, a
  // splitter drag (a resize of the grid) and leaving presentation mode.
  void colourScaleFollowsItsRuleAfterLayoutChanges() {
    setStage(Stage::weights);
    QVERIFY(idle());
    auto checkScale = [this](const QString& when) {
      // The queued re-render after a resize, a dock toggle or a font change included.
      QVERIFY2(testing::pictureSettled(*grid(), kTimeout), qPrintable(when));
      QCPColorScale* scale = nullptr;
      for (QCPLayoutElement* e : grid()->plot()->plotLayout()->elements(true)) {
        if (auto* s = qobject_cast<QCPColorScale*>(e)) scale = s;
      }
      QVERIFY2(scale != nullptr, qPrintable(when));
      QVERIFY2(scale->dataRange() == QCPRange(0, 1),
               qPrintable(QStringLiteral("%1: colour scale %2..%3")
                              .arg(when)
                              .arg(scale->dataRange().lower)
                              .arg(scale->dataRange().upper)));
    };
    checkScale(QStringLiteral("at the start"));
    for (QDockWidget* dock : {static_cast<QDockWidget*>(m_tools->breakdown()),
                              static_cast<QDockWidget*>(m_tools->shapeFlow())}) {
      QVERIFY(dock != nullptr);
      for (int k = 0; k < 2; ++k) {
        dock->toggleViewAction()->trigger();
        checkScale(QStringLiteral("after toggling %1").arg(dock->objectName()));
      }
    }
    // A splitter drag between a dock and the grid resizes the grid alone.
    grid()->resize(grid()->width() / 2, grid()->height() + 200);
    checkScale(QStringLiteral("after a narrower grid"));
    grid()->resize(grid()->width() * 3, grid()->height() - 300);
    checkScale(QStringLiteral("after a wider grid"));
    m_tools->setPresentation(true);
    checkScale(QStringLiteral("in presentation mode"));
    m_tools->setPresentation(false);
    checkScale(QStringLiteral("after leaving presentation mode"));
  }

  // Issue 15 item 4: in_proj_weight with 8 heads is W_q | W_k | W_v in three columns, one row
  // per head, every map readable (the grid scrolls rather than shrinks), no title clipped.
  void manyParameterMapsStayReadableAndGrouped() {
    m_window->resize(1600, 1000);
    mhaviz::Config c = document()->config();
    c.embed_dim = 64;
    c.num_heads = 8;
    document()->changeConfig(c, QStringLiteral("8 heads"));
    QVERIFY(idle());
    setStage(Stage::in_proj_weight);
    QVERIFY(idle());
    QVERIFY(testing::pictureSettled(*grid(), kTimeout));
    QCOMPARE(grid()->mapCount(), 24);
    const QStringList titles = grid()->mapTitles();
    QCustomPlot* plot = grid()->plot();
    auto rectOf = [plot](int map) { return plot->plottable(map)->keyAxis()->axisRect(); };
    for (int h = 0; h < 8; ++h) {
      QVERIFY(titles.at(h).startsWith(QStringLiteral("W_q")));
      QVERIFY(titles.at(8 + h).startsWith(QStringLiteral("W_k")));
      QVERIFY(titles.at(16 + h).startsWith(QStringLiteral("W_v")));
      // Head h: one row, W_q then W_k then W_v from left to right.
      const QRect q = rectOf(h)->rect(), k = rectOf(8 + h)->rect(), v = rectOf(16 + h)->rect();
      QCOMPARE(k.top(), q.top());
      QCOMPARE(v.top(), q.top());
      QVERIFY(q.right() < k.left() && k.right() < v.left());
      if (h > 0) QVERIFY(q.top() > rectOf(h - 1)->rect().bottom());
    }
    for (int i = 0; i < 24; ++i) {
      const QRect r = rectOf(i)->rect();
      QVERIFY2(
          r.height() >= 60,
          qPrintable(QStringLiteral("map %1 is %2x%3 px").arg(i).arg(r.width()).arg(r.height())));
    }
    // Issue 28 item 13: no title line is wider than its map, and no title is cut: a long one
    // wraps onto more lines.
    for (int i = 0; i < 24; ++i) {
      const QString shown = grid()->shownMapTitle(i);
      QFont font = plot->font();
      font.setBold(true);
      const QRect titleRect = rectOf(i)->outerRect();
      for (const QString& line : shown.split(QLatin1Char('\n'))) {
        const int width = QFontMetrics(font).horizontalAdvance(line);
        QVERIFY2(width <= titleRect.width(),
                 qPrintable(QStringLiteral("'%1' is %2 px over a %3 px map")
                                .arg(line)
                                .arg(width)
                                .arg(titleRect.width())));
      }
      QCOMPARE(grid()->mapTitleToolTip(i), titles.at(i));
      QVERIFY2(!shown.contains(QChar(0x2026)), qPrintable(shown));
      QCOMPARE(shown.split(QLatin1Char('\n')).join(QLatin1Char(' ')), titles.at(i));
    }
  }
};

QTEST_MAIN(TestTeachWindow)
#include "test_teach_window.moc"
