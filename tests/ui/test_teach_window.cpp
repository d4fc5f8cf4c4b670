// Teaching features in the main window: walk-through buttons and arrow keys, the cell breakdown
// on click, the live shape flow, File > Examples (undoable) and presentation mode (F11).

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>
#include <algorithm>
#include <cmath>

#include "compute/compute_controller.hpp"
#include "prompted_window.hpp"
#include "render/heatmap_grid.hpp"
#include "teach/stage_guide.hpp"
#include "teach/teach_docks.hpp"
#include "teach/teaching_tools.hpp"
#include "window/main_window.hpp"

using namespace mhaviz::ui;  // NOLINT(google-build-using-namespace): test brevity

namespace {
constexpr int kTimeout = 30000;
}

class TestTeachWindow : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { mhaviz::ui::testing::isolateSettings("mhaviz-teach-window-tests"); }

  void init() {
    m_window = new MainWindow;
    m_window->resize(1200, 800);
    m_window->show();
    QVERIFY(idle());
    QVERIFY(controller()->result() != nullptr);
    m_tools = m_window->findChild<TeachingTools*>(QStringLiteral("teachingTools"));
    QVERIFY(m_tools != nullptr);
  }

  void cleanup() {
    delete m_window;
    m_window = nullptr;
  }

  // The picture a first start shows: unmodified, and heads a class can tell apart at once
  // (not weights near 1/S everywhere, as random weights on random inputs give).
  void firstPictureShowsHeadsThatDiffer() {
    m_window->showFirstPicture();
    QVERIFY(idle());
    QVERIFY(!m_window->document()->isModified());
    QCOMPARE(m_window->windowTitle(), QStringLiteral("mhaviz"));
    const auto r = controller()->result();
    QVERIFY(r != nullptr);
    QCOMPARE(r->H, std::int64_t{4});
    const std::int64_t L = r->L, S = r->Sx;
    const auto w = [&](std::int64_t h, std::int64_t i, std::int64_t j) {
      return r->weights.value((h * L + i) * S + j);
    };
    // Every head has rows far from uniform: its largest weight is at least 3/S.
    for (std::int64_t h = 0; h < r->H; ++h) {
      double largest = 0;
      for (std::int64_t i = 0; i < L; ++i) {
        for (std::int64_t j = 0; j < S; ++j) largest = std::max(largest, w(h, i, j));
      }
      QVERIFY2(largest >= 3.0 / static_cast<double>(S), qPrintable(QString::number(h)));
    }
    // Heads differ: some pair of heads differs by more than 0.2 in some cell.
    double difference = 0;
    for (std::int64_t i = 0; i < L; ++i) {
      for (std::int64_t j = 0; j < S; ++j) difference = std::max(difference, std::abs(w(0, i, j) - w(3, i, j)));
    }
    QVERIFY2(difference > 0.2, qPrintable(QString::number(difference)));
  }

  void nextAndPreviousButtonsWalkTheStagesInOrder() {
    setStage(Stage::in_proj_weight);
    const QList<Stage> stages = walkStages(controller()->result().get());
    auto* next = m_tools->walkthrough()->findChild<QPushButton*>(QStringLiteral("walkNext"));
    auto* prev = m_tools->walkthrough()->findChild<QPushButton*>(QStringLiteral("walkPrevious"));
    QVERIFY(next != nullptr && prev != nullptr);
    QVERIFY(!prev->isEnabled());
    for (qsizetype i = 1; i < stages.size(); ++i) {
      QTest::mouseClick(next, Qt::LeftButton);
      QCOMPARE(controller()->view().stage, stages[i]);
      QCOMPARE(grid()->view().stage, stages[i]);
      QVERIFY(grid()->mapCount() > 0);
      QVERIFY(m_tools->walkthrough()->codeText() == guideStep(stages[i]).code ||
              stages[i] == Stage::weights);
    }
    QVERIFY(!next->isEnabled());
    for (qsizetype i = stages.size() - 2; i >= 0; --i) {
      QTest::mouseClick(prev, Qt::LeftButton);
      QCOMPARE(controller()->view().stage, stages[i]);
    }
  }

  void arrowKeysOnTheGridStep() {
    setStage(Stage::raw_scores);
    grid()->setFocus();
    QTest::keyClick(grid(), Qt::Key_Right);
    QCOMPARE(controller()->view().stage, Stage::mask);
    QTest::keyClick(grid(), Qt::Key_Right);
    QCOMPARE(controller()->view().stage, Stage::scores);
    QTest::keyClick(grid(), Qt::Key_Left);
    QTest::keyClick(grid(), Qt::Key_Left);
    QCOMPARE(controller()->view().stage, Stage::raw_scores);
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
    emit grid()->cellClicked(static_cast<int>(controller()->result()->H), 0, 0);
    QVERIFY(m_tools->breakdown()->html().contains(QStringLiteral("Average over heads")));
  }

  void shapeFlowFollowsTheSettings() {
    QTableWidget* table = m_tools->shapeFlow()->table();
    QVERIFY(table->rowCount() > 0);
    mhaviz::Config c = controller()->config();
    c.add_bias_kv = true;
    c.add_zero_attn = true;
    controller()->changeConfig(c, QStringLiteral("bias and zero"));
    bool s1 = false, s2 = false;
    for (int r = 0; r < table->rowCount(); ++r) {
      s1 = s1 || table->item(r, 2)->text().contains(QStringLiteral("S+1"));
      s2 = s2 || table->item(r, 2)->text().contains(QStringLiteral("S+2"));
    }
    QVERIFY(s1 && s2);
    QVERIFY(idle());
  }

  void examplesMenuLoadsAConfigUndoably() {
    auto* menu = m_window->findChild<QMenu*>(QStringLiteral("examplesMenu"));
    QVERIFY(menu != nullptr);
    QCOMPARE(menu->actions().size(), 6);
    const mhaviz::Config before = controller()->config();
    for (QAction* a : menu->actions()) {
      if (a->data().toString().contains(QStringLiteral("bias_kv_and_zero_attn"))) a->trigger();
    }
    QVERIFY(controller()->config().add_bias_kv);
    QVERIFY(controller()->config().add_zero_attn);
    QVERIFY(idle());
    QCOMPARE(controller()->result()->Sx, controller()->result()->S + 2);
    controller()->undoStack()->undo();
    QCOMPARE(controller()->config(), before);
    QVERIFY(idle());
  }

  void f11TogglesPresentationMode() {
    const qreal normal = QApplication::font().pointSizeF();
    m_window->activateWindow();
    QTest::keyClick(m_window, Qt::Key_F11);
    QVERIFY(m_tools->inPresentation());
    QVERIFY(m_tools->presentationAction()->isChecked());
    QVERIFY(qAbs(QApplication::font().pointSizeF() - normal * 1.6) < 0.01);
    QTest::keyClick(m_window, Qt::Key_F11);
    QVERIFY(!m_tools->inPresentation());
    QCOMPARE(QApplication::font().pointSizeF(), normal);
    m_tools->highContrastAction()->trigger();
    QCOMPARE(QApplication::palette().color(QPalette::Window), QColor(Qt::black));
    m_tools->highContrastAction()->trigger();
    QVERIFY(QApplication::palette().color(QPalette::Window) != QColor(Qt::black));
  }

 private:
  ComputeController* controller() const { return m_window->controller(); }
  HeatmapGrid* grid() const { return m_window->grid(); }
  bool idle() const {
    return QTest::qWaitFor([this] { return !controller()->isBusy(); }, kTimeout);
  }
  void setStage(Stage stage) {
    ViewOptions v = controller()->view();
    v.stage = stage;
    controller()->setView(v);
  }

  MainWindow* m_window = nullptr;
  TeachingTools* m_tools = nullptr;
};

QTEST_MAIN(TestTeachWindow)
#include "test_teach_window.moc"
