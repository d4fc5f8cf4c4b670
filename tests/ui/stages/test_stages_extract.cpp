// Every stage's maps against the core's tensors (moved here from tests/ui/render and
// tests/ui/teach), the parameter stages' head slices and the measure stages (TestStages'
// slots, test_stages.hpp, which says where the others are).

#include <QTest>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/derived_maps.hpp"
#include "stages/param_stage.hpp"
#include "stages/stage_data.hpp"
#include "test_stages.hpp"

using namespace mhaviz::ui;  // NOLINT(google-build-using-namespace): test brevity
using mhaviz::ui::test::at;
using mhaviz::ui::test::at4;
using mhaviz::ui::test::biasZeroConfig;
using mhaviz::ui::test::compute;
using mhaviz::ui::test::ComputedProblem;
using mhaviz::ui::test::computeResult;
using mhaviz::ui::test::same;
using mhaviz::ui::test::smallConfig;

void TestStages::extractWeightsWithBiasAndZero() {
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

void TestStages::extractOtherStages() {
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

void TestStages::averagePropagatesNan() {
  const auto r = computeResult(smallConfig(false, false), false, /*nanRow=*/true);
  const StageData data = extractStage(r, ViewOptions{});
  QVERIFY(std::isnan(data.maps[0].values[0]));
  QVERIFY(std::isnan(data.maps[2].values[3]));
  QVERIFY(!std::isnan(data.maps[2].values[7 + 3]));
}

void TestStages::everyIntermediateStageShowsTheCoreTensorPerHead() {
  mhaviz::Config config = biasZeroConfig();
  config.training = true;
  config.dropout = 0.3;
  const ComputedProblem c = compute(config);
  const mhaviz::ForwardResult& r = c.result;
  QVERIFY(r.weights_before_dropout.has_value());
  const mhaviz::Tensor raw = mhaviz::derived_all(r, mhaviz::DerivedMap::raw_scores);
  const mhaviz::Tensor mask = mhaviz::derived_all(r, mhaviz::DerivedMap::mask);
  const mhaviz::Tensor scores = mhaviz::derived_all(r, mhaviz::DerivedMap::scores);
  const std::pair<Stage, const mhaviz::Tensor*> perHead[] = {
      {Stage::q, &r.q},
      {Stage::k, &r.k},
      {Stage::v, &r.v},
      {Stage::raw_scores, &raw},
      {Stage::mask, &mask},
      {Stage::scores, &scores},
      {Stage::weights_before_dropout, &*r.weights_before_dropout},
      {Stage::weights, &r.weights},
      {Stage::head_output, &r.head_output}};
  for (std::int64_t n = 0; n < r.N; ++n) {
    for (const auto& [stage, tensor] : perHead) {
      ViewOptions view;
      view.batch = static_cast<int>(n);
      view.stage = stage;
      view.showAverage = false;
      const StageData data = extractStage(r, view);
      QCOMPARE(static_cast<std::int64_t>(data.maps.size()), r.H);
      for (std::int64_t h = 0; h < r.H; ++h) {
        const MapData& m = data.maps[static_cast<std::size_t>(h)];
        QCOMPARE(static_cast<std::int64_t>(m.rows), tensor->shape()[2]);
        QCOMPARE(static_cast<std::int64_t>(m.cols), tensor->shape()[3]);
        for (int i = 0; i < m.rows; ++i) {
          for (int j = 0; j < m.cols; ++j) {
            QVERIFY2(
                same(m.values[static_cast<std::size_t>(i * m.cols + j)], at4(*tensor, n, h, i, j)),
                qPrintable(stageName(stage)));
          }
        }
      }
    }
    for (Stage stage : {Stage::merged, Stage::output}) {
      ViewOptions view;
      view.batch = static_cast<int>(n);
      view.stage = stage;
      const StageData data = extractStage(r, view);
      const mhaviz::Tensor& t = stage == Stage::merged ? r.merged : r.output;
      QCOMPARE(data.maps.size(), std::size_t{1});
      for (std::int64_t i = 0; i < r.L; ++i) {
        for (std::int64_t e = 0; e < r.E; ++e) {
          QVERIFY(same(data.maps[0].values[static_cast<std::size_t>(i * r.E + e)],
                       t.value((n * r.L + i) * r.E + e)));
        }
      }
    }
  }
  // The k and v maps mark their last two rows as bias_k and zero.
  ViewOptions kView;
  kView.stage = Stage::k;
  const StageData k = extractStage(r, kView);
  QCOMPARE(k.maps[0].rowsInfo[static_cast<std::size_t>(r.Sx - 2)].kind, mhaviz::KeyKind::bias_k);
  QCOMPARE(k.maps[0].rowsInfo[static_cast<std::size_t>(r.Sx - 1)].kind, mhaviz::KeyKind::zero);
}

void TestStages::parameterStagesShowTheHeadSlicesOfTheWeights() {
  for (bool packed : {true, false}) {
    mhaviz::Config config;
    config.embed_dim = 8;
    config.num_heads = 2;
    if (!packed) {
      config.kdim = 5;
      config.vdim = 3;
    }
    const ComputedProblem c = compute(config);
    const std::int64_t E = 8, hd = 4;
    ViewOptions view;
    view.stage = Stage::in_proj_weight;
    const StageData data = extractStage(c.result, view);
    QCOMPARE(data.maps.size(), std::size_t{6});  // W_q, W_k, W_v x 2 heads
    QVERIFY(data.isSigned);
    const mhaviz::Params& p = c.problem.params;
    for (int block = 0; block < 3; ++block) {
      const mhaviz::Tensor* w = nullptr;
      std::int64_t base = 0;
      if (packed) {
        w = &*p.in_proj_weight;
        base = block * E;
      } else {
        w = block == 0 ? &*p.q_proj_weight : block == 1 ? &*p.k_proj_weight : &*p.v_proj_weight;
      }
      const std::int64_t cols = w->shape()[1];
      for (std::int64_t h = 0; h < 2; ++h) {
        const MapData& m = data.maps[static_cast<std::size_t>(block * 2 + h)];
        QCOMPARE(static_cast<std::int64_t>(m.rows), hd);
        QCOMPARE(static_cast<std::int64_t>(m.cols), cols);
        QVERIFY2(m.title.contains(QStringLiteral("head %1").arg(h)), qPrintable(m.title));
        QVERIFY2(m.title.contains(packed ? QStringLiteral("in_proj_weight")
                                         : QStringLiteral("_proj_weight")),
                 qPrintable(m.title));
        for (std::int64_t r = 0; r < hd; ++r) {
          for (std::int64_t col = 0; col < cols; ++col) {
            QCOMPARE(m.values[static_cast<std::size_t>(r * cols + col)],
                     w->value((base + h * hd + r) * cols + col));
          }
        }
      }
    }
    view.stage = Stage::out_proj_weight;
    const StageData out = extractStage(c.result, view);
    QCOMPARE(out.maps.size(), std::size_t{1});
    for (std::int64_t i = 0; i < E * E; ++i) {
      QCOMPARE(out.maps[0].values[static_cast<std::size_t>(i)], p.out_proj_weight->value(i));
    }
  }
}

// view.soloHead keeps only that head's slice of W_q, W_k and W_v, each titled with its rows of
// in_proj_weight and numbered from its first output feature, on a range symmetric about 0 as
// wide as the largest entry shown. Separate q/k/v_proj_weight are titled with their own names;
// out_proj.weight is one (E, E) map whatever the head.
void TestStages::aSoloHeadKeepsItsSlicesOfTheWeights() {
  mhaviz::Config config;
  config.embed_dim = 8;
  config.num_heads = 2;
  const ComputedProblem c = compute(config);
  ViewOptions view;
  view.stage = Stage::in_proj_weight;
  view.soloHead = 1;
  const StageData data = extractStage(c.result, view);
  QCOMPARE(data.maps.size(), std::size_t{3});
  QCOMPARE(data.groupColumns, 3);
  QCOMPARE(data.maps[0].title, QStringLiteral("W_q = in_proj_weight rows 4-7 (head 1)"));
  QCOMPARE(data.maps[1].title, QStringLiteral("W_k = in_proj_weight rows 12-15 (head 1)"));
  QCOMPARE(data.maps[2].title, QStringLiteral("W_v = in_proj_weight rows 20-23 (head 1)"));
  const mhaviz::Tensor& w = *c.problem.params.in_proj_weight;
  double largest = 0;
  for (int block = 0; block < 3; ++block) {
    const MapData& m = data.maps[static_cast<std::size_t>(block)];
    QCOMPARE(m.rowBase, 4);
    QCOMPARE(m.rows, 4);
    QCOMPARE(m.cols, 8);
    for (int r = 0; r < 4; ++r) {
      for (int col = 0; col < 8; ++col) {
        const double x = w.value((block * 8 + 4 + r) * 8 + col);
        QCOMPARE(m.values[static_cast<std::size_t>(r * 8 + col)], x);
        largest = std::max(largest, std::abs(x));
      }
    }
  }
  QVERIFY(data.isSigned);
  QCOMPARE(data.hi, largest);
  QCOMPARE(data.lo, -largest);
  QCOMPARE(data.unit, QStringLiteral("weight entry"));
  QCOMPARE(data.rowAxis, QStringLiteral("output feature"));
  QCOMPARE(data.columnAxis, QStringLiteral("input feature"));

  config.kdim = 5;
  config.vdim = 3;
  const ComputedProblem separate = compute(config);
  view.soloHead = 0;
  const StageData sep = extractStage(separate.result, view);
  QCOMPARE(sep.maps.size(), std::size_t{3});
  QCOMPARE(sep.maps[0].title, QStringLiteral("q_proj_weight rows 0-3 (head 0)"));
  QCOMPARE(sep.maps[1].title, QStringLiteral("k_proj_weight rows 0-3 (head 0)"));
  QCOMPARE(sep.maps[2].title, QStringLiteral("v_proj_weight rows 0-3 (head 0)"));
  QCOMPARE(sep.maps[0].cols, 8);
  QCOMPARE(sep.maps[1].cols, 5);
  QCOMPARE(sep.maps[2].cols, 3);
  QCOMPARE(sep.maps[2].values[2 * 3 + 1], separate.problem.params.v_proj_weight->value(2 * 3 + 1));

  view.stage = Stage::out_proj_weight;
  const StageData out = extractStage(separate.result, view);
  QCOMPARE(out.maps.size(), std::size_t{1});
  QCOMPARE(out.maps[0].title, QStringLiteral("out_proj.weight (E, E)"));
  QCOMPARE(out.maps[0].rows, 8);
  QCOMPARE(out.maps[0].cols, 8);
  QCOMPARE(out.groupColumns, 0);
  QVERIFY(isParamStage(Stage::in_proj_weight) && isParamStage(Stage::out_proj_weight));
  QVERIFY(!isParamStage(Stage::weights) && !isParamStage(Stage::q));
}

// The measure stages of the result known by hand (test_stages.hpp, knownProblem), batch 0.
// Value norms α_ij ‖v_j W_O^h‖: W_O^0 = (3, 4) and W_O^1 = (0, 1), so query 0 has 1/2·5·4 = 10,
// 1/2·5·6 = 15 and 0 (masked) in head 0, 1/4·8 = 2 and 3/4·4 = 3 in head 1, and summed over heads
// ‖(6, 10)‖ = √136 and ‖(9, 15)‖ = √306. Value zeroing of query 0 (output (15, 25)): zeroing key
// 0 or 1 leaves (9, 15) or (6, 10), the same direction at 3/5 or 2/5 of the length. Sink scores:
// the mean weight over the queries with an open key (query 0 alone). Query 1 is NaN throughout.
void TestStages::measureStagesOfAKnownResult() {
  const mhaviz::Problem p = mhaviz::ui::test::knownProblem();
  const mhaviz::ForwardResult r = mhaviz::ui::test::run(p);
  const mhaviz::ResultMeasures measures = mhaviz::measure_result(r, p.inputs);
  ViewOptions view;
  view.stage = Stage::value_norms;
  const StageData norms = extractStage(r, view, ExtractMode::copy, &measures);
  QCOMPARE(norms.maps.size(), std::size_t{3});
  QCOMPARE(norms.maps[2].title, QStringLiteral("sum over heads"));
  QCOMPARE(norms.unit, QStringLiteral("value-weighted norm ‖α·f(x)‖"));
  QVERIFY(norms.rangeFromData);
  const double want[3][3] = {{10, 15, 0}, {2, 3, 0}, {std::sqrt(136.0), std::sqrt(306.0), 0}};
  for (std::size_t m = 0; m < 3; ++m) {
    for (std::size_t j = 0; j < 3; ++j) {
      QCOMPARE(norms.maps[m].values[j], want[m][j]);
      QVERIFY(std::isnan(norms.maps[m].values[3 + j]));  // query 1: every key masked
    }
  }
  QCOMPARE(norms.lo, 0.0);
  QCOMPARE(norms.hi, std::sqrt(306.0));  // 0..the largest value shown

  view.stage = Stage::value_zeroing;
  const StageData zeroing = extractStage(r, view, ExtractMode::copy, &measures);
  QCOMPARE(zeroing.maps.size(), std::size_t{2});
  QCOMPARE(zeroing.maps[0].title, QStringLiteral("cosine distance 1 − cos(o, o′)"));
  QCOMPARE(zeroing.maps[1].title, QStringLiteral("relative L2 ‖o′ − o‖ / ‖o‖"));
  QVERIFY(zeroing.rangeFromData);
  for (std::size_t j = 0; j < 3; ++j) QCOMPARE(zeroing.maps[0].values[j], 0.0);
  QCOMPARE(zeroing.maps[1].values[0], 0.4);
  QCOMPARE(zeroing.maps[1].values[1], 0.6);
  QCOMPARE(zeroing.maps[1].values[2], 0.0);  // a masked key: nothing removed
  QVERIFY(std::isnan(zeroing.maps[1].values[3]));

  view.stage = Stage::sink_scores;
  const StageData sinks = extractStage(r, view, ExtractMode::copy, &measures);
  QCOMPARE(sinks.maps.size(), std::size_t{2});
  QCOMPARE(sinks.maps[0].title, QStringLiteral("every head"));
  QCOMPARE(sinks.maps[0].rows, 2);  // row h: head h
  QVERIFY(sinks.maps[0].rowMeaning == RowMeaning::head);
  QCOMPARE(sinks.maps[1].title, QStringLiteral("mean over heads"));
  QCOMPARE(sinks.maps[1].rows, 1);
  QVERIFY(sinks.maps[1].rowMeaning == RowMeaning::all);
  const double heads[2][3] = {{0.5, 0.5, 0}, {0.25, 0.75, 0}};
  for (std::size_t j = 0; j < 3; ++j) {
    QCOMPARE(sinks.maps[0].values[j], heads[0][j]);
    QCOMPARE(sinks.maps[0].values[3 + j], heads[1][j]);
    QCOMPARE(sinks.maps[1].values[j], (heads[0][j] + heads[1][j]) / 2);
  }
  view.soloHead = 1;
  const StageData solo = extractStage(r, view, ExtractMode::copy, &measures);
  QCOMPARE(solo.maps.size(), std::size_t{1});
  QCOMPARE(solo.maps[0].title, QStringLiteral("head 1"));
  QCOMPARE(solo.maps[0].values[1], 0.75);

  // Without the measures beside the result, each of these stages says what is missing.
  view.soloHead = -1;
  const std::pair<Stage, const char*> missing[] = {
      {Stage::value_norms, "this result has no value norms; recompute it"},
      {Stage::value_zeroing, "this result has no value zeroing; recompute it"},
      {Stage::sink_scores, "this result has no sink scores; recompute it"}};
  for (const auto& [stage, message] : missing) {
    view.stage = stage;
    QString what;
    try {
      (void)extractStage(r, view);
    } catch (const mhaviz::InvalidInput& e) {
      what = QString::fromUtf8(e.what());
    }
    QCOMPARE(what, QString::fromUtf8(message));
  }
}

QTEST_MAIN(TestStages)
