// Teaching features without the window (TestTeach, test_teach.hpp): the grid's solo head of the
// scores, the weight matrices' features, the bias_k example and help (every stage's maps against
// the core's tensors are tested in tests/ui/stages).

#include <qcustomplot.h>

#include <QTest>
#include <QTextDocument>
#include <cmath>
#include <cstdint>
#include <memory>

#include "mhaviz/core/forward/derived_maps.hpp"
#include "render/heatmap_grid.hpp"
#include "render/result_maps.hpp"
#include "stages/stage_data.hpp"
#include "teach/cell_breakdown.hpp"
#include "teach/examples.hpp"
#include "teach/explanations.hpp"
#include "teach/weight_entry.hpp"
#include "test_teach.hpp"

using namespace mhaviz::ui;  // NOLINT(google-build-using-namespace): test brevity
using mhaviz::ui::test::at4;
using mhaviz::ui::test::biasZeroConfig;
using mhaviz::ui::test::compute;
using mhaviz::ui::test::ComputedProblem;
using mhaviz::ui::test::same;

void TestTeach::theGridShowsTheSelectedHeadOfTheScores() {
  const ComputedProblem c = compute(biasZeroConfig());
  auto shared = std::make_shared<const mhaviz::ForwardResult>(c.result);
  HeatmapGrid grid;
  grid.resize(800, 600);
  ViewOptions view;
  view.stage = Stage::scores;
  view.batch = 1;
  view.soloHead = 1;
  showResult(grid, shared, view);
  QCOMPARE(grid.mapCount(), 1);
  const MapData& m = grid.stageData().maps.at(0);
  const mhaviz::Tensor scores = mhaviz::derived_all(c.result, mhaviz::DerivedMap::scores);
  for (int i = 0; i < m.rows; ++i) {
    for (int j = 0; j < m.cols; ++j) {
      QVERIFY(same(m.values[static_cast<std::size_t>(i * m.cols + j)], at4(scores, 1, 1, i, j)));
    }
  }
}

// Issue 28 item 8: W_q / W_k / W_v and out_proj.weight called their rows "query" and their
// columns "key". A row of a weight matrix makes an output feature, a column reads an input
// feature: the axis titles, the row labels and the breakdown of an entry say so.
void TestTeach::weightMatricesNameOutputAndInputFeatures() {
  mhaviz::Config config;
  config.embed_dim = 8;
  config.num_heads = 2;
  config.kdim = 5;  // k_proj_weight is (E, kdim): its columns are key features, not keys
  const ComputedProblem c = compute(config);
  auto shared = std::make_shared<const mhaviz::ForwardResult>(c.result);
  HeatmapGrid grid;
  grid.resize(900, 700);
  grid.setAxisTitles(true);
  for (Stage stage : {Stage::in_proj_weight, Stage::out_proj_weight}) {
    ViewOptions view;
    view.stage = stage;
    view.queryLabels = {QStringLiteral("The"), QStringLiteral("cat"), QStringLiteral("sat")};
    showResult(grid, shared, view);
    QStringList titles, rowTicks;
    for (QCPAxisRect* rect : grid.plot()->axisRects()) {
      for (QCPAxis* axis : rect->axes()) {
        if (!axis->label().isEmpty()) titles << axis->label();
      }
      auto ticker = rect->axis(QCPAxis::atLeft)->ticker().dynamicCast<QCPAxisTickerText>();
      if (ticker) {
        for (const QString& t : ticker->ticks()) rowTicks << t;
      }
    }
    QVERIFY2(titles.contains(QStringLiteral("output feature")), qPrintable(titles.join(u',')));
    QVERIFY2(titles.contains(QStringLiteral("input feature")), qPrintable(titles.join(u',')));
    QVERIFY2(!titles.contains(QStringLiteral("query")), qPrintable(titles.join(u',')));
    QVERIFY2(!titles.contains(QStringLiteral("key")), qPrintable(titles.join(u',')));
    QVERIFY2(!rowTicks.contains(QStringLiteral("cat")), qPrintable(rowTicks.join(u',')));
    // Head 1's slice of W_q is output features hd .. 2hd-1, and its rows say so.
    if (stage == Stage::in_proj_weight) {
      QVERIFY2(rowTicks.contains(QString::number(2 * c.result.hd - 1)),
               qPrintable(rowTicks.join(u',')));
    }
  }
  // The breakdown of W_k head 1, row 2, column 4: k_proj_weight[1*hd + 2, 4], the key input's
  // feature 4 making feature 6 of k.
  ViewOptions view;
  view.stage = Stage::in_proj_weight;
  const WeightEntry e = weightEntry(c.result, view, /*map W_k head 1*/ 3, 2, 4);
  const std::int64_t hd = c.result.hd;
  QCOMPARE(e.matrix, QStringLiteral("k_proj_weight"));
  QCOMPARE(e.head, std::int64_t{1});
  QCOMPARE(e.outFeature, hd + 2);
  QCOMPARE(e.inFeature, std::int64_t{4});
  QCOMPARE(e.value, c.problem.params.k_proj_weight->value((hd + 2) * 5 + 4));
  QTextDocument page;
  page.setHtml(weightEntryHtml(e));
  const QString text = page.toPlainText().simplified();
  QVERIFY2(
      text.contains(QStringLiteral("output feature: this row makes feature %1 of k").arg(hd + 2)),
      qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("reads feature 4 of the key input")), qPrintable(text));
  QVERIFY(!text.contains(QStringLiteral("query")));
  // out_proj.weight: column c reads feature c of the heads concatenated (head c / hd).
  view.stage = Stage::out_proj_weight;
  const WeightEntry o = weightEntry(c.result, view, 0, 3, 5);
  QCOMPARE(o.value, c.problem.params.out_proj_weight->value(3 * 8 + 5));
  page.setHtml(weightEntryHtml(o));
  QVERIFY2(page.toPlainText().simplified().contains(
               QStringLiteral("head %1's dimension %2").arg(5 / hd).arg(5 % hd)),
           qPrintable(page.toPlainText()));
}

// Issue 28 item 13: the example used identity weights, so bias_k was a zero vector and its
// column looked like the zero key's. Its weights now tell them apart: bias_k's raw score is
// not 0 and its weight differs from the zero key's.
void TestTeach::theBiasKvExampleTellsBiasKFromTheZeroKey() {
  const ComputedProblem c =
      compute(loadExample(QStringLiteral(":/examples/bias_kv_and_zero_attn.json")));
  const mhaviz::ForwardResult& r = c.result;
  QCOMPARE(r.columns[static_cast<std::size_t>(r.Sx - 2)].kind, mhaviz::KeyKind::bias_k);
  QCOMPARE(r.columns[static_cast<std::size_t>(r.Sx - 1)].kind, mhaviz::KeyKind::zero);
  const mhaviz::Tensor raw = mhaviz::derived_all(r, mhaviz::DerivedMap::raw_scores);
  double rawSpread = 0, weightSpread = 0;
  for (std::int64_t h = 0; h < r.H; ++h) {
    for (std::int64_t i = 0; i < r.L; ++i) {
      const double biasRaw = at4(raw, 0, h, i, r.Sx - 2);
      QCOMPARE(at4(raw, 0, h, i, r.Sx - 1), 0.0);  // the zero key: exactly 0
      rawSpread = std::max(rawSpread, std::abs(biasRaw));
      weightSpread = std::max(weightSpread, std::abs(at4(r.weights, 0, h, i, r.Sx - 2) -
                                                     at4(r.weights, 0, h, i, r.Sx - 1)));
    }
  }
  QVERIFY2(rawSpread > 0.5, qPrintable(QString::number(rawSpread)));
  QVERIFY2(weightSpread > 0.05, qPrintable(QString::number(weightSpread)));
}

// Issue 28 item 14: the help said bias_k is appended, not prepended, but not what it is: a key
// with no query row that never attends, a learned null key / attention sink. The facts from
// the core, then the help page and the breakdown of a bias_k cell.
void TestTeach::biasKHelpSaysItIsAKeyWithoutAQuery() {
  mhaviz::Config config;
  config.embed_dim = 8;
  config.num_heads = 2;
  config.add_bias_kv = true;
  config.attn_mask_spec.kind = mhaviz::gen::MaskKind::causal;
  const ComputedProblem c = compute(config);
  const mhaviz::ForwardResult& r = c.result;
  QCOMPARE(r.L, config.tgt_len);  // no query row for bias_k
  QCOMPARE(r.q.size(2), config.tgt_len);
  QCOMPARE(r.weights.size(2), config.tgt_len);
  QCOMPARE(r.Sx, r.S + 1);  // one key column, the last
  QCOMPARE(r.columns.back().kind, mhaviz::KeyKind::bias_k);
  for (std::int64_t i = 0; i < r.L; ++i) {
    QCOMPARE(mhaviz::derived_value(r, mhaviz::DerivedMap::mask, 0, 0, i, r.S), 0.0);
    QVERIFY(at4(r.weights, 0, 0, i, r.S) > 0.0);  // every query can put weight there
  }
  const auto plain = [](const QString& html) {
    QTextDocument doc;
    doc.setHtml(html);
    return doc.toPlainText().simplified();
  };
  // The add_bias_kv tooltip states the same (window test: addBiasKvTooltipSaysWhatBiasKIs).
  const QStringList texts = {plain(explanationPages().front().html),
                             plain(breakdownHtml(breakdownCell(r, 0, 0, 2, r.S)))};
  for (const QString& text : texts) {
    QVERIFY2(text.contains(QStringLiteral("at the end")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("no query row")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("never attends")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("\"null\" key")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("attention sink")), qPrintable(text));
  }
  QVERIFY(texts[0].contains(QStringLiteral("not prepended")));
}

QTEST_MAIN(TestTeach)
