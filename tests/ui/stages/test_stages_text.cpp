// The reduced result of a long context and what says its region, layer names, stage names,
// units and key labels, and the statistics the colour range comes from (TestStages' slots,
// test_stages.hpp).

#include <QTest>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "mhaviz/core/long_context/long_context.hpp"
#include "mhaviz/core/model/model.hpp"
#include "stages/layer_name.hpp"
#include "stages/reduced_result.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"
#include "test_stages.hpp"

using namespace mhaviz::ui;  // NOLINT(google-build-using-namespace): test brevity
using mhaviz::ui::test::at4;
using mhaviz::ui::test::computeResult;
using mhaviz::ui::test::knownProblem;
using mhaviz::ui::test::smallConfig;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Two heads of batch element 1 of an 8 x 8 problem, queries 4-7 folded by block means of 2 x 4
/// cells into 2 x 2 values per map.
mhaviz::ReducedWeights zoomedRegion() {
  mhaviz::ReducedWeights w;
  w.N = 2;
  w.H = 2;
  w.L = 8;
  w.Sx = 8;
  w.batch = 1;
  w.query_begin = 4;
  w.query_end = 8;
  w.key_begin = 0;
  w.key_end = 8;
  w.block_rows = 2;
  w.block_cols = 4;
  w.rows = 2;
  w.cols = 2;
  w.heads = {0, 1};
  w.maps = mhaviz::Tensor::from<double>({2, 2, 2}, {0.5, 0, 0.25, 0.125, 0.75, 0, 0.5, 0});
  return w;
}

}  // namespace

// reducedResult puts the folded maps at their batch element and heads of a weights-only result
// (the other batch element stays 0), labels each block with its first position, and marks the
// blocks whose every weight is 0 as masked (-inf in merged_mask); its weights extract with the
// range 0..the largest block. reducedDescription says the rule and the region.
void TestStages::reducedResultHoldsItsRegion() {
  const mhaviz::ReducedWeights region = zoomedRegion();
  const mhaviz::ForwardResult r = reducedResult(region, mhaviz::Config{});
  QVERIFY(r.is_reduced());
  QCOMPARE(r.weights.shape(), (mhaviz::Shape{2, 2, 2, 2}));
  QCOMPARE(at4(r.weights, 1, 1, 0, 0), 0.75);
  QCOMPARE(at4(r.weights, 0, 1, 0, 0), 0.0);
  QCOMPARE(r.config.query_labels, (std::vector<std::string>{"4", "6"}));
  QCOMPARE(r.config.key_labels, (std::vector<std::string>{"0", "4"}));
  QCOMPARE(r.merged_mask.shape(), (mhaviz::Shape{1, 2, 2, 2}));
  const std::vector<double> mask = {0, -kInf, 0, 0, 0, -kInf, 0, -kInf};
  for (std::size_t k = 0; k < mask.size(); ++k) {
    QCOMPARE(r.merged_mask.value(static_cast<std::int64_t>(k)), mask[k]);
  }

  ViewOptions view;
  view.batch = 1;
  const StageData data = extractStage(r, view);
  QCOMPARE(data.maps.size(), std::size_t{3});
  QVERIFY(data.rangeFromData);
  QCOMPARE(data.hi, 0.75);
  QCOMPARE(data.maps[0].values, (std::vector<double>{0.5, 0, 0.25, 0.125}));
  QCOMPARE(data.maps[2].values, (std::vector<double>{0.625, 0, 0.375, 0.0625}));
  QVERIFY(data.maps[0].maskedAt(0, 1) && !data.maps[0].maskedAt(1, 1));
  QVERIFY(data.maps[1].maskedAt(0, 1) && data.maps[1].maskedAt(1, 1));
  QVERIFY(data.maps[2].maskedAt(0, 1) && !data.maps[2].maskedAt(1, 1));  // masked in both heads

  QCOMPARE(reducedDescription(region),
           QStringLiteral("zoomed: block mean of 2x4 cells of queries 4-7, keys 0-7"));
  mhaviz::ReducedWeights whole = region;
  whole.query_begin = 0;
  whole.block_rows = 4;
  whole.block_cols = 4;
  whole.reduce = mhaviz::BlockReduce::max;
  QCOMPARE(reducedDescription(whole), QStringLiteral("reduced: block max of 4x4 cells"));
  mhaviz::ReducedWeights exact = region;
  exact.query_end = 6;
  exact.key_end = 2;
  exact.block_rows = 1;
  exact.block_cols = 1;
  QCOMPARE(reducedDescription(exact), QStringLiteral("exact cells of queries 4-5, keys 0-1"));
  QCOMPARE(blockLabels(64, 64, 3), (QStringList{"64", "128", "192"}));

  // No block of 0: no mask at all.
  mhaviz::ReducedWeights open = region;
  open.maps = mhaviz::Tensor::from<double>({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  QVERIFY(!reducedResult(open, mhaviz::Config{}).has_mask());
}

// A layer is named by its number within its generation step, its module path as the model has
// it, and its call and step; a capture without steps numbers layers by position; a layer past
// the end is named by its position alone.
void TestStages::layerNamesNumberLayersWithinTheirStep() {
  namespace model = mhaviz::model;
  model::ModelIndex steps;
  steps.steps = 2;
  for (const auto& [name, call, step] : {std::tuple{"blocks.0.attn", 0, 0},
                                         {"blocks.1.attn", 0, 0},
                                         {"blocks.0.attn", 1, 1},
                                         {"blocks.1.attn", 1, 1}}) {
    model::LayerInfo layer;
    layer.name = name;
    layer.call = call;
    layer.step = step;
    steps.layers.push_back(layer);
  }
  QCOMPARE(modelLayerName(steps, 0), QStringLiteral("layer 0 (blocks.0.attn, step 0)"));
  QCOMPARE(modelLayerName(steps, 3), QStringLiteral("layer 1 (blocks.1.attn, call 1, step 1)"));
  QCOMPARE(modelLayerName(steps, 9), QStringLiteral("layer 9"));

  model::ModelIndex plain;
  for (const char* name : {"encoder.layers.0.self_attn", "encoder.layers.1.self_attn"}) {
    model::LayerInfo layer;
    layer.name = name;
    plain.layers.push_back(layer);
  }
  QCOMPARE(modelLayerName(plain, 1), QStringLiteral("layer 1 (encoder.layers.1.self_attn)"));
}

// Every stage has its own name, listed once; the weights and the measures are unsigned, every
// other stage signed; only the measure stages need the measures; weights before dropout and
// soft-capped scores exist only when the pass had them. Key labels replace source key indices
// (an empty or missing label leaves the index).
void TestStages::stageNamesKindsAndKeyLabels() {
  const QList<Stage> stages = allStages();
  QCOMPARE(stages.size(), 17);
  std::set<QString> names;
  for (const Stage stage : stages) {
    names.insert(stageName(stage));
    QCOMPARE(shownStageName(stage), stageName(stage));  // no translator: English
    const bool unsigned_ = stage == Stage::weights || stage == Stage::weights_before_dropout ||
                           stage == Stage::value_norms || stage == Stage::value_zeroing ||
                           stage == Stage::sink_scores;
    QCOMPARE(stageIsSigned(stage), !unsigned_);
    const bool measures =
        stage == Stage::value_norms || stage == Stage::value_zeroing || stage == Stage::sink_scores;
    QCOMPARE(stageNeedsMeasures(stage), measures);
  }
  QCOMPARE(names.size(), std::size_t{17});
  QCOMPARE(stageName(Stage::weights_before_dropout), QStringLiteral("weights before dropout"));
  QCOMPARE(stageName(Stage::capped_scores), QStringLiteral("soft-capped scores"));
  QCOMPARE(stageName(Stage::out_proj_weight), QStringLiteral("out_proj.weight"));

  mhaviz::Config c = smallConfig(false, false);
  const mhaviz::ForwardResult plain = computeResult(c);
  QVERIFY(stageIn(Stage::weights, plain));
  QVERIFY(!stageIn(Stage::weights_before_dropout, plain));
  QVERIFY(!stageIn(Stage::capped_scores, plain));
  c.dropout = 0.5;  // training is the default
  c.attn_logit_softcapping = 30.0;
  const mhaviz::ForwardResult both = computeResult(c);
  QVERIFY(stageIn(Stage::weights_before_dropout, both));
  QVERIFY(stageIn(Stage::capped_scores, both));
  ViewOptions view;
  view.stage = Stage::capped_scores;
  QCOMPARE(extractStage(both, view).unit, QStringLiteral("capped score"));

  const mhaviz::ForwardResult known = mhaviz::ui::test::run(knownProblem());
  view.stage = Stage::weights;
  view.keyLabels = {QStringLiteral("The"), QString()};
  const StageData labelled = extractStage(known, view);
  QCOMPARE(labelled.maps[0].columns[0].label, QStringLiteral("The"));
  QCOMPARE(labelled.maps[0].columns[1].label, QStringLiteral("1"));
  QCOMPARE(labelled.maps[0].columns[2].label, QStringLiteral("2"));
  view.stage = Stage::k;
  QCOMPARE(extractStage(known, view).maps[1].rowsInfo[0].label, QStringLiteral("The"));
  ViewOptions other = view;
  QVERIFY(other == view);
  other.soloHead = 1;
  QVERIFY(!(other == view));
}

// computeStats: each map's range over its finite cells (NaN and ±inf left out) and whether it
// has NaN; a signed stage's colour range symmetric about 0 (1 when nothing finite is non-zero);
// an unsigned stage's the fixed 0..1 or, with rangeFromData, 0..the largest value. A cancelled
// run stops and leaves the statistics unset.
void TestStages::statisticsSkipNonFiniteCellsAndStopWhenCancelled() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  MapData a;
  a.rows = 2;
  a.cols = 2;
  a.values = {-kInf, 0.5, nan, -3};
  MapData b;
  b.rows = 1;
  b.cols = 2;
  b.values = {nan, kInf};
  StageData data;
  data.isSigned = true;
  data.maps = {a, b};
  StageData cancelledData = data;
  QVERIFY(computeStats(data));
  QVERIFY(data.statsReady);
  QCOMPARE(data.maps[0].finiteLo, -3.0);
  QCOMPARE(data.maps[0].finiteHi, 0.5);
  QVERIFY(data.maps[0].hasNan && data.maps[0].hasFinite);
  QVERIFY(data.maps[1].hasNan && !data.maps[1].hasFinite);
  QCOMPARE(data.lo, -3.0);
  QCOMPARE(data.hi, 3.0);

  StageData zeros;
  zeros.isSigned = true;
  MapData z;
  z.rows = 1;
  z.cols = 2;
  z.values = {0, -kInf};
  zeros.maps = {z};
  QVERIFY(computeStats(zeros));
  QCOMPARE(zeros.lo, -1.0);
  QCOMPARE(zeros.hi, 1.0);

  StageData weights;
  MapData w;
  w.rows = 1;
  w.cols = 3;
  w.values = {0.25, nan, 0.5};
  weights.maps = {w};
  QVERIFY(computeStats(weights));
  QCOMPARE(weights.lo, 0.0);
  QCOMPARE(weights.hi, 1.0);
  weights.rangeFromData = true;
  QVERIFY(computeStats(weights));
  QCOMPARE(weights.hi, 0.5);

  const std::atomic<bool> cancelled{true};
  QVERIFY(!computeStats(cancelledData, &cancelled));
  QVERIFY(!cancelledData.statsReady);
}
