// The data the heatmap grid draws: reduction to blocks, wrapped text (QtTest, offscreen; the
// class TestRender is in test_render.hpp, which says where its other slots are). The stages it
// draws are extracted by the stages layer, tested in tests/ui/stages.

#include <QtTest>
#include <cmath>
#include <limits>
#include <random>

#include "render/map_text.hpp"
#include "render/reduce.hpp"
#include "stages/stage_data.hpp"
#include "test_render.hpp"

using namespace mhaviz::ui;

void TestRender::reductionKeepsBlockStatistics() {
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

// Issue 28 item 13: wrapped text never breaks a signed number or "-inf" in two ("is -|inf"
// in the weights caption), at any width.
void TestRender::wrappingNeverSplitsASignedNumber() {
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

QTEST_MAIN(TestRender)
