// The window's reduced view (Document + Computation + ComputeWorker): a configuration whose maps
// exceed the memory limit is computed stripe by stripe and folded to the screen; the values
// equal the block means / maxima of the full weights, the status text says so, changing the
// fold or the batch element recomputes, and a configuration too large even reduced is refused.
// Zooming into a region computes that region again: exact cells (equal to forward()'s weights)
// once it is small enough, else the fold of the region's cells; zooming out returns to the whole.

#include <qcustomplot.h>

#include <QApplication>
#include <QTest>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <tuple>

#include "../document/announced.hpp"
#include "compute/computation.hpp"
#include "document/document.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/plan/problem.hpp"
#include "prompted_window.hpp"
#include "render/head_measures_view.hpp"
#include "render/heatmap_grid.hpp"
#include "render/result_maps.hpp"
#include "stages/reduced_result.hpp"
#include "stages/stage_data.hpp"
#include "window/reduced_zoom.hpp"

using mhaviz::ui::Computation;
using mhaviz::ui::Document;
using mhaviz::ui::Reduce;
using mhaviz::ui::ResultPtr;
using mhaviz::ui::Stage;
using mhaviz::ui::testing::Announced;

namespace {

// L = S = 1100 with kReducedCells = 512 values a map: blocks of 3 x 3 cells (367 x 367 values).
mhaviz::Config longConfig() {
  mhaviz::Config c;
  c.embed_dim = 16;
  c.num_heads = 2;
  c.batch_size = 2;
  c.tgt_len = 1100;
  c.src_len = 1100;
  c.attn_mask_spec.kind = mhaviz::gen::MaskKind::causal;
  return c;
}
constexpr std::uint64_t kLimit = 40ULL << 20;  // every map needs 77 MiB; reduced far less

/// Waits for the next result the document announces (the test's event loop delivers it).
ResultPtr nextResult(Document& doc) {
  const Announced results(&doc, Document::Change::result);
  if (!QTest::qWaitFor([&results] { return results.count() != 0; }, 120000)) return nullptr;
  return results.results.first();
}

/// Max |reduced - block fold of full| over every value of batch element n, for a reduced result
/// whose value (0, 0) is the block of bh x bw cells at query q0, key k0, clipped to the region
/// [q0, qEnd) x [k0, kEnd).
double foldRegionError(const mhaviz::ForwardResult& reduced, const mhaviz::ForwardResult& full,
                       std::int64_t n, bool max, std::int64_t q0, std::int64_t qEnd,
                       std::int64_t k0, std::int64_t kEnd, std::int64_t bh, std::int64_t bw) {
  double worst = 0.0;
  if (reduced.L != (qEnd - q0 + bh - 1) / bh || reduced.Sx != (kEnd - k0 + bw - 1) / bw) {
    return INFINITY;
  }
  for (std::int64_t h = 0; h < full.H; ++h) {
    for (std::int64_t r = 0; r < reduced.L; ++r) {
      for (std::int64_t c = 0; c < reduced.Sx; ++c) {
        double sum = 0.0, mx = -INFINITY;
        std::int64_t cells = 0;
        for (std::int64_t i = q0 + r * bh; i < std::min(qEnd, q0 + (r + 1) * bh); ++i) {
          for (std::int64_t j = k0 + c * bw; j < std::min(kEnd, k0 + (c + 1) * bw); ++j) {
            const double w = full.weights.value(((n * full.H + h) * full.L + i) * full.Sx + j);
            sum += w;
            mx = std::max(mx, w);
            ++cells;
          }
        }
        const double want = max ? mx : sum / static_cast<double>(cells);
        const double got =
            reduced.weights.value(((n * reduced.H + h) * reduced.L + r) * reduced.Sx + c);
        worst = std::max(worst, std::abs(got - want));
      }
    }
  }
  return worst;
}

/// The fold of the whole map (blocks of 3 x 3 cells).
double foldError(const mhaviz::ForwardResult& reduced, const mhaviz::ForwardResult& full,
                 std::int64_t n, bool max) {
  return foldRegionError(reduced, full, n, max, 0, full.L, 0, full.Sx, 3, 3);
}

}  // namespace

class ReducedViewTest : public QObject {
  Q_OBJECT
 private slots:
  void mapsOverTheLimitAreShownReducedAndExact() {
    Document doc;
    Computation c(&doc);
    c.setMemoryLimit(kLimit);
    const Announced reduced(&doc, Document::Change::reduced);
    doc.changeConfig(longConfig(), QStringLiteral("long"));
    QCOMPARE(doc.computed().error, QString());
    ResultPtr result = nextResult(doc);
    QVERIFY(result != nullptr);
    QCOMPARE(reduced.count(), 1);
    QCOMPARE(reduced.descriptions.at(0), QStringLiteral("reduced: block mean of 3x3 cells"));
    QCOMPARE(result->L, 367);
    QCOMPARE(result->weights.shape(), (mhaviz::Shape{2, 2, 367, 367}));
    QCOMPARE(result->config.query_labels.at(2), std::string("6"));
    QVERIFY(result->is_reduced());  // the cell breakdown says it is reduced
    // Issue 40 defect 5: the head measures said "recompute it", which cannot help a reduced
    // result; they say what would.
    mhaviz::ui::HeadMeasuresView measures;
    measures.setResult(result, nullptr, 0);
    QVERIFY2(!measures.message().contains(QStringLiteral("recompute")),
             qPrintable(measures.message()));
    QVERIFY2(measures.message().contains(QStringLiteral("L and S")),
             qPrintable(measures.message()));

    const mhaviz::Problem p = mhaviz::make_problem(longConfig());
    const mhaviz::ForwardResult full = mhaviz::forward(p.config, p.params, p.inputs);
    QVERIFY(foldError(*result, full, 0, false) < 1e-6);

    // Issue 28 item 5: the causal map's triangle shows. A block whose every weight is 0 holds
    // masked keys only and is drawn masked; a block on or below the diagonal is not. The colour
    // range is 0..the largest block mean (about 0.17 here), not 0..1.
    const mhaviz::ui::StageData weights = mhaviz::ui::extractStage(*result, doc.view());
    QVERIFY(weights.rangeFromData);
    const mhaviz::ui::MapData& head = weights.maps.front();
    for (const auto& [row, col, masked] : {std::tuple{0, 1, true},
                                           {0, 366, true},
                                           {100, 101, true},
                                           {0, 0, false},
                                           {100, 100, false},
                                           {366, 0, false}}) {
      QVERIFY2(head.maskedAt(row, col) == masked,
               qPrintable(QStringLiteral("block (%1, %2)").arg(row).arg(col)));
    }
    QVERIFY(weights.maps.back().maskedAt(0, 366));  // the average: masked in every head

    // Block max of batch element 1: the fold and the batch element are recomputed.
    mhaviz::ui::ViewOptions view = doc.view();
    view.reduce = Reduce::max;
    view.batch = 1;
    view.stage = Stage::scores;  // not in a reduced result: the view keeps the weights
    doc.setView(view);
    QCOMPARE(doc.view().stage, Stage::weights);
    result = nextResult(doc);
    QVERIFY(result != nullptr);
    QCOMPARE(reduced.descriptions.last(), QStringLiteral("reduced: block max of 3x3 cells"));
    QVERIFY(foldError(*result, full, 1, true) < 1e-6);

    // Within the limit the same configuration is computed in full again.
    c.setMemoryLimit(4ULL << 30);
    c.recompute();
    result = nextResult(doc);
    QVERIFY(result != nullptr);
    QCOMPARE(result->L, 1100);
    QVERIFY(!result->is_reduced());
    QCOMPARE(reduced.descriptions.last(), QString());
  }

  void zoomingComputesTheRegion() {
    Document doc;
    Computation c(&doc);
    c.setMemoryLimit(kLimit);
    const Announced reduced(&doc, Document::Change::reduced);
    doc.changeConfig(longConfig(), QStringLiteral("long"));
    QVERIFY(nextResult(doc) != nullptr);
    QCOMPARE(doc.computed().region,
             (mhaviz::ui::ReducedRegion{0, 1100, 0, 1100, 3, 3, 1100, 1100}));
    const mhaviz::Problem p = mhaviz::make_problem(longConfig());
    const mhaviz::ForwardResult full = mhaviz::forward(p.config, p.params, p.inputs);

    // Queries 300..599 and keys 150..449: 300 x 300 cells fit 512 values, so they are the exact
    // weights.
    c.zoomReduced(300, 600, 150, 450);
    ResultPtr result = nextResult(doc);
    QVERIFY(result != nullptr);
    QCOMPARE(reduced.descriptions.last(),
             QStringLiteral("exact cells of queries 300-599, keys 150-449"));
    QCOMPARE(result->L, 300);
    QCOMPARE(result->Sx, 300);
    QCOMPARE(result->config.query_labels.front(), std::string("300"));
    QCOMPARE(result->config.key_labels.at(1), std::string("151"));
    QVERIFY(foldRegionError(*result, full, 0, false, 300, 600, 150, 450, 1, 1) < 1e-6);

    // Zooming out over the whole region returns to the whole map.
    c.zoomReducedOut();
    result = nextResult(doc);
    QVERIFY(result != nullptr);
    QCOMPARE(result->L, 367);
    QCOMPARE(reduced.descriptions.last(), QStringLiteral("reduced: block mean of 3x3 cells"));
    QVERIFY(foldError(*result, full, 0, false) < 1e-6);

    // A bigger region (queries 0..899, every key) is still folded: 2 x 3 blocks of its cells,
    // here by block max.
    mhaviz::ui::ViewOptions view = doc.view();
    view.reduce = Reduce::max;
    doc.setView(view);
    QVERIFY(nextResult(doc) != nullptr);
    c.zoomReduced(0, 900, 0, 1100);
    result = nextResult(doc);
    QVERIFY(result != nullptr);
    QCOMPARE(reduced.descriptions.last(),
             QStringLiteral("zoomed: block max of 2x3 cells of queries 0-899, keys 0-1099"));
    QVERIFY(foldRegionError(*result, full, 0, true, 0, 900, 0, 1100, 2, 3) < 1e-6);

    // Folded to the values asked for (a map's pixels): 300 x 300 cells into at most 120 x 200
    // values are blocks of 3 x 2.
    c.zoomReduced(300, 600, 150, 450, QSize(200, 120));
    result = nextResult(doc);
    QVERIFY(result != nullptr);
    QCOMPARE(doc.computed().region,
             (mhaviz::ui::ReducedRegion{300, 600, 150, 450, 3, 2, 1100, 1100}));
    QVERIFY(foldRegionError(*result, full, 0, true, 300, 600, 150, 450, 3, 2) < 1e-6);
  }

  void zoomingTheGridDrawsExactCells() {
    // The window's path: the grid's zoom settles, the worker computes the region, the grid
    // draws its cells labelled with their query / key positions.
    Document doc;
    Computation c(&doc);
    c.setMemoryLimit(kLimit);
    mhaviz::ui::HeatmapGrid grid;
    grid.resize(800, 600);
    mhaviz::ui::ReducedZoom zoom(&grid, &doc, &c, nullptr);
    connect(&doc, &Document::changed, &grid, [&grid, &doc](Document::Changes what) {
      if (what & Document::Change::result) showResult(grid, doc.computed().result, doc.view());
    });
    doc.changeConfig(longConfig(), QStringLiteral("long"));
    QVERIFY(nextResult(doc) != nullptr);
    QCOMPARE(grid.stageData().maps.front().rows, 367);

    // Show values 10..39 across and 20..59 down (367 rows: y counts up from the bottom).
    QCPAxisRect* rect = grid.plot()->axisRect(0);
    QVERIFY(rect != nullptr);
    rect->axis(QCPAxis::atBottom)->setRange(QCPRange(9.6, 39.4));
    rect->axis(QCPAxis::atLeft)->setRange(QCPRange(367 - 60 + 0.4, 367 - 20 - 0.6));
    const ResultPtr result = nextResult(doc);
    QVERIFY(result != nullptr);
    // Cells 10.1..39.9 across and 20.1..59.1 down of blocks of 3: keys 30..119, queries 60..177.
    QCOMPARE(doc.computed().region,
             (mhaviz::ui::ReducedRegion{60, 178, 30, 120, 1, 1, 1100, 1100}));
    const mhaviz::Problem p = mhaviz::make_problem(longConfig());
    const mhaviz::ForwardResult full = mhaviz::forward(p.config, p.params, p.inputs);
    QCOMPARE(grid.stageData().maps.front().rows, 118);
    QCOMPARE(grid.stageData().maps.front().cols, 90);
    QCOMPARE(grid.columnLabels(0).front(), QStringLiteral("30"));
    double worst = 0.0;
    for (int h = 0; h < 2; ++h) {
      const mhaviz::ui::MapData& map = grid.stageData().maps.at(static_cast<std::size_t>(h));
      for (int r = 0; r < 118; ++r) {
        for (int col = 0; col < 90; ++col) {
          const double want = full.weights.value(((0 * 2 + h) * 1100 + 60 + r) * 1100 + 30 + col);
          worst = std::max(worst, std::abs(map.valueAt(r, col) - want));
        }
      }
    }
    QVERIFY(worst < 1e-6);
  }

  // Issue 28 item 5: the wheel zooms the reduced view about the cursor, as every map viewer
  // does. A causal 4096 x 4096 map (blocks of 8 cells); notches over its top-left corner:
  // the point under the cursor stays under it through every recomputed region (it drifted by
  // hundreds of cells), exact cells come within a few notches (never, after 33 notches at
  // 32768), and each zoomed region arrives folded to the map's pixels, never reduced a second
  // time on screen ("reduced 156x296 -> 78x148"). Wheeling out returns to the whole map.
  void wheelZoomStaysUnderTheCursorAndReachesExactCells() {
    Document doc;
    Computation c(&doc);
    c.setMemoryLimit(kLimit);
    mhaviz::ui::HeatmapGrid grid;
    grid.resize(900, 700);
    grid.show();
    QVERIFY(QTest::qWaitForWindowExposed(&grid));
    mhaviz::ui::ReducedZoom zoom(&grid, &doc, &c, nullptr);
    connect(&doc, &Document::changed, &grid, [&grid, &doc](Document::Changes what) {
      if (what & Document::Change::result) showResult(grid, doc.computed().result, doc.view());
    });
    mhaviz::Config config = longConfig();
    config.tgt_len = config.src_len = 4096;
    config.batch_size = 1;
    doc.changeConfig(config, QStringLiteral("long"));
    QVERIFY(nextResult(doc) != nullptr);
    QCOMPARE(doc.computed().region.blockRows, 8);
    const auto settled = [&] {
      return QTest::qWaitFor([&] { return !zoom.isSettling() && !doc.computed().busy; }, 120000) &&
             mhaviz::ui::testing::pictureSettled(grid);
    };
    QVERIFY(settled());
    // The point under the cursor, in cells of the whole map (x: key, y: query).
    const QRect first = grid.plot()->axisRect(0)->rect();
    const QPointF cursor(first.left() + 0.12 * first.width(), first.top() + 0.1 * first.height());
    const auto underCursor = [&] {
      // As QCustomPlot draws it: the axes' coordinates at the cursor (cell i spans i +- 0.5).
      QCPAxisRect* rect = grid.plot()->axisRect(0);
      const double rows = grid.stageData().maps.front().rows;
      const QPointF at(rect->axis(QCPAxis::atBottom)->pixelToCoord(cursor.x()) + 0.5,
                       rows - (rect->axis(QCPAxis::atLeft)->pixelToCoord(cursor.y()) + 0.5));
      return mhaviz::ui::toWholeMap(QRectF(at, at), doc.computed().region).topLeft();
    };
    const auto wholeCellsPerPixel = [&] {
      const mhaviz::ui::ReducedRegion& r = doc.computed().region;
      const QRectF cells = grid.visibleCells();
      const QSize pixels = grid.mapPixels();
      return std::max(cells.width() * static_cast<double>(r.blockCols) / pixels.width(),
                      cells.height() * static_cast<double>(r.blockRows) / pixels.height());
    };
    const QPointF target = underCursor();
    const auto wheel = [&](int angle) {
      QWheelEvent event(cursor, grid.plot()->mapToGlobal(cursor), QPoint(), QPoint(0, angle),
                        Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
      QApplication::sendEvent(grid.plot(), &event);
    };
    int notches = 0;
    while (doc.computed().region.blockRows != 1 || doc.computed().region.blockCols != 1) {
      QVERIFY2(++notches <= 6, qPrintable(QStringLiteral("still %1x%2 blocks after 6 notches")
                                              .arg(doc.computed().region.blockRows)
                                              .arg(doc.computed().region.blockCols)));
      wheel(120);
      QVERIFY(settled());
      const QPointF now = underCursor();
      const double drift = std::max(std::abs(now.x() - target.x()), std::abs(now.y() - target.y()));
      // Under the cursor to a pixel or two (tick labels may move a map by a pixel).
      QVERIFY2(drift <= std::max(1.0, 2 * wholeCellsPerPixel()),
               qPrintable(QStringLiteral("notch %1: query %2, key %3 under the cursor (was %4, %5)")
                              .arg(notches)
                              .arg(now.y())
                              .arg(now.x())
                              .arg(target.y())
                              .arg(target.x())));
      // Folded to the map's pixels by the worker: drawn cell for cell.
      const mhaviz::ui::MapData& map = grid.stageData().maps.front();
      const QSize pixels = grid.mapPixels();
      QVERIFY2(map.cols <= pixels.width() && map.rows <= pixels.height(),
               qPrintable(QStringLiteral("%1x%2 values in a %3x%4 px map")
                              .arg(map.rows)
                              .arg(map.cols)
                              .arg(pixels.height())
                              .arg(pixels.width())));
      auto* colours = qobject_cast<QCPColorMap*>(grid.plot()->plottable(0));
      QCOMPARE(colours->data()->keySize(), std::max(2, map.cols));
    }
    // Exact cells around the point: the weights themselves.
    const mhaviz::ui::ReducedRegion exact = doc.computed().region;
    QVERIFY(
        QRectF(QPointF(static_cast<double>(exact.keyBegin), static_cast<double>(exact.queryBegin)),
               QPointF(static_cast<double>(exact.keyEnd), static_cast<double>(exact.queryEnd)))
            .contains(target));

    // Out again: each notch over a map that shows all of its region widens it, back to the
    // whole map.
    int out = 0;
    while (!doc.computed().region.whole()) {
      QVERIFY2(++out <= 8, "not back at the whole map after 8 notches out");
      wheel(-120);
      QVERIFY(settled());
    }
    QCOMPARE(doc.computed().region.blockRows, 8);
  }

  void tooLargeEvenReducedIsRefused() {
    mhaviz::Config c = longConfig();
    c.attn_mask_spec.shape = mhaviz::gen::MaskShape::three_d;  // 4 x 1.2 MB of mask tensor
    const QString message = Computation::quickCheck(c, 4ULL << 20);
    QVERIFY2(message.startsWith(QStringLiteral("this configuration needs")), qPrintable(message));
    QVERIFY(Computation::quickCheck(longConfig(), kLimit).isEmpty());
  }
};

QTEST_MAIN(ReducedViewTest)
#include "test_reduced_view.moc"
