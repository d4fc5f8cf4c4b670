// The heatmap grid's pictures prepared in the background (drawn when a hidden grid is shown,
// the same statistics as the direct way) and a big grid reduced to the screen's resolution
// (TestRender's slots, test_render.hpp).

#include <qcustomplot.h>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QtTest>
#include <memory>

#include "render/heatmap_grid.hpp"
#include "render/result_maps.hpp"
#include "stages/stage_data.hpp"
#include "test_render.hpp"

using namespace mhaviz::ui;
using mhaviz::ui::test::at;
using mhaviz::ui::test::computeResult;

// A grid behind another page (the model view in front) takes its prepared maps without
// painting them on the GUI thread; shown, it draws them.
void TestRender::hiddenGridDrawsItsPictureWhenShown() {
  mhaviz::Config c;  // large enough for the background preparation (as backgroundStats...)
  c.embed_dim = 32;
  c.num_heads = 4;
  c.tgt_len = 600;
  c.src_len = 600;
  c.batch_size = 1;
  auto r = std::make_shared<mhaviz::ForwardResult>(computeResult(c, true, true));
  QStackedWidget pages;
  auto* grid = new HeatmapGrid;
  grid->setBackgroundPreparation(true);  // as in the window
  auto* front = new QWidget;
  pages.addWidget(grid);
  pages.addWidget(front);
  pages.resize(1000, 700);
  pages.show();
  QVERIFY(QTest::qWaitForWindowExposed(&pages));
  pages.setCurrentWidget(front);
  QVERIFY(!grid->isVisible());
  QSignalSpy replots(grid->plot(), &QCustomPlot::afterReplot);
  QSignalSpy shown(grid, &HeatmapGrid::pictureShown);
  showResult(*grid, r, ViewOptions{});
  QVERIFY(grid->isPreparing());  // the maps come from the background task
  QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && !grid->isPreparing(), 30000);
  QVERIFY2(replots.count() == 0,
           qPrintable(QString::number(replots.count())));  // hidden: nothing painted
  QCPColorMap* map = nullptr;
  for (int i = 0; i < grid->plot()->plottableCount() && map == nullptr; ++i)
    map = qobject_cast<QCPColorMap*>(grid->plot()->plottable(i));
  QVERIFY(map != nullptr);
  QVERIFY(map->data()->keySize() > 0);  // the maps hold their cells
  pages.setCurrentWidget(grid);
  QTRY_VERIFY(replots.count() >= 1);  // drawn when shown
  // and the picture on screen is the maps' colours, not an empty plot
  const QImage picture = grid->grab().toImage();
  const QRect r0 = map->keyAxis()->axisRect()->rect();
  const QColor background = picture.pixelColor(2, 2);
  int coloured = 0;
  for (int y = r0.top() + 2; y < r0.bottom() - 2; y += 4)
    for (int x = r0.left() + 2; x < r0.right() - 2; x += 4)
      if (picture.pixelColor(x, y) != background) ++coloured;
  QVERIFY2(coloured > 10, qPrintable(QString::number(coloured)));
}

// With background preparation (the window) the statistics of whole maps are gathered while
// they are reduced, in one reading: the same per-map ranges, NaN flags and colour range as
// computeStats on copies of the maps (masked -inf scores and a fully masked row included).
void TestRender::backgroundStatisticsEqualTheDirectOnes() {
  mhaviz::Config c;
  c.embed_dim = 32;
  c.num_heads = 4;
  c.tgt_len = 600;
  c.src_len = 600;
  c.batch_size = 1;
  auto r = std::make_shared<mhaviz::ForwardResult>(computeResult(c, true, true));
  for (const Stage stage : {Stage::weights, Stage::scores, Stage::raw_scores}) {
    ViewOptions view;
    view.stage = stage;
    view.perHeadScale = stage == Stage::raw_scores;
    HeatmapGrid grid;
    grid.setBackgroundPreparation(true);
    grid.resize(1000, 700);
    grid.show();
    QVERIFY(QTest::qWaitForWindowExposed(&grid));
    showResult(grid, r, view);
    QTRY_VERIFY_WITH_TIMEOUT(!grid.isPreparing(), 30000);
    const StageData want = extractStage(*r, view, ExtractMode::copy);
    const StageData& got = grid.stageData();
    QVERIFY(got.statsReady);
    QCOMPARE(got.maps.size(), want.maps.size());
    for (std::size_t i = 0; i < want.maps.size(); ++i) {
      const MapData& g = got.maps[i];
      const MapData& w = want.maps[i];
      QVERIFY(g.values.empty());  // described, not copied: the background path
      QCOMPARE(g.hasNan, w.hasNan);
      QCOMPARE(g.hasFinite, w.hasFinite);
      QVERIFY2(g.finiteLo == w.finiteLo && g.finiteHi == w.finiteHi,
               qPrintable(QStringLiteral("%1 map %2: %3..%4, expected %5..%6")
                              .arg(stageName(stage))
                              .arg(i)
                              .arg(g.finiteLo)
                              .arg(g.finiteHi)
                              .arg(w.finiteLo)
                              .arg(w.finiteHi)));
    }
    QVERIFY(got.lo == want.lo && got.hi == want.hi);
  }
}

void TestRender::bigGridIsReducedToScreenResolution() {
  mhaviz::Config c;
  c.embed_dim = 64;
  c.num_heads = 8;
  c.tgt_len = 2048;
  c.src_len = 2048;
  c.batch_size = 1;
  auto r = std::make_shared<mhaviz::ForwardResult>(computeResult(c));
  HeatmapGrid grid;
  grid.resize(1400, 900);
  grid.show();
  QVERIFY(QTest::qWaitForWindowExposed(&grid));
  QElapsedTimer extractTimer;
  extractTimer.start();
  (void)extractStage(*r, ViewOptions{});
  qInfo("extracting 8 heads + average took %lld ms", extractTimer.elapsed());
  showResult(grid, r, ViewOptions{});
  QCOMPARE(grid.mapCount(), 9);
  // Timing is measured by mhaviz-window-bench, never asserted here.
  qInfo("8-head 2048x2048 grid rendered in %.1f ms", grid.lastRenderMs());
  auto* map = qobject_cast<QCPColorMap*>(grid.plot()->plottable(0));
  QVERIFY(map->data()->keySize() < 2048);
  QVERIFY(map->data()->keySize() <= map->keyAxis()->axisRect()->width());
  // Zooming into 64 columns x 64 rows shows exact cells.
  auto* rect = map->keyAxis()->axisRect();
  rect->axis(QCPAxis::atBottom)->setRange(99.5, 163.5);
  rect->axis(QCPAxis::atLeft)->setRange(999.5, 1063.5);
  QTRY_COMPARE(map->data()->keySize(), 64);
  QCOMPARE(map->data()->valueSize(), 64);
  // Display y 1000 is query 2047-1000 = 1047.
  QCOMPARE(map->data()->cell(0, 0), r->weights.value(at(r->weights, 0, 0, 1047, 100)));
  // Other maps follow the zoom.
  QCOMPARE(grid.plot()->plottable(3)->keyAxis()->range().lower, 99.5);
}
