// Parts of the heatmap grid (QtTest, offscreen): the hover text on maps whose axes are not
// queries and keys, and the stage shared with the background task that prepares it.

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QtTest>
#include <memory>

#include "render/heatmap_grid.hpp"
#include "render/heatmap_grid_state.hpp"
#include "render/result_maps.hpp"
#include "stages/stage_data.hpp"
#include "test_render_common.hpp"

using namespace mhaviz::ui;
using mhaviz::ui::test::computeResult;

class TestGridParts : public QObject {
  Q_OBJECT

 private slots:
  // Hover over a weight matrix names its axes: output feature (a head's slice counts from its
  // own first row, W_q head 1 row 3 is output feature 11) and input feature, never query/dim.
  void weightMatrixHoverNamesItsFeatures() {
    auto r = std::make_shared<mhaviz::ForwardResult>(computeResult(config()));
    HeatmapGrid grid;
    grid.resize(1200, 900);
    grid.show();
    QVERIFY(QTest::qWaitForWindowExposed(&grid));
    const auto hover = [&grid](int map, int row, int col) {
      QSignalSpy hovered(&grid, &HeatmapGrid::cellHovered);
      grid.plot()->replot();
      auto* colours = qobject_cast<QCPColorMap*>(grid.plot()->plottable(map));
      const int rows = colours->data()->valueSize();
      const QPoint p(static_cast<int>(colours->keyAxis()->coordToPixel(col)),
                     static_cast<int>(colours->valueAxis()->coordToPixel(rows - 1 - row)));
      QMouseEvent move(QEvent::MouseMove, p, grid.plot()->mapToGlobal(p), Qt::NoButton,
                       Qt::NoButton, Qt::NoModifier);
      QApplication::sendEvent(grid.plot(), &move);
      return hovered.count() == 1 && hovered.at(0).at(0).toInt() == map &&
                     hovered.at(0).at(1).toInt() == row && hovered.at(0).at(2).toInt() == col
                 ? hovered.at(0).at(4).toString()
                 : QStringLiteral("no hover on map %1 (%2, %3)").arg(map).arg(row).arg(col);
    };
    ViewOptions view;
    view.stage = Stage::in_proj_weight;
    showResult(grid, r, view);
    QCOMPARE(grid.mapCount(), 6);   // W_q, W_k, W_v for each of the 2 heads (hd = 8)
    QString text = hover(1, 3, 6);  // W_q, head 1
    QVERIFY2(text.contains(QStringLiteral("output feature 11")) &&
                 text.contains(QStringLiteral("input feature 6")) && !text.contains("query") &&
                 !text.contains("dim "),
             qPrintable(text));
    view.stage = Stage::out_proj_weight;
    showView(grid, view);
    QCOMPARE(grid.mapCount(), 1);
    text = hover(0, 13, 2);
    QVERIFY2(text.contains(QStringLiteral("output feature 13")) &&
                 text.contains(QStringLiteral("input feature 2")) && !text.contains("query"),
             qPrintable(text));
    // The weights keep their queries and keys.
    view.stage = Stage::weights;
    showView(grid, view);
    text = hover(0, 2, 4);
    QVERIFY2(text.contains(QStringLiteral("query 2")) && text.contains(QStringLiteral("key 4")),
             qPrintable(text));
  }

  // The grid's stage is shared with the background task that prepares it, never copied for it
  // (compare's A, B and B - A of a layer hold tens of MB of cells); changed while a task still
  // reads it, the grid changes a copy of its own and the task's stays as it was.
  void theStageIsSharedWithItsTasksAndCopiedOnlyToChange() {
    GridContent content;
    StageData stage;
    stage.maps.resize(1);
    stage.maps[0].values = {1, 2, 3};
    const double* cells = stage.maps[0].values.data();
    content.set(std::move(stage));
    std::shared_ptr<const StageData> task = content.shared();
    QCOMPARE(task->maps[0].values.data(), cells);
    content.edit().maps[0].finiteHi = 3;
    QVERIFY(content.data().maps[0].values.data() != cells);
    QCOMPARE(content.data().maps[0].finiteHi, 3.0);
    QCOMPARE(task->maps[0].finiteHi, 0.0);
    task.reset();
    const double* own = content.data().maps[0].values.data();
    content.edit().maps[0].finiteLo = 1;
    QCOMPARE(content.data().maps[0].values.data(), own);
  }

  // Maps made elsewhere (cells of their own) prepared in the background: the task lets the stage
  // go before it delivers, so its statistics are taken into the grid's stage in place, the cells
  // never copied.
  void backgroundStatisticsAreTakenWithoutCopyingTheCells() {
    HeatmapGrid grid;
    grid.setBackgroundPreparation(true);
    grid.resize(800, 600);
    grid.show();
    QVERIFY(QTest::qWaitForWindowExposed(&grid));
    StageData stage;
    MapData map;
    map.title = map.shownTitle = QStringLiteral("cells");
    map.rows = 200;
    map.cols = 300;
    map.values.resize(200 * 300);
    for (std::size_t i = 0; i < map.values.size(); ++i) map.values[i] = static_cast<double>(i);
    stage.maps.push_back(std::move(map));
    stage.unit = stage.shownUnit = QStringLiteral("value");
    stage.rangeFromData = true;
    const double* cells = stage.maps[0].values.data();
    grid.setStageData(std::move(stage), ViewOptions{});
    QVERIFY(
        QTest::qWaitFor([&] { return !grid.isPreparing() && grid.stageData().statsReady; }, 10000));
    QCOMPARE(grid.stageData().maps[0].values.data(), cells);
    QCOMPARE(grid.stageData().maps[0].finiteLo, 0.0);
    QCOMPARE(grid.stageData().maps[0].finiteHi, 200.0 * 300 - 1);
    QCOMPARE(grid.stageData().hi, 200.0 * 300 - 1);
    // Its plot draws into one paint buffer: no layer asks for one of its own (QCustomPlot's
    // "overlay" does by default, a second buffer as large as the plot cleared at every replot).
    for (int i = 0; i < grid.plot()->layerCount(); ++i)
      QCOMPARE(grid.plot()->layer(i)->mode(), QCPLayer::lmLogical);
  }

  // A resize of the grid's plot replots it once, when the size has settled: not at once for each
  // size it passes through (QCustomPlot's own resizeEvent allocates a paint buffer of each and
  // draws every layer into it), and not at all while it is hidden: then when it is painted.
  void thePlotReplotsOnceWhenItsSizeHasSettled() {
    HeatmapGrid grid;
    grid.resize(600, 500);
    grid.show();
    QVERIFY(QTest::qWaitForWindowExposed(&grid));
    auto r = std::make_shared<mhaviz::ForwardResult>(computeResult(config()));
    showResult(grid, r, ViewOptions{});
    QTRY_VERIFY(!grid.isPreparing());
    QCoreApplication::processEvents();  // the grid's queued render
    QCustomPlot* plot = grid.plot();
    plot->replot();  // nothing left to replot before the resizes below
    QSignalSpy replots(plot, &QCustomPlot::afterReplot);
    for (int w : {420, 440, 460}) plot->resize(w, 380);
    QCOMPARE(replots.count(), 0);
    QCoreApplication::processEvents();  // (the replot waits for the next turn of the event loop)
    QCOMPARE(replots.count(), 1);
    QCoreApplication::processEvents();
    QCOMPARE(replots.count(), 1);
    QCOMPARE(plot->viewport(), QRect(0, 0, 460, 380));

    // Hidden, it waits until it is painted.
    grid.hide();
    replots.clear();
    plot->resize(500, 400);
    QCoreApplication::processEvents();
    QCOMPARE(replots.count(), 0);
    const QImage painted = plot->grab().toImage();
    QCOMPARE(replots.count(), 1);
    QCOMPARE(painted.size(), QSize(500, 400) * painted.devicePixelRatio());
  }

 private:
  static mhaviz::Config config() {
    mhaviz::Config c;
    c.embed_dim = 16;
    c.num_heads = 2;
    c.tgt_len = 5;
    c.src_len = 7;
    c.seed = 11;
    return c;
  }
};

QTEST_MAIN(TestGridParts)
#include "test_grid_parts.moc"
