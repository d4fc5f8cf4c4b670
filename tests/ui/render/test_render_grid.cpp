// The heatmap grid widget's maps, axis labels, hover and click, legend, colour scales and ranges,
// and its titles and notes wrapped to fit (TestRender's slots, test_render.hpp).

#include <qcustomplot.h>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>
#include <functional>
#include <memory>

#include "mhaviz/core/model/model.hpp"
#include "mhaviz/core/model/weights_only.hpp"
#include "render/colormaps.hpp"
#include "render/grid_legend.hpp"
#include "render/heatmap_grid.hpp"
#include "render/map_text.hpp"
#include "render/result_maps.hpp"
#include "stages/compare_stage.hpp"
#include "stages/stage_data.hpp"
#include "test_render.hpp"

using namespace mhaviz::ui;
using mhaviz::ui::test::at;
using mhaviz::ui::test::colourScale;
using mhaviz::ui::test::computeResult;
using mhaviz::ui::test::countColorMaps;
using mhaviz::ui::test::smallConfig;

void TestRender::gridShowsMapsAndLabels() {
  auto r = std::make_shared<mhaviz::ForwardResult>(
      computeResult(smallConfig(true, true), /*causal=*/true));
  HeatmapGrid grid;
  grid.resize(900, 600);
  grid.show();
  QVERIFY(QTest::qWaitForWindowExposed(&grid));
  ViewOptions view;
  const auto expectRenderTimeOf = [&grid](const std::function<void()>& change) {
    // lastRenderMs is the time this change took to draw: some, and no more than the call (a
    // timer left running from before would also count the 50 ms wait). Proof of absence: the
    // wait is the time that must NOT be counted, so it is a time, not a condition.
    QTest::qWait(50);
    QElapsedTimer call;
    call.start();
    change();
    const double callMs = static_cast<double>(call.nsecsElapsed()) / 1e6;
    QVERIFY2(
        grid.lastRenderMs() > 0 && grid.lastRenderMs() <= callMs,
        qPrintable(QStringLiteral("%1 ms of a %2 ms call").arg(grid.lastRenderMs()).arg(callMs)));
  };
  expectRenderTimeOf([&] { showResult(grid, r, view); });
  QCOMPARE(grid.mapCount(), 3);
  QCOMPARE(countColorMaps(grid.plot()), 3);
  QCOMPARE(grid.mapTitles(), (QStringList{"head 0", "head 1", "average over heads"}));
  const QStringList labels = grid.columnLabels(0);
  QCOMPARE(labels.size(), 9);
  QCOMPARE(labels.at(7), QStringLiteral("bias_k"));
  QCOMPARE(labels.at(8), QStringLiteral("zero"));
  // The extra columns are labelled on their own axis, in their own colour.
  auto* rect = grid.plot()->plottable(0)->keyAxis()->axisRect();
  QCOMPARE(rect->axes(QCPAxis::atBottom).size(), 2);
  QCPAxis* extra = rect->axes(QCPAxis::atBottom).at(1);
  const auto ticks = extra->ticker().staticCast<QCPAxisTickerText>()->ticks();
  QCOMPARE(ticks.value(7), QStringLiteral("bias_k"));
  QCOMPARE(ticks.value(8), QStringLiteral("zero"));
  QCOMPARE(extra->tickLabelColor(), extraKeyColor());
  const auto mainTicks =
      rect->axis(QCPAxis::atBottom)->ticker().staticCast<QCPAxisTickerText>()->ticks();
  QVERIFY(!mainTicks.contains(7));
  QCOMPARE(mainTicks.value(0), QStringLiteral("0"));
  // Query 0 is drawn at the top: its cell is at the largest y coordinate.
  auto* map = qobject_cast<QCPColorMap*>(grid.plot()->plottable(0));
  QCOMPARE(map->data()->cell(0, 4), r->weights.value(at(r->weights, 0, 0, 0, 0)));
  QCOMPARE(map->dataRange().lower, 0.0);
  QCOMPARE(map->dataRange().upper, 1.0);

  // Per-head scale: each map gets its own range.
  view.perHeadScale = true;
  expectRenderTimeOf([&] { showView(grid, view); });
  map = qobject_cast<QCPColorMap*>(grid.plot()->plottable(0));
  QVERIFY(map->dataRange().upper < 1.0 || map->dataRange().lower > 0.0);

  // Hover and click report the cell under the mouse.
  QSignalSpy hovered(&grid, &HeatmapGrid::cellHovered);
  QSignalSpy clicked(&grid, &HeatmapGrid::cellClicked);
  grid.plot()->replot();
  rect = map->keyAxis()->axisRect();  // the layout was rebuilt
  auto* x = rect->axis(QCPAxis::atBottom);
  auto* y = rect->axis(QCPAxis::atLeft);
  const QPoint p(static_cast<int>(x->coordToPixel(7)), static_cast<int>(y->coordToPixel(4 - 2)));
  QMouseEvent move(QEvent::MouseMove, p, grid.plot()->mapToGlobal(p), Qt::NoButton, Qt::NoButton,
                   Qt::NoModifier);
  QApplication::sendEvent(grid.plot(), &move);
  QCOMPARE(hovered.count(), 1);
  QCOMPARE(hovered.at(0).at(0).toInt(), 0);
  QCOMPARE(hovered.at(0).at(1).toInt(), 2);
  QCOMPARE(hovered.at(0).at(2).toInt(), 7);
  const QString description = hovered.at(0).at(4).toString();
  QVERIFY2(description.contains("query 2") && description.contains("bias_k") &&
               description.contains("add_bias_kv") && description.contains("weight"),
           qPrintable(description));
  QTest::mouseClick(grid.plot(), Qt::LeftButton, Qt::NoModifier, p);
  QCOMPARE(clicked.count(), 1);
  QCOMPARE(clicked.at(0).at(2).toInt(), 7);

  // Solo head, signed stage: diverging, symmetric.
  view = ViewOptions{};
  view.stage = Stage::raw_scores;
  view.soloHead = 1;
  showView(grid, view);
  QCOMPARE(grid.mapCount(), 1);
  map = qobject_cast<QCPColorMap*>(grid.plot()->plottable(0));
  QCOMPARE(map->dataRange().lower, -map->dataRange().upper);

  grid.setOutOfDate(true, "E must be divisible by H");
  QCOMPARE(grid.mapCount(), 1);
  grid.clear();
  QCOMPARE(grid.mapCount(), 0);
}

// The legend clips no key: on a narrow grid its keys wrap to more rows.
void TestRender::legendKeysFitOnANarrowGrid() {
  auto r = std::make_shared<mhaviz::ForwardResult>(
      computeResult(smallConfig(true, true), /*causal=*/true));
  HeatmapGrid grid;
  grid.resize(560, 600);
  grid.show();
  QVERIFY(QTest::qWaitForWindowExposed(&grid));
  showResult(grid, r, ViewOptions{});
  grid.plot()->replot();
  int keys = 0;
  for (QCPLayoutElement* e : grid.plot()->plotLayout()->elements(true)) {
    auto* key = dynamic_cast<LegendKey*>(e);
    if (key == nullptr) continue;
    ++keys;
    const QRect box = key->outerRect();
    QVERIFY2(
        box.width() >= key->minimumOuterSizeHint().width() && box.right() <= grid.plot()->width(),
        qPrintable(QStringLiteral("key %1: %2 px at %3, needs %4")
                       .arg(keys)
                       .arg(box.width())
                       .arg(box.left())
                       .arg(key->minimumOuterSizeHint().width())));
  }
  QCOMPARE(keys, 4);  // masked, NaN, bias_k, zero
}

// A weights-only file's layer (its weights as stored: no mask known) has no "masked" key, where
// a pass's weights have one even without a mask.
void TestRender::aWeightsOnlyLayersLegendClaimsNoMask() {
  const mhaviz::Config config = smallConfig(true, true);
  const mhaviz::ForwardResult pass = computeResult(config, /*causal=*/true);
  QVERIFY(!pass.is_stored_weights());
  mhaviz::model::Layer layer;
  layer.info.config = config;
  layer.torch_weights = pass.weights;
  const auto legendOf = [](const std::function<void(HeatmapGrid&)>& show) {
    HeatmapGrid grid;
    grid.resize(1000, 600);
    show(grid);
    grid.plot()->replot();
    QStringList texts;
    for (QCPLayoutElement* e : grid.plot()->plotLayout()->elements(true)) {
      if (auto* key = dynamic_cast<LegendKey*>(e)) texts << key->text();
    }
    return texts;
  };
  const auto legendTexts = [&](const std::shared_ptr<mhaviz::ForwardResult>& result) {
    return legendOf([&](HeatmapGrid& grid) { showResult(grid, result, ViewOptions{}); });
  };
  const QStringList computed =
      legendTexts(std::make_shared<mhaviz::ForwardResult>(computeResult(config)));  // no mask
  QVERIFY2(computed.filter(QStringLiteral("masked (-inf in the mask)")).size() == 1,
           qPrintable(computed.join(u'|')));
  auto stored = std::make_shared<mhaviz::ForwardResult>(mhaviz::model::weights_result(layer));
  QVERIFY(stored->is_stored_weights());
  const QStringList texts = legendTexts(stored);
  QVERIFY2(texts.filter(QStringLiteral("masked")).isEmpty(), qPrintable(texts.join(u'|')));
  QVERIFY2(texts.contains(QStringLiteral("NaN")), qPrintable(texts.join(u'|')));
  // Two such files compared (A | B | B - A): none of the three grids has the key either.
  const CompareData compared = compareStage(*stored, *stored, ViewOptions{});
  QVERIFY(compared.mismatch.isEmpty());
  for (const StageData* data : {&compared.a, &compared.b, &compared.diff}) {
    QVERIFY(!data->maskKnown);
    const QStringList keys =
        legendOf([&](HeatmapGrid& grid) { grid.setStageData(*data, ViewOptions{}); });
    QVERIFY2(keys.filter(QStringLiteral("masked")).isEmpty(), qPrintable(keys.join(u'|')));
  }
}

// Automatic range: weights share 0..the largest weight shown, and the scale's title says so;
// off, the fixed 0..1 with the unit alone.
void TestRender::automaticRangeUsesTheWholeColormap() {
  mhaviz::Config c = smallConfig(false, false);
  c.num_heads = 4;
  auto r = std::make_shared<mhaviz::ForwardResult>(computeResult(c));
  HeatmapGrid grid;
  grid.resize(1200, 500);
  grid.show();
  QVERIFY(QTest::qWaitForWindowExposed(&grid));
  ViewOptions view;
  view.autoRange = true;
  showResult(grid, r, view);
  double largest = 0;
  for (const MapData& m : grid.stageData().maps) {
    for (int i = 0; i < m.rows; ++i) {
      for (int j = 0; j < m.cols; ++j) largest = std::max(largest, m.valueAt(i, j));
    }
  }
  QVERIFY(largest > 0 && largest < 1);
  QCPColorScale* scale = colourScale(grid.plot());
  QVERIFY(scale != nullptr);
  QCOMPARE(scale->dataRange().lower, 0.0);
  QCOMPARE(scale->dataRange().upper, largest);
  QVERIFY2(scale->axis()->label().contains(QStringLiteral("automatic")),
           qPrintable(scale->axis()->label()));
  for (int i = 0; i < grid.plot()->plottableCount(); ++i) {
    auto* map = qobject_cast<QCPColorMap*>(grid.plot()->plottable(i));
    QCOMPARE(map->dataRange().upper, largest);
  }
  view.autoRange = false;
  showView(grid, view);
  scale = colourScale(grid.plot());
  QVERIFY(scale->dataRange() == QCPRange(0, 1));
  QCOMPARE(scale->axis()->label(), QStringLiteral("weight"));
}

// Issue 28 item 9: the colour scale's title is turned along the bar; where the bar is shorter
// than the title (a short, wide grid: one row of maps, the bar as tall as a map) it wraps
// onto more lines instead of standing past the bar's ends over whatever is above.
void TestRender::scaleTitleNeverOutrunsItsBar() {
  mhaviz::Config c = smallConfig(false, false);
  c.num_heads = 4;
  auto r = std::make_shared<mhaviz::ForwardResult>(computeResult(c));
  HeatmapGrid grid;
  grid.resize(1500, 230);
  grid.show();
  QVERIFY(QTest::qWaitForWindowExposed(&grid));
  ViewOptions view;
  view.autoRange = true;  // "weight (automatic range: 0..largest)"
  showResult(grid, r, view);
  grid.plot()->replot();
  QCPColorScale* scale = colourScale(grid.plot());
  QVERIFY(scale != nullptr);
  const QFontMetrics metrics(scale->axis()->labelFont());
  const QRect bar = scale->axis()->axisRect()->rect();
  QVERIFY(metrics.horizontalAdvance(QStringLiteral("weight (automatic range: 0..largest)")) >
          bar.height());  // the case in question
  const QStringList lines = scale->axis()->label().split(QLatin1Char('\n'));
  QVERIFY2(lines.size() >= 2, qPrintable(scale->axis()->label()));
  for (const QString& line : lines) {
    QVERIFY2(metrics.horizontalAdvance(line) <= bar.height(),
             qPrintable(QStringLiteral("'%1' is %2 px along a %3 px bar")
                            .arg(line)
                            .arg(metrics.horizontalAdvance(line))
                            .arg(bar.height())));
  }
  QCOMPARE(lines.join(QLatin1Char(' ')), QStringLiteral("weight (automatic range: 0..largest)"));
}

// Issue 15 item 1: a resize that changes the number of grid columns (a dock toggled, a
// splitter dragged, presentation mode left) rebuilds the layout; the new colour maps and the
// new colour scale must keep the rule's range (0..1 for weights), not QCustomPlot's default.
void TestRender::colourRangeSurvivesResizes() {
  mhaviz::Config c = smallConfig(false, false);
  c.num_heads = 4;
  auto r = std::make_shared<mhaviz::ForwardResult>(computeResult(c));
  HeatmapGrid grid;
  grid.setBackgroundPreparation(true);  // as in the window
  grid.resize(1400, 500);
  grid.show();
  QVERIFY(QTest::qWaitForWindowExposed(&grid));
  showResult(grid, r, ViewOptions{});
  QTRY_VERIFY(!grid.isPreparing());
  const auto checkRanges = [&grid](const char* when) {
    QCPColorScale* scale = colourScale(grid.plot());
    QVERIFY2(scale != nullptr, when);
    QVERIFY2(scale->dataRange() == QCPRange(0, 1), qPrintable(QStringLiteral("%1: scale %2..%3")
                                                                  .arg(when)
                                                                  .arg(scale->dataRange().lower)
                                                                  .arg(scale->dataRange().upper)));
    for (int i = 0; i < grid.plot()->plottableCount(); ++i) {
      auto* map = qobject_cast<QCPColorMap*>(grid.plot()->plottable(i));
      QVERIFY2(map->dataRange() == QCPRange(0, 1), qPrintable(QStringLiteral("%1: map %2 %3..%4")
                                                                  .arg(when)
                                                                  .arg(i)
                                                                  .arg(map->dataRange().lower)
                                                                  .arg(map->dataRange().upper)));
    }
  };
  checkRanges("after showResult");
  for (const QSize size : {QSize(600, 900), QSize(1400, 500), QSize(900, 700)}) {
    grid.resize(size);  // a splitter drag or a dock toggled beside the grid
    QTRY_COMPARE(grid.size(), size);
    QTRY_VERIFY(!grid.isPreparing());
    checkRanges(
        qPrintable(QStringLiteral("after a resize to %1x%2").arg(size.width()).arg(size.height())));
  }
}

// Issue 28 item 13: a map title or note too long for its map wraps instead of being cut
// ("average o…ds", "reduced 327…57x8 (mean)"): three maps with their own colour ranges in
// their titles, in a grid the size of compare's, each of 400 x 400 cells reduced to its pixels.
void TestRender::longTitlesAndNotesWrapInsteadOfBeingCut() {
  mhaviz::Config c = smallConfig(false, false);
  c.tgt_len = 400;
  c.src_len = 400;
  auto r = std::make_shared<mhaviz::ForwardResult>(computeResult(c));
  HeatmapGrid grid;
  grid.setScrollWhenSmall(false);  // compare's grids: every map in view
  grid.resize(460, 330);
  grid.show();
  QVERIFY(QTest::qWaitForWindowExposed(&grid));
  ViewOptions view;
  view.perHeadScale = true;  // "average over heads   [0.000318, 0.000355]"
  showResult(grid, r, view);
  grid.plot()->replot();
  QCOMPARE(grid.mapCount(), 3);
  QStringList notes;
  for (QCPLayoutElement* e : grid.plot()->plotLayout()->elements(true)) {
    auto* text = dynamic_cast<MapText*>(e);
    if (text == nullptr || text->text().isEmpty()) continue;
    const QString shown = text->shownText();
    QVERIFY2(!shown.contains(QChar(0x2026)) && !text->isShortened(),
             qPrintable(QStringLiteral("'%1' drawn as '%2'").arg(text->text(), shown)));
    const QFontMetrics metrics(text->font());
    for (const QString& line : shown.split(QLatin1Char('\n'))) {
      QVERIFY2(metrics.horizontalAdvance(line) <= text->rect().width(),
               qPrintable(QStringLiteral("'%1' is %2 px in %3 px")
                              .arg(line)
                              .arg(metrics.horizontalAdvance(line))
                              .arg(text->rect().width())));
    }
    const auto lines = static_cast<int>(shown.count(QLatin1Char('\n'))) + 1;
    QVERIFY2(lines * metrics.lineSpacing() <= text->rect().height() + 1,
             qPrintable(QStringLiteral("%1 lines in %2 px").arg(lines).arg(text->rect().height())));
    if (text->text().startsWith(QLatin1String("reduced"))) notes << text->text();
  }
  QCOMPARE(notes.size(), 3);  // every map is reduced and says so
  QVERIFY(grid.mapTitleToolTip(2).startsWith(QStringLiteral("average over heads   [")));
}
