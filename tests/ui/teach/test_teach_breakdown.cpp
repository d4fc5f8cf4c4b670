// The cell breakdown against the intermediates: a normal, masked, NaN and average cell, the bias_k
// and zero columns, float32, the soft-capped scores (TestTeach's slots, test_teach.hpp).

#include <QTest>
#include <QTextDocument>
#include <cmath>
#include <cstdint>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "mhaviz/core/forward/derived_maps.hpp"
#include "mhaviz/core/gen/masks.hpp"
#include "stages/view_options.hpp"
#include "teach/cell_breakdown.hpp"
#include "teach/examples.hpp"
#include "teach/stage_guide.hpp"
#include "test_teach.hpp"

using namespace mhaviz::ui;  // NOLINT(google-build-using-namespace): test brevity
using mhaviz::ui::test::at4;
using mhaviz::ui::test::biasZeroConfig;
using mhaviz::ui::test::compute;
using mhaviz::ui::test::ComputedProblem;

void TestTeach::breakdownOfANormalCellReproducesTheWeight() {
  const ComputedProblem c = compute(biasZeroConfig());
  const mhaviz::ForwardResult& r = c.result;
  const std::int64_t n = 0, h = 1, i = 4, j = 2;
  const CellBreakdown b = breakdownCell(r, n, h, i, j);
  QCOMPARE(b.column.kind, mhaviz::KeyKind::source);
  QCOMPARE(static_cast<std::int64_t>(b.q.size()), r.hd);
  for (std::int64_t d = 0; d < r.hd; ++d) {
    QCOMPARE(b.q[static_cast<std::size_t>(d)], at4(r.q, n, h, i, d));
    QCOMPARE(b.k[static_cast<std::size_t>(d)], at4(r.k, n, h, j, d));
  }
  QCOMPARE(b.rawStored, at4(mhaviz::derived_all(r, mhaviz::DerivedMap::raw_scores), n, h, i, j));
  QCOMPARE(b.maskTerm, at4(mhaviz::derived_all(r, mhaviz::DerivedMap::mask), n, h, i, j));
  QCOMPARE(b.scoreStored, at4(mhaviz::derived_all(r, mhaviz::DerivedMap::scores), n, h, i, j));
  QCOMPARE(b.weightStored, at4(r.weights, n, h, i, j));
  QVERIFY(agrees(b.rawRecomputed, b.rawStored, 1e-9));
  QVERIFY(agrees(b.scoreRecomputed, b.scoreStored, 1e-9));
  QVERIFY(std::abs(b.weightRecomputed - b.weightStored) <= 1e-6 * std::abs(b.weightStored));
  QVERIFY(b.weightStored > 0);
  const QString html = breakdownHtml(b);
  QVERIFY(!html.contains(QStringLiteral("differ")));
  QVERIFY(html.contains(QString::number(b.rowSum, 'g', 8)));
}

void TestTeach::breakdownOfAMaskedCellIsZero() {
  const ComputedProblem c = compute(biasZeroConfig());
  const CellBreakdown b = breakdownCell(c.result, 0, 0, 1, 4);  // causal: key 4 > query 1
  QVERIFY(std::isinf(b.maskTerm) && b.maskTerm < 0);
  QCOMPARE(b.weightStored, 0.0);
  QCOMPARE(b.weightRecomputed, 0.0);
}

void TestTeach::breakdownOfTheBiasKColumn() {
  const ComputedProblem c = compute(biasZeroConfig());
  const mhaviz::ForwardResult& r = c.result;
  // Batch element 1 is fully padded: only bias_k and the zero key are left.
  const std::int64_t j = r.Sx - 2;
  const CellBreakdown b = breakdownCell(r, 1, 0, 3, j);
  QCOMPARE(b.column.kind, mhaviz::KeyKind::bias_k);
  QCOMPARE(b.maskTerm, 0.0);
  QVERIFY(!b.rowFullyMasked);
  QCOMPARE(b.weightStored, at4(r.weights, 1, 0, 3, j));
  QVERIFY(std::abs(b.weightRecomputed - b.weightStored) <= 1e-6 * std::abs(b.weightStored));
  QTextDocument page;
  page.setHtml(breakdownHtml(b));
  const QString text = page.toPlainText().simplified();
  for (const char* fact : {"appended at the end, after the in-projection, by add_bias_kv",
                           "never masked", "no query row"}) {
    QVERIFY2(text.contains(QLatin1String(fact)), qPrintable(text));
  }
}

void TestTeach::breakdownOfTheZeroColumn() {
  const ComputedProblem c = compute(biasZeroConfig());
  const mhaviz::ForwardResult& r = c.result;
  const std::int64_t j = r.Sx - 1;
  const CellBreakdown b = breakdownCell(r, 0, 1, 2, j);
  QCOMPARE(b.column.kind, mhaviz::KeyKind::zero);
  for (double x : b.k) QCOMPARE(x, 0.0);
  QCOMPARE(b.dot, 0.0);
  QCOMPARE(b.rawStored, 0.0);
  QCOMPARE(b.weightStored, at4(r.weights, 0, 1, 2, j));
  QVERIFY(std::abs(b.weightRecomputed - b.weightStored) <= 1e-6 * std::abs(b.weightStored));
  QVERIFY(breakdownHtml(b).contains(QStringLiteral("exactly 0 (q . 0 = 0)")));
}

void TestTeach::breakdownOfANanCellExplainsTheFullyMaskedRow() {
  mhaviz::Config config = loadExample(QStringLiteral(":/examples/padding_fully_padded.json"));
  config.dtype = mhaviz::DType::float64;
  const ComputedProblem c = compute(config);
  const CellBreakdown b = breakdownCell(c.result, 2, 1, 0, 3);  // batch 2: every key padded
  QVERIFY(b.rowFullyMasked);
  QVERIFY(std::isnan(at4(c.result.weights, 2, 1, 0, 3)));
  QVERIFY(std::isnan(b.weightStored));
  QVERIFY(std::isnan(b.weightRecomputed));
  const QString html = breakdownHtml(b);
  QVERIFY(html.contains(QStringLiteral("0/0 = NaN")));
  QVERIFY(html.contains(QStringLiteral("add_zero_attn")));
  QVERIFY(!html.contains(QStringLiteral("differ")));
}

void TestTeach::breakdownInFloat32AgreesToRounding() {
  mhaviz::Config config = biasZeroConfig();
  config.dtype = mhaviz::DType::float32;
  const ComputedProblem c = compute(config);
  for (std::int64_t j = 0; j < c.result.Sx; ++j) {
    const CellBreakdown b = breakdownCell(c.result, 0, 0, 5, j);
    QVERIFY(agrees(b.weightRecomputed, b.weightStored, b.tolerance));
    QVERIFY(!breakdownHtml(b).contains(QStringLiteral("differ")));
  }
}

void TestTeach::averageCellListsEveryHead() {
  const ComputedProblem c = compute(biasZeroConfig());
  const QString html = averageHtml(c.result, 0, 3, 1, false);
  double sum = 0;
  for (std::int64_t h = 0; h < c.result.H; ++h) {
    const double w = at4(c.result.weights, 0, h, 3, 1);
    sum += w;
    QVERIFY(html.contains(QString::number(w, 'g', 8)));
  }
  QVERIFY(html.contains(QString::number(sum / static_cast<double>(c.result.H), 'g', 8)));
}

// The attention logit soft-cap as the window computes it: a stage of its own and a row of the
// cell breakdown, gone with the cap (the view falls back to the raw scores), refused inline when
// <= 0.
void TestTeach::softCapIsAStageAndABreakdownRow() {
  Document document;
  Computation computation(&document);
  const auto idle = [&] {
    return QTest::qWaitFor(
        [&] {
          return !document.computed().busy &&
                 (!document.computed().error.isEmpty() ||
                  (document.computed().result &&
                   document.computed().result->config == document.config()));
        },
        30000);
  };
  mhaviz::Config c;
  c.tgt_len = 8;
  c.src_len = 8;
  c.attn_logit_softcapping = 0.5;
  c.attn_mask_spec.kind = mhaviz::gen::MaskKind::causal;
  document.changeConfig(c, QStringLiteral("test"));
  QVERIFY(idle());
  const auto r = document.computed().result;
  QVERIFY(r->has_capped_scores());
  QVERIFY(stageIn(Stage::capped_scores, *r));
  QVERIFY(walkStages(r.get()).contains(Stage::capped_scores));
  ViewOptions view = document.view();
  view.stage = Stage::capped_scores;
  document.setView(view);
  QCOMPARE(document.view().stage, Stage::capped_scores);
  const CellBreakdown b = breakdownCell(*r, 0, 1, 5, 2);
  QVERIFY(b.capped);
  QCOMPARE(b.cap, 0.5);
  QVERIFY(std::abs(b.cappedStored) < 0.5);
  QVERIFY(agrees(b.cappedRecomputed, b.cappedStored, b.tolerance));
  QVERIFY(agrees(b.scoreRecomputed, b.scoreStored, b.tolerance));
  QVERIFY(breakdownHtml(b).contains(QStringLiteral("tanh")));
  // Without the cap the stage is gone and the view falls back to the raw scores.
  c.attn_logit_softcapping.reset();
  document.changeConfig(c, QStringLiteral("test"));
  QVERIFY(idle());
  QVERIFY(!document.computed().result->has_capped_scores());
  QVERIFY(!walkStages(document.computed().result.get()).contains(Stage::capped_scores));
  QCOMPARE(document.view().stage, Stage::raw_scores);
  // A cap <= 0 is refused inline.
  c.attn_logit_softcapping = -1.0;
  document.changeConfig(c, QStringLiteral("test"));
  QVERIFY(idle());
  QVERIFY2(document.computed().error.contains(QStringLiteral("attn_logit_softcapping")),
           qPrintable(document.computed().error));
}
