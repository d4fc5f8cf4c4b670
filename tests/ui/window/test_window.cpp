// The main window end to end: panel controls -> document -> computation -> worker -> heatmap grid
// (what the computation alone does is tests/ui/compute/test_computation.cpp).

#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QLayout>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>
#include <QUndoStack>

#include "../compute/worker_gate.hpp"
#include "../document/announced.hpp"
#include "compute/computation.hpp"
#include "document/document.hpp"
#include "prompted_window.hpp"
#include "render/heatmap_grid.hpp"
#include "window/main_window.hpp"
#include "window/parameter_panel.hpp"
#include "window/view_controls.hpp"
#include "window_test.hpp"

using mhaviz::ui::Document;
using mhaviz::ui::HeatmapGrid;
using mhaviz::ui::MainWindow;
using mhaviz::ui::ResultPtr;
using mhaviz::ui::testing::Announced;
using mhaviz::ui::testing::WorkerGate;

namespace {
constexpr int kTimeout = 30000;
QSize screenSize() { return QGuiApplication::primaryScreen()->availableGeometry().size(); }
}  // namespace

class TestWindow : public mhaviz::ui::testing::WindowTest {
  Q_OBJECT

 private slots:
  void initTestCase() { mhaviz::ui::testing::isolateSettings("mhaviz-window-tests"); }

  // Issue 40 defect 4: a size remembered from a larger screen reopened partly off screen, and
  // the first run's size filled a small screen's height with the title bar on top, the status
  // bar below the edge. The window, its title bar and borders fit the screen it opens on.
  void theWindowFitsTheScreenItOpensOn() {
    const auto fits = [](const MainWindow& w) {
      const QRect room = w.screen()->availableGeometry();
      // As large as the screen leaves room for, unless the docks' minimum is larger (the test
      // platform's screen is 800x600), and its top left corner on the screen.
      const QSize most = (room.size() - QSize(16, 48))
                             .expandedTo(w.minimumSizeHint())
                             .expandedTo(w.layout()->totalMinimumSize());
      return w.width() <= most.width() && w.height() <= most.height() &&
             room.contains(w.pos()) && room.contains(QRect(w.pos(), w.size() + QSize(16, 48))) ==
                                           (w.width() + 16 <= room.width() &&
                                            w.height() + 48 <= room.height());
    };
    QSettings settings;
    {
      QMainWindow big;
      big.resize(screenSize() + QSize(400, 300));
      settings.setValue(QStringLiteral("window/geometry"), big.saveGeometry());
    }
    {
      MainWindow remembered;
      QVERIFY2(fits(remembered), qPrintable(QStringLiteral("%1,%2 %3x%4, least %5x%6")
                                                .arg(remembered.x())
                                                .arg(remembered.y())
                                                .arg(remembered.width())
                                                .arg(remembered.height())
                                                .arg(remembered.layout()->totalMinimumSize().width())
                                                .arg(remembered.layout()->totalMinimumSize().height())));
    }
    settings.remove(QStringLiteral("window/geometry"));  // a fresh profile
    MainWindow fresh;
    QVERIFY(fits(fresh));
    settings.remove(QStringLiteral("window/geometry"));
  }

  void init() {
    m_window = new MainWindow;
    m_window->resize(1200, 800);
    m_window->show();
    QVERIFY(idle());
    QVERIFY(document()->computed().result != nullptr);
  }

  void cleanup() {
    delete m_window;
    m_window = nullptr;
  }

  void startsWithOneMapPerHeadPlusAverage() {
    const mhaviz::Config& c = document()->config();
    QCOMPARE(grid()->mapCount(), c.num_heads + 1);
    QCOMPARE(grid()->columnLabels(0).size(), c.src_len);
    QCOMPARE(m_window->windowTitle(), QStringLiteral("mhaviz"));
  }

  void changingHeadsRecomputesAndShowsHMaps() {
    fields().numHeads->setValue(4);
    QVERIFY(idle());
    QCOMPARE(document()->computed().result->H, 4);
    QCOMPARE(grid()->mapCount(), 5);
    const QStringList titles = grid()->mapTitles();
    for (int h = 0; h < 4; ++h) {
      QVERIFY2(titles.at(h).contains(QString::number(h)), qPrintable(titles.join(u',')));
    }
    fields().numHeads->setValue(1);
    QVERIFY(idle());
    QCOMPARE(document()->computed().result->H, 1);
    QCOMPARE(grid()->mapCount(), 2);
  }

  void changingSizesChangesTheMaps() {
    fields().tgtLen->setValue(5);
    fields().srcLen->setValue(11);
    QVERIFY(idle());
    QCOMPARE(grid()->stageData().maps.at(0).rows, 5);
    QCOMPARE(grid()->stageData().maps.at(0).cols, 11);
    QCOMPARE(grid()->columnLabels(0).size(), 11);
  }

  void biasKvAndZeroAttnAddLabelledColumns() {
    const int S = static_cast<int>(document()->config().src_len);
    fields().addBiasKv->click();
    QVERIFY(idle());
    QStringList labels = grid()->columnLabels(0);
    QCOMPARE(labels.size(), S + 1);
    QCOMPARE(labels.last(), QStringLiteral("bias_k"));
    fields().addZeroAttn->click();
    QVERIFY(idle());
    labels = grid()->columnLabels(0);
    QCOMPARE(labels.size(), S + 2);
    QCOMPARE(labels.at(S), QStringLiteral("bias_k"));
    QCOMPARE(labels.at(S + 1), QStringLiteral("zero"));
    QCOMPARE(document()->computed().result->Sx, S + 2);
    fields().addBiasKv->click();
    QVERIFY(idle());
    labels = grid()->columnLabels(0);
    QCOMPARE(labels.size(), S + 1);
    QCOMPARE(labels.last(), QStringLiteral("zero"));
  }

  void rapidChangesEndWithTheLastSetting() {
    const Announced results(document(), Document::Change::result);
    QSpinBox* L = fields().tgtLen;
    // The first change's computation is held at its start while the other 49 arrive: it is
    // abandoned, and of those waiting only the newest is computed.
    WorkerGate gate(computation()->worker());
    const int droppedBefore = computation()->staleResultsDropped();
    L->setValue(3);
    QVERIFY(gate.waitUntilHeld(kTimeout) != 0);
    for (int i = 2; i <= 50; ++i) L->setValue(i * 3);  // no waiting in between
    gate.release();
    QVERIFY(idle());
    // Proof of absence: nothing is left to wait for (idle), so only time can show that no stale
    // result arrives late; a condition cannot be waited on for something that must not happen.
    QTest::qWait(200);
    // 50 submissions, one computation reached the screen: the last. The held one was abandoned
    // (not computed and then dropped as stale), and none of those waiting was computed.
    QCOMPARE(results.count(), 1);
    QCOMPARE(results.results.first()->L, 150);
    QCOMPARE(computation()->staleResultsDropped(), droppedBefore);
    QCOMPARE(document()->computed().result->L, 150);
    QCOMPARE(document()->config().tgt_len, 150);
    QCOMPARE(grid()->stageData().maps.at(0).rows, 150);
    QVERIFY(!document()->computed().outOfDate);
    // One spin box, one undo step.
    QCOMPARE(document()->undoStack()->count(), 1);
    QCOMPARE(document()->undoStack()->undoText(), QStringLiteral("Set tgt_len to 150"));
  }

  void aHeadChosenForComingSettingsIsKept() {
    // A model's layer opened on head 6 while the window still shows two heads: the view is
    // fitted to the settings being computed, not to the older result on screen.
    fields().numHeads->setValue(2);
    QVERIFY(idle());
    WorkerGate gate(computation()->worker());
    fields().numHeads->setValue(8);
    QVERIFY(gate.waitUntilHeld(kTimeout) != 0);
    mhaviz::ui::ViewOptions view = document()->view();
    view.soloHead = 6;
    document()->setView(view);
    QCOMPARE(document()->view().soloHead, 6);
    gate.release();
    QVERIFY(idle());
    QCOMPARE(document()->computed().result->H, 8);
    QCOMPARE(document()->view().soloHead, 6);
    QCOMPARE(grid()->mapCount(), 1);
    // A head the settings do not have is still dropped.
    view.soloHead = 9;
    document()->setView(view);
    QCOMPARE(document()->view().soloHead, -1);
  }

  void aHeadFewerHeadsLeftOutComesBackWithMore() {
    // As with the masks and labels a smaller size cuts: head 3 shown alone, then two heads for a
    // while (every head shown), then four again: head 3 alone again.
    fields().numHeads->setValue(4);
    QVERIFY(idle());
    mhaviz::ui::ViewOptions view = document()->view();
    view.soloHead = 3;
    document()->setView(view);
    QVERIFY(idle());
    QCOMPARE(grid()->mapCount(), 1);
    fields().numHeads->setValue(2);
    QVERIFY(idle());
    QCOMPARE(document()->view().soloHead, -1);
    QCOMPARE(grid()->mapCount(), 3);
    fields().numHeads->setValue(4);
    QVERIFY(idle());
    QCOMPARE(document()->view().soloHead, 3);
    QCOMPARE(grid()->mapCount(), 1);
  }

  void invalidSettingShowsMessageAndKeepsPicture() {
    fields().numHeads->setValue(4);
    QVERIFY(idle());
    const ResultPtr good = document()->computed().result;
    const Announced outOfDate(document(), Document::Change::outOfDate);
    fields().embedDim->setValue(10);
    QVERIFY(idle());
    auto* error = m_window->panel()->errorLine();
    QVERIFY(error != nullptr);
    QVERIFY(error->isVisible());
    QVERIFY2(error->text().contains(QStringLiteral("embed_dim must be divisible by num_heads")),
             qPrintable(error->text()));
    QCOMPARE(document()->computed().result, good);  // last good picture kept
    QCOMPARE(grid()->mapCount(), 5);
    QVERIFY(document()->computed().outOfDate);
    QVERIFY(outOfDate.count() != 0);
    QCOMPARE(outOfDate.outOfDate.last(), true);
    QVERIFY2(outOfDate.reasons.last().contains(QStringLiteral("embed_dim must be divisible")),
             qPrintable(outOfDate.reasons.last()));

    fields().embedDim->setValue(12);
    QVERIFY(idle());
    QVERIFY(!error->isVisible());
    QVERIFY(!document()->computed().outOfDate);
    QCOMPARE(document()->computed().result->E, 12);
  }

  void undoRedoRestoresSettingsAndPicture() {
    QUndoStack* undo = document()->undoStack();
    fields().numHeads->setValue(4);
    QVERIFY(idle());
    fields().addZeroAttn->click();
    QVERIFY(idle());
    QCOMPARE(undo->count(), 2);
    QCOMPARE(undo->undoText(), QStringLiteral("Set add_zero_attn to True"));
    const int S = static_cast<int>(document()->config().src_len);
    QCOMPARE(grid()->columnLabels(0).size(), S + 1);

    undo->undo();
    QVERIFY(idle());
    QVERIFY(!document()->config().add_zero_attn);
    QVERIFY(!fields().addZeroAttn->isChecked());
    QCOMPARE(grid()->columnLabels(0).size(), S);
    QCOMPARE(undo->undoText(), QStringLiteral("Set num_heads to 4"));

    undo->undo();
    QVERIFY(idle());
    QCOMPARE(document()->config().num_heads, 2);
    QCOMPARE(fields().numHeads->value(), 2);
    QCOMPARE(grid()->mapCount(), 3);

    undo->redo();
    QVERIFY(idle());
    QCOMPARE(document()->config().num_heads, 4);
    QCOMPARE(fields().numHeads->value(), 4);
    QCOMPARE(grid()->mapCount(), 5);

    undo->redo();
    QVERIFY(idle());
    QVERIFY(document()->config().add_zero_attn);
    QCOMPARE(grid()->columnLabels(0).last(), QStringLiteral("zero"));
  }

  void undoOfAnInvalidSettingBringsThePictureBack() {
    fields().numHeads->setValue(4);
    QVERIFY(idle());
    fields().embedDim->setValue(10);
    QVERIFY(idle());
    QVERIFY(document()->computed().outOfDate);
    document()->undoStack()->undo();
    QVERIFY(idle());
    QCOMPARE(document()->config().embed_dim, 16);
    QVERIFY(document()->computed().error.isEmpty());
    QVERIFY(!document()->computed().outOfDate);
    QCOMPARE(document()->computed().result->E, 16);
  }

  void escapeCancels() {
    mhaviz::Config big = document()->config();
    big.tgt_len = 1024;
    big.src_len = 1024;
    big.batch_size = 4;
    big.num_heads = 8;
    big.embed_dim = 64;
    const Announced results(document(), Document::Change::result);
    WorkerGate gate(computation()->worker());
    document()->changeConfig(big, QStringLiteral("big"));
    QVERIFY(gate.waitUntilHeld(kTimeout) != 0);  // running, held at its start
    m_window->activateWindow();
    QTest::keyClick(m_window, Qt::Key_Escape);
    gate.release();
    QTRY_VERIFY_WITH_TIMEOUT(!document()->computed().busy, kTimeout);
    QCOMPARE(results.count(), 0);
    QVERIFY(document()->computed().outOfDate);
  }

  void viewControlsSelectBatchAndHead() {
    fields().batchSize->setValue(3);
    fields().numHeads->setValue(4);
    QVERIFY(idle());
    auto* batch = m_window->panel()->viewControls()->batchBox();
    QVERIFY(batch != nullptr);
    QCOMPARE(batch->maximum(), 2);
    batch->setValue(2);
    QCOMPARE(document()->view().batch, 2);
    QCOMPARE(grid()->view().batch, 2);
    // Fewer batch elements than the one shown: the view follows the new result.
    fields().batchSize->setValue(1);
    QVERIFY(idle());
    QCOMPARE(document()->view().batch, 0);
    QCOMPARE(batch->value(), 0);
  }

 private:
  HeatmapGrid* grid() const { return m_window->grid(); }
};

QTEST_MAIN(TestWindow)
#include "test_window.moc"
