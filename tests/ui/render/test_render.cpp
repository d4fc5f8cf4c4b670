// Stage extraction, reduction and the heatmap grid widget (QtTest, offscreen).

#include <qcustomplot.h>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QtTest>
#include <cmath>
#include <functional>
#include <memory>
#include <random>

#include "mhaviz/core/base/errors.hpp"
#include "render/colormaps.hpp"
#include "render/heatmap_grid.hpp"
#include "render/grid_legend.hpp"
#include "render/map_text.hpp"
#include "render/reduce.hpp"
#include "render/result_maps.hpp"
#include "stages/stage_data.hpp"
#include "test_render_common.hpp"

using namespace mhaviz::ui;
using mhaviz::ui::test::computeResult;

namespace {

mhaviz::Config smallConfig(bool biasKv, bool zeroAttn) {
  mhaviz::Config c;
  c.embed_dim = 16;
  c.num_heads = 2;
  c.tgt_len = 5;
  c.src_len = 7;
  c.batch_size = 2;
  c.add_bias_kv = biasKv;
  c.add_zero_attn = zeroAttn;
  c.seed = 11;
  return c;
}

// Flat index into a (N, H, A, B) tensor.
std::int64_t at(const mhaviz::Tensor& t, std::int64_t n, std::int64_t h, std::int64_t a,
                std::int64_t b) {
  return ((n * t.size(1) + h) * t.size(2) + a) * t.size(3) + b;
}

// The grid's colour scale (the last one in the layout), or null.
QCPColorScale* colourScale(QCustomPlot* plot) {
  QCPColorScale* scale = nullptr;
  for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
    if (auto* s = qobject_cast<QCPColorScale*>(e)) scale = s;
  }
  return scale;
}

int countColorMaps(QCustomPlot* plot) {
  int count = 0;
  for (int i = 0; i < plot->plottableCount(); ++i) {
    if (qobject_cast<QCPColorMap*>(plot->plottable(i)) != nullptr) ++count;
  }
  return count;
}

}  // namespace

class TestRender : public QObject {
  Q_OBJECT

 private slots:
  void extractWeightsWithBiasAndZero() {
    const auto r = computeResult(smallConfig(true, true), /*causal=*/false);
    ViewOptions view;
    view.batch = 1;
    const StageData data = extractStage(r, view);
    QCOMPARE(static_cast<int>(data.maps.size()), 3);  // 2 heads + average
    QCOMPARE(data.maps[0].title, QStringLiteral("head 0"));
    QCOMPARE(data.maps[2].title, QStringLiteral("average over heads"));
    QCOMPARE(data.maps[0].rows, 5);
    QCOMPARE(data.maps[0].cols, 9);  // S + bias_k + zero
    QCOMPARE(data.maps[0].columns[6].label, QStringLiteral("6"));
    QCOMPARE(data.maps[0].columns[7].label, QStringLiteral("bias_k"));
    QVERIFY(data.maps[0].columns[7].kind == mhaviz::KeyKind::bias_k);
    QCOMPARE(data.maps[0].columns[8].label, QStringLiteral("zero"));
    QVERIFY(data.maps[0].columns[8].kind == mhaviz::KeyKind::zero);
    QVERIFY(!data.isSigned);
    QCOMPARE(data.lo, 0.0);
    QCOMPARE(data.hi, 1.0);
    // Row order: row i is query i of batch element 1, head h.
    for (int h = 0; h < 2; ++h) {
      for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 9; ++j) {
          const double expected = r.weights.value(at(r.weights, 1, h, i, j));
          QCOMPARE(
              data.maps[static_cast<std::size_t>(h)].values[static_cast<std::size_t>(i * 9 + j)],
              expected);
        }
      }
    }
    // The average is the mean of the heads.
    for (std::size_t k = 0; k < data.maps[2].values.size(); ++k) {
      const double mean = (data.maps[0].values[k] + data.maps[1].values[k]) / 2;
      QVERIFY(std::abs(data.maps[2].values[k] - mean) < 1e-12);
    }
    // Token labels replace indices for source keys only.
    view.keyLabels = {"a", "b", "c", "d", "e", "f", "g"};
    const StageData labelled = extractStage(r, view);
    QCOMPARE(labelled.maps[0].columns[2].label, QStringLiteral("c"));
    QCOMPARE(labelled.maps[0].columns[7].label, QStringLiteral("bias_k"));
  }

  void extractOtherStages() {
    const auto r = computeResult(smallConfig(true, false), /*causal=*/true);
    ViewOptions view;
    view.stage = Stage::k;
    StageData k = extractStage(r, view);
    QCOMPARE(static_cast<int>(k.maps.size()), 2);  // no average for k
    QCOMPARE(k.maps[0].rows, 8);                   // S + bias_k rows
    QCOMPARE(k.maps[0].cols, 8);                   // head_dim
    QCOMPARE(k.maps[0].rowsInfo[7].label, QStringLiteral("bias_k"));
    QVERIFY(k.isSigned);
    QCOMPARE(k.lo, -k.hi);
    QCOMPARE(k.maps[1].values[3 * 8 + 2], r.k.value(at(r.k, 0, 1, 3, 2)));

    view.stage = Stage::scores;
    StageData scores = extractStage(r, view);
    QCOMPARE(scores.maps[0].cols, 8);
    // Causal mask: key j > query i is masked (-inf); the bias_k column never is.
    QCOMPARE(static_cast<int>(scores.maps[0].masked[0 * 8 + 1]), 1);
    QCOMPARE(static_cast<int>(scores.maps[0].masked[1 * 8 + 1]), 0);
    QCOMPARE(static_cast<int>(scores.maps[0].masked[0 * 8 + 7]), 0);
    QVERIFY(std::isinf(scores.maps[0].values[1]) && scores.maps[0].values[1] < 0);

    view.stage = Stage::output;
    StageData out = extractStage(r, view);
    QCOMPARE(static_cast<int>(out.maps.size()), 1);
    QCOMPARE(out.maps[0].rows, 5);
    QCOMPARE(out.maps[0].cols, 16);

    view.stage = Stage::weights;
    view.soloHead = 1;
    StageData solo = extractStage(r, view);
    QCOMPARE(static_cast<int>(solo.maps.size()), 1);
    QCOMPARE(solo.maps[0].title, QStringLiteral("head 1"));

    view = ViewOptions{};
    view.batch = 5;
    bool threw = false;
    try {
      (void)extractStage(r, view);
    } catch (const mhaviz::InvalidInput& e) {
      threw = QString::fromUtf8(e.what()).contains("batch element 5");
    }
    QVERIFY(threw);
  }

  void averagePropagatesNan() {
    const auto r = computeResult(smallConfig(false, false), false, /*nanRow=*/true);
    const StageData data = extractStage(r, ViewOptions{});
    QVERIFY(std::isnan(data.maps[0].values[0]));
    QVERIFY(std::isnan(data.maps[2].values[3]));
    QVERIFY(!std::isnan(data.maps[2].values[7 + 3]));
  }

  void reductionKeepsBlockStatistics() {
    MapData m;
    m.rows = m.cols = 600;
    m.values.resize(600 * 600);
    std::mt19937 gen(3);
    std::uniform_real_distribution<double> dist(-1, 1);
    for (double& x : m.values) x = dist(gen);
    const int block = blockFactor(600, 140);  // 600 cells into 140 px -> blocks of 5
    QCOMPARE(block, 5);
    for (Reduce rule : {Reduce::mean, Reduce::max}) {
      const ReducedGrid g = reduceRegion(m, 0, 0, 600, 600, block, block, rule);
      QCOMPARE(g.rows, 120);
      QCOMPARE(g.cols, 120);
      for (int bi = 0; bi < g.rows; bi += 7) {
        for (int bj = 0; bj < g.cols; bj += 11) {
          double sum = 0, mx = -2;
          for (int r = bi * 5; r < bi * 5 + 5; ++r) {
            for (int c = bj * 5; c < bj * 5 + 5; ++c) {
              sum += m.values[static_cast<std::size_t>(r * 600 + c)];
              mx = std::max(mx, m.values[static_cast<std::size_t>(r * 600 + c)]);
            }
          }
          const double expected = rule == Reduce::mean ? sum / 25 : mx;
          QVERIFY(std::abs(g.values[static_cast<std::size_t>(bi * 120 + bj)] - expected) < 1e-12);
        }
      }
    }
    // A partial last block averages the cells it has; a NaN makes its block NaN.
    m.values[599 * 600 + 599] = std::numeric_limits<double>::quiet_NaN();
    const ReducedGrid p = reduceRegion(m, 0, 0, 600, 600, 7, 7, Reduce::mean);
    QCOMPARE(p.rows, 86);
    double sum = 0;
    for (int r = 595; r < 600; ++r) sum += m.values[static_cast<std::size_t>(r * 600 + 0)];
    for (int c = 1; c < 7; ++c) {
      for (int r = 595; r < 600; ++r) sum += m.values[static_cast<std::size_t>(r * 600 + c)];
    }
    QVERIFY(std::abs(p.values[85 * 86 + 0] - sum / 35) < 1e-12);
    QVERIFY(std::isnan(p.values[85 * 86 + 85]));
  }

  void gridShowsMapsAndLabels() {
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
  void legendKeysFitOnANarrowGrid() {
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

  // Automatic range: weights share 0..the largest weight shown, and the scale's title says so;
  // off, the fixed 0..1 with the unit alone.
  void automaticRangeUsesTheWholeColormap() {
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
  void scaleTitleNeverOutrunsItsBar() {
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
  // A grid behind another page (the model view in front) takes its prepared maps without
  // painting them on the GUI thread; shown, it draws them.
  void hiddenGridDrawsItsPictureWhenShown() {
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
    QVERIFY2(replots.count() == 0, qPrintable(QString::number(replots.count())));  // hidden: nothing painted
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

  void colourRangeSurvivesResizes() {
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
      QVERIFY2(scale->dataRange() == QCPRange(0, 1),
               qPrintable(QStringLiteral("%1: scale %2..%3")
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
      checkRanges(qPrintable(
          QStringLiteral("after a resize to %1x%2").arg(size.width()).arg(size.height())));
    }
  }

  // With background preparation (the window) the statistics of whole maps are gathered while
  // they are reduced, in one reading: the same per-map ranges, NaN flags and colour range as
  // computeStats on copies of the maps (masked -inf scores and a fully masked row included).
  void backgroundStatisticsEqualTheDirectOnes() {
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

  // Issue 28 item 13: wrapped text never breaks a signed number or "-inf" in two ("is -|inf"
  // in the weights caption), at any width.
  void wrappingNeverSplitsASignedNumber() {
    const QString text = QStringLiteral(
        "Masked keys get weight 0. A row whose every key is masked is -inf everywhere, so "
        "softmax computes 0/0 = NaN; scores run from -12.5 to +3 and a float mask adds -1e9.");
    QFont font;
    int breaksChecked = 0;
    for (int width = 40; width <= 700; ++width) {
      const QStringList lines = wrapLines(text, font, width);
      QCOMPARE(lines.join(QString()).remove(QLatin1Char(' ')),
               QString(text).remove(QLatin1Char(' ')));  // nothing lost or added
      for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
        ++breaksChecked;
        const QString& end = lines.at(i);
        const QString& next = lines.at(i + 1);
        const bool sign = end.endsWith(QLatin1Char('-')) || end.endsWith(QLatin1Char('+'));
        QVERIFY2(!(sign && (next.front().isDigit() || next.startsWith(QLatin1String("inf")))),
                 qPrintable(QStringLiteral("at %1 px: '%2' | '%3'").arg(width).arg(end, next)));
      }
    }
    QVERIFY(breaksChecked > 100);
  }

  // Issue 28 item 13: a map title or note too long for its map wraps instead of being cut
  // ("average o…ds", "reduced 327…57x8 (mean)"): three maps with their own colour ranges in
  // their titles, in a grid the size of compare's, each of 400 x 400 cells reduced to its pixels.
  void longTitlesAndNotesWrapInsteadOfBeingCut() {
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
      QVERIFY2(
          lines * metrics.lineSpacing() <= text->rect().height() + 1,
          qPrintable(QStringLiteral("%1 lines in %2 px").arg(lines).arg(text->rect().height())));
      if (text->text().startsWith(QLatin1String("reduced"))) notes << text->text();
    }
    QCOMPARE(notes.size(), 3);  // every map is reduced and says so
    QVERIFY(grid.mapTitleToolTip(2).startsWith(QStringLiteral("average over heads   [")));
  }

  void bigGridIsReducedToScreenResolution() {
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
};

QTEST_MAIN(TestRender)
#include "test_render.moc"
