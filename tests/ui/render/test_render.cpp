// The data the heatmap grid draws: stage extraction, reduction to blocks, wrapped text
// (QtTest, offscreen; the class TestRender is in test_render.hpp, which says where its other
// slots are).

#include <QtTest>
#include <cmath>
#include <limits>
#include <random>

#include "mhaviz/core/base/errors.hpp"
#include "render/map_text.hpp"
#include "render/reduce.hpp"
#include "stages/stage_data.hpp"
#include "test_render.hpp"

using namespace mhaviz::ui;
using mhaviz::ui::test::at;
using mhaviz::ui::test::computeResult;
using mhaviz::ui::test::smallConfig;

void TestRender::extractWeightsWithBiasAndZero() {
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
        QCOMPARE(data.maps[static_cast<std::size_t>(h)].values[static_cast<std::size_t>(i * 9 + j)],
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

void TestRender::extractOtherStages() {
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

void TestRender::averagePropagatesNan() {
  const auto r = computeResult(smallConfig(false, false), false, /*nanRow=*/true);
  const StageData data = extractStage(r, ViewOptions{});
  QVERIFY(std::isnan(data.maps[0].values[0]));
  QVERIFY(std::isnan(data.maps[2].values[3]));
  QVERIFY(!std::isnan(data.maps[2].values[7 + 3]));
}

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
