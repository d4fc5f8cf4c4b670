// The maps of a result small enough to compute by hand (knownProblem, test_stages.hpp): every
// stage of batch element 0, the batch element and solo head a view picks, and maps that only
// describe where their cells are, read as the copies (TestStages' slots, test_stages.hpp).

#include <QTest>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "mhaviz/core/base/errors.hpp"
#include "stages/stage_data.hpp"
#include "test_stages.hpp"

using namespace mhaviz::ui;  // NOLINT(google-build-using-namespace): test brevity
using mhaviz::ui::test::knownProblem;
using mhaviz::ui::test::same;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Compares a map's copied cells with `want` (NaN equals NaN, -inf equals -inf), row-major.
bool cellsAre(const MapData& map, const std::vector<double>& want) {
  if (map.values.size() != want.size()) return false;
  for (std::size_t k = 0; k < want.size(); ++k) {
    const double got = map.values[k];
    const bool close =
        std::isfinite(want[k]) ? std::abs(got - want[k]) <= 1e-12 : same(got, want[k]);
    if (!close) {
      qWarning("%s cell %zu: %.17g, expected %.17g", qPrintable(map.title), k, got, want[k]);
      return false;
    }
  }
  return true;
}

StageData extract(const mhaviz::ForwardResult& r, Stage stage, int batch = 0, int soloHead = -1,
                  bool showAverage = true) {
  ViewOptions view;
  view.stage = stage;
  view.batch = batch;
  view.soloHead = soloHead;
  view.showAverage = showAverage;
  return extractStage(r, view);
}

}  // namespace

// The score stages of batch element 0: q·k (the scale is 1), the bool mask as 0 / -inf (key 2 of
// query 0 and all of query 1), their sum; signed, on a range symmetric about 0 as wide as the
// largest finite value (1 when there is none but 0).
void TestStages::scoreStagesOfAKnownResult() {
  const mhaviz::ForwardResult r = mhaviz::ui::test::run(knownProblem());
  const double ln3 = std::log(3.0);
  const StageData raw = extract(r, Stage::raw_scores);
  QCOMPARE(raw.maps.size(), std::size_t{2});  // no average but for the weights
  QCOMPARE(raw.unit, QStringLiteral("raw score"));
  QVERIFY(raw.isSigned);
  QVERIFY(cellsAre(raw.maps[0], {2, 2, 5, 4, 4, 10}));
  QVERIFY(cellsAre(raw.maps[1], {0, ln3, 9, 0, -ln3, -9}));
  QVERIFY(!raw.maps[0].hasMask());  // the raw scores come before the mask
  QCOMPARE(raw.lo, -10.0);
  QCOMPARE(raw.hi, 10.0);

  const StageData mask = extract(r, Stage::mask);
  QCOMPARE(mask.unit, QStringLiteral("mask term"));
  const std::vector<unsigned char> flags = {0, 0, 1, 1, 1, 1};
  for (const MapData& m : mask.maps) {
    QVERIFY(cellsAre(m, {0, 0, -kInf, -kInf, -kInf, -kInf}));
    QCOMPARE(m.masked, flags);
  }
  QCOMPARE(mask.lo, -1.0);  // nothing finite but 0
  QCOMPARE(mask.hi, 1.0);

  const StageData scores = extract(r, Stage::scores);
  QCOMPARE(scores.unit, QStringLiteral("score"));
  QVERIFY(cellsAre(scores.maps[0], {2, 2, -kInf, -kInf, -kInf, -kInf}));
  QVERIFY(cellsAre(scores.maps[1], {0, ln3, -kInf, -kInf, -kInf, -kInf}));
  QCOMPARE(scores.maps[1].masked, flags);
  QCOMPARE(scores.maps[1].finiteLo, 0.0);
  QCOMPARE(scores.maps[1].finiteHi, ln3);
  QCOMPARE(scores.lo, -2.0);
  QCOMPARE(scores.hi, 2.0);
}

// The weights of batch element 0: [1/2, 1/2, 0] in head 0 and [1/4, 3/4, 0] in head 1 for query
// 0, their mean as the third map; the masked key is +0 bit for bit in every map and flagged
// masked; query 1, whose every key is masked, stays NaN in the heads and in the average.
void TestStages::weightsOfAKnownResult() {
  const mhaviz::ForwardResult r = mhaviz::ui::test::run(knownProblem());
  const StageData data = extract(r, Stage::weights);
  QCOMPARE(data.maps.size(), std::size_t{3});
  QCOMPARE(data.maps[0].title, QStringLiteral("head 0"));
  QCOMPARE(data.maps[1].title, QStringLiteral("head 1"));
  QCOMPARE(data.maps[2].title, QStringLiteral("average over heads"));
  QCOMPARE(data.unit, QStringLiteral("weight"));
  QVERIFY(!data.isSigned && !data.rangeFromData && data.maskKnown);
  QCOMPARE(data.lo, 0.0);  // the fixed 0..1 of weights
  QCOMPARE(data.hi, 1.0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  QVERIFY(cellsAre(data.maps[0], {0.5, 0.5, 0, nan, nan, nan}));
  QVERIFY(cellsAre(data.maps[1], {0.25, 0.75, 0, nan, nan, nan}));
  QVERIFY(cellsAre(data.maps[2], {0.375, 0.625, 0, nan, nan, nan}));
  const MapData& h0 = data.maps[0];
  const MapData& h1 = data.maps[1];
  const MapData& avg = data.maps[2];
  QVERIFY(avg.values[1] == (h0.values[1] + h1.values[1]) / 2);  // the mean, in head order
  const std::vector<unsigned char> flags = {0, 0, 1, 1, 1, 1};
  for (const MapData& m : data.maps) {
    QCOMPARE(std::bit_cast<std::uint64_t>(m.values[2]), std::uint64_t{0});  // +0, not -0 or tiny
    QCOMPARE(m.masked, flags);  // the average: masked where every head is
    QVERIFY(m.hasNan && m.hasFinite);
    QCOMPARE(m.finiteLo, 0.0);
    QCOMPARE(m.columns.size(), std::size_t{3});
    QCOMPARE(m.columns[2].label, QStringLiteral("2"));
  }
  QCOMPARE(h0.finiteHi, 0.5);
  QCOMPARE(h1.finiteHi, 0.75);
}

// q, k, v and the head outputs per head (hd = 1: one column), then the heads concatenated and
// out_proj's output as one (L, E) map each: out_proj [5, 5] = [3·5, 4·5 + 5] = [15, 25] for
// query 0, NaN for query 1.
void TestStages::projectionsAndOutputsOfAKnownResult() {
  const mhaviz::ForwardResult r = mhaviz::ui::test::run(knownProblem());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const StageData q = extract(r, Stage::q);
  QCOMPARE(q.maps.size(), std::size_t{2});
  QCOMPARE(q.unit, QStringLiteral("q"));
  QCOMPARE(q.maps[0].rows, 2);
  QCOMPARE(q.maps[0].cols, 1);
  QVERIFY(cellsAre(q.maps[0], {1, 2}));
  QVERIFY(cellsAre(q.maps[1], {1, -1}));
  QVERIFY(q.maps[0].rowsInfo.empty());

  const StageData k = extract(r, Stage::k);
  QCOMPARE(k.maps[0].rows, 3);  // one row per key
  QVERIFY(cellsAre(k.maps[0], {2, 2, 5}));
  QVERIFY(cellsAre(k.maps[1], {0, std::log(3.0), 9}));
  QCOMPARE(k.maps[1].rowsInfo.size(), std::size_t{3});
  QCOMPARE(k.maps[1].rowsInfo[2].label, QStringLiteral("2"));

  const StageData v = extract(r, Stage::v);
  QVERIFY(cellsAre(v.maps[0], {4, 6, 100}));
  QVERIFY(cellsAre(v.maps[1], {8, 4, 100}));

  const StageData heads = extract(r, Stage::head_output);
  QCOMPARE(heads.unit, QStringLiteral("head output"));
  QVERIFY(cellsAre(heads.maps[0], {5, nan}));
  QVERIFY(cellsAre(heads.maps[1], {5, nan}));

  const StageData merged = extract(r, Stage::merged);
  QCOMPARE(merged.maps.size(), std::size_t{1});
  QCOMPARE(merged.maps[0].title, QStringLiteral("heads concatenated (before out_proj)"));
  QCOMPARE(merged.unit, QStringLiteral("merged"));
  QVERIFY(cellsAre(merged.maps[0], {5, 5, nan, nan}));

  const StageData out = extract(r, Stage::output);
  QCOMPARE(out.maps.size(), std::size_t{1});
  QCOMPARE(out.maps[0].title, QStringLiteral("out_proj output"));
  QCOMPARE(out.maps[0].columns[1].label, QStringLiteral("1"));
  QVERIFY(cellsAre(out.maps[0], {15, 25, nan, nan}));
  QVERIFY(out.maps[0].hasNan);
  QCOMPARE(out.lo, -25.0);
  QCOMPARE(out.hi, 25.0);
}

// view.batch picks the batch element (batch 1's raw scores differ from batch 0's), view.soloHead
// one head (no average then); a head out of range shows every head; showAverage adds the mean of
// the weights only; a batch element that does not exist is refused with the range.
void TestStages::batchElementAndSoloHeadPickTheirMaps() {
  const mhaviz::ForwardResult r = mhaviz::ui::test::run(knownProblem());
  const StageData both = extract(r, Stage::raw_scores, 1);
  QCOMPARE(both.maps.size(), std::size_t{2});
  QVERIFY(cellsAre(both.maps[0], {3, -3, 0, 1, -1, 0}));
  QVERIFY(cellsAre(both.maps[1], {0, 0, 0, 1, 2, 0}));
  const StageData solo = extract(r, Stage::raw_scores, 1, 1);
  QCOMPARE(solo.maps.size(), std::size_t{1});
  QCOMPARE(solo.maps[0].title, QStringLiteral("head 1"));
  QVERIFY(cellsAre(solo.maps[0], {0, 0, 0, 1, 2, 0}));

  const double nan = std::numeric_limits<double>::quiet_NaN();
  const StageData weights = extract(r, Stage::weights, 1, 1);
  QCOMPARE(weights.maps.size(), std::size_t{1});  // a solo head has no average beside it
  QVERIFY(cellsAre(weights.maps[0], {0.5, 0.5, 0, nan, nan, nan}));
  QCOMPARE(extract(r, Stage::weights, 1, -1, false).maps.size(), std::size_t{2});
  QCOMPARE(extract(r, Stage::weights, 1, 5).maps.size(), std::size_t{3});  // no head 5: all
  QCOMPARE(extract(r, Stage::head_output, 1, -1, true).maps.size(), std::size_t{2});

  for (const int batch : {2, -1}) {
    QString what;
    try {
      (void)extract(r, Stage::weights, batch);
    } catch (const mhaviz::InvalidInput& e) {
      what = QString::fromUtf8(e.what());
    }
    QCOMPARE(what, QStringLiteral("batch element %1 does not exist: the result has 2 (choose 0..1)")
                       .arg(batch));
  }
}

// ExtractMode::describe copies nothing: its maps read their cells, the head average and the
// mask flags from the result, the same as the copies, and have statistics only after
// computeStats, the same as the copies'. ExtractMode::deferred leaves the scores underived (NaN)
// until deriveMaps.
void TestStages::describedAndDeferredMapsReadAsTheCopies() {
  const mhaviz::ForwardResult r = mhaviz::ui::test::run(knownProblem());
  for (const Stage stage : {Stage::weights, Stage::scores, Stage::q}) {
    ViewOptions view;
    view.stage = stage;
    const StageData copied = extractStage(r, view, ExtractMode::copy);
    StageData described = extractStage(r, view, ExtractMode::describe);
    QVERIFY(!described.statsReady);
    QCOMPARE(described.maps.size(), copied.maps.size());
    for (std::size_t m = 0; m < copied.maps.size(); ++m) {
      const MapData& c = copied.maps[m];
      const MapData& d = described.maps[m];
      QVERIFY(d.values.empty());
      QCOMPARE(d.title, c.title);
      QCOMPARE(d.hasMask(), c.hasMask());
      for (int i = 0; i < c.rows; ++i) {
        for (int j = 0; j < c.cols; ++j) {
          QVERIFY(same(d.valueAt(i, j), c.valueAt(i, j)));
          QCOMPARE(d.maskedAt(i, j), c.maskedAt(i, j));
        }
      }
    }
    QVERIFY(computeStats(described));
    QVERIFY(described.statsReady);
    QCOMPARE(described.lo, copied.lo);
    QCOMPARE(described.hi, copied.hi);
    for (std::size_t m = 0; m < copied.maps.size(); ++m) {
      QCOMPARE(described.maps[m].hasNan, copied.maps[m].hasNan);
      QCOMPARE(described.maps[m].finiteHi, copied.maps[m].finiteHi);
    }
  }
  ViewOptions view;
  view.stage = Stage::scores;
  StageData deferred = extractStage(r, view, ExtractMode::deferred);
  QVERIFY(deferred.maps[1].source.tensor == nullptr);
  QVERIFY(std::isnan(deferred.maps[1].valueAt(0, 1)));  // not derived yet
  deriveMaps(deferred);
  QVERIFY(deferred.maps[1].source.tensor != nullptr);
  QVERIFY(!deferred.maps[1].source.derive);
  QCOMPARE(deferred.maps[1].valueAt(0, 1), std::log(3.0));
  QCOMPARE(deferred.maps[1].valueAt(1, 0), -kInf);
  QVERIFY(deferred.maps[1].maskedAt(0, 2));
  QVERIFY(!deferred.maps[1].maskedAt(0, 1));
}
