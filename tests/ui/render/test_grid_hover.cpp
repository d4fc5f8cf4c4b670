// Hover text of the heatmap grid on maps whose axes are not queries and keys (QtTest,
// offscreen).

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QtTest>
#include <memory>

#include "render/heatmap_grid.hpp"
#include "render/result_maps.hpp"
#include "stages/stage_data.hpp"
#include "test_render_common.hpp"

using namespace mhaviz::ui;
using mhaviz::ui::test::computeResult;

class TestGridHover : public QObject {
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
    QCOMPARE(grid.mapCount(), 6);  // W_q, W_k, W_v for each of the 2 heads (hd = 8)
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

QTEST_MAIN(TestGridHover)
#include "test_grid_hover.moc"
