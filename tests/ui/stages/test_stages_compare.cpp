// Compare mode's data without the window: A's and B's maps of one stage and B - A, where the NaN
// cells of B - A come from, and why there is no difference (TestStages' slots,
// test_stages.hpp).

#include <QTest>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/plan/problem.hpp"
#include "stages/compare_stage.hpp"
#include "test_stages.hpp"

using namespace mhaviz::ui;  // NOLINT(google-build-using-namespace): test brevity
using mhaviz::ui::test::at4;
using mhaviz::ui::test::computeResult;
using mhaviz::ui::test::knownProblem;
using mhaviz::ui::test::smallConfig;

// The cause follows the settings: need_weights=True gives NaN under 2.x as well.
void TestStages::theNanCauseFollowsTheSettings() {
  mhaviz::Config a;
  a.embed_dim = 8;
  a.num_heads = 2;
  a.need_weights = false;
  a.attn_mask_spec.kind = mhaviz::gen::MaskKind::custom;
  a.attn_mask_spec.cells = {{2, 0, -1, std::nullopt}};
  for (std::int64_t j = 1; j < a.src_len; ++j) a.attn_mask_spec.cells.push_back({2, j, -1, {}});
  mhaviz::Config b = a;
  b.need_weights = true;
  const auto run = [](const mhaviz::Config& c) {
    const mhaviz::Problem p = mhaviz::make_problem(c);
    return mhaviz::forward(p.config, p.params, p.inputs);
  };
  const mhaviz::ForwardResult ra = run(a), rb = run(b);
  mhaviz::ui::ViewOptions view;
  const mhaviz::ui::CompareData d = mhaviz::ui::compareStage(ra, rb, view);
  QCOMPARE(d.nanNotes.size(), 1);
  const QString note = d.nanNotes.front();
  QVERIFY2(note.contains(QStringLiteral("B is NaN where A is not, in query 2 of batch "
                                        "element 0")),
           qPrintable(note));
  QVERIFY2(note.contains(QStringLiteral("with need_weights=True a fully masked query gives NaN")),
           qPrintable(note));
  // Only B masks query 2: then the masks are the cause.
  mhaviz::Config open = a;
  open.attn_mask_spec.cells.clear();
  const mhaviz::ui::CompareData e = mhaviz::ui::compareStage(run(open), rb, view);
  QCOMPARE(e.nanNotes.size(), 1);
  QVERIFY2(e.nanNotes.front().contains(QStringLiteral("masked in B but not in A")),
           qPrintable(e.nanNotes.front()));
}

namespace {

/// The known problem (test_stages.hpp) with 0 in feature 1 of query 0 of batch element 0: head 1
/// of that query then scores keys 0 and 1 alike, [0, 0] for A's [0, ln 3], and weighs them
/// [1/2, 1/2] for A's [1/4, 3/4]; nothing else changes.
mhaviz::Problem knownB() {
  mhaviz::Problem p = knownProblem();
  p.inputs.query = mhaviz::Tensor::from<double>({2, 2, 2}, {1, 0, 2, -1, 3, 0, 1, 1});
  return p;
}

bool plusZero(double x) { return std::bit_cast<std::uint64_t>(x) == 0; }

}  // namespace

// B - A of the weights: 0 bit for bit where A and B are equal (head 0, the masked key), [1/4,
// -1/4] in head 1 and half that in the average, NaN where NaN meets NaN (query 1, fully masked in
// both), which the NaN note says once with every map it is in. In the scores -inf meets -inf
// (masked in both) as 0, not NaN.
void TestStages::bMinusAOfAKnownResultWhereNanMeetsNan() {
  const mhaviz::ForwardResult a = mhaviz::ui::test::run(knownProblem());
  const mhaviz::ForwardResult b = mhaviz::ui::test::run(knownB());
  ViewOptions view;
  const CompareData d = compareStage(a, b, view);
  QVERIFY2(d.ok(), qPrintable(d.mismatch));
  QVERIFY(d.notes.isEmpty());
  QCOMPARE(d.a.maps.size(), std::size_t{3});
  QCOMPARE(d.b.maps.size(), std::size_t{3});
  QCOMPARE(d.diff.maps.size(), std::size_t{3});
  QCOMPARE(d.diff.maps[1].title, QStringLiteral("head 1, B − A"));
  QCOMPARE(d.diff.maps[2].title, QStringLiteral("average over heads, B − A"));
  QCOMPARE(d.diff.unit, QStringLiteral("B − A (range symmetric about 0)"));
  QVERIFY(d.diff.isSigned);
  const MapData& h0 = d.diff.maps[0];
  const MapData& h1 = d.diff.maps[1];
  const MapData& avg = d.diff.maps[2];
  QCOMPARE(h1.rows, 2);
  QCOMPARE(h1.cols, 3);
  for (std::size_t j = 0; j < 3; ++j) QVERIFY(plusZero(h0.values[j]));
  QCOMPARE(h1.values[0], 0.25);
  QCOMPARE(h1.values[1], -0.25);
  QVERIFY(plusZero(h1.values[2]));
  QCOMPARE(avg.values[0], 0.125);
  QCOMPARE(avg.values[1], -0.125);
  QVERIFY(plusZero(avg.values[2]));
  for (const MapData& m : d.diff.maps) {
    for (std::size_t j = 3; j < 6; ++j) QVERIFY(std::isnan(m.values[j]));
  }
  QCOMPARE(d.diff.lo, -0.25);
  QCOMPARE(d.diff.hi, 0.25);
  QCOMPARE(d.nanNotes,
           QStringList{QStringLiteral(
               "A and B are both NaN in query 1 of batch element 0 (head 0, head 1, average over "
               "heads): every key of these queries is masked in both")});

  view.stage = Stage::scores;
  const CompareData s = compareStage(a, b, view);
  QVERIFY2(s.ok(), qPrintable(s.mismatch));
  QCOMPARE(s.diff.maps.size(), std::size_t{2});
  const std::vector<double> want = {0, -std::log(3.0), 0, 0, 0, 0};
  for (std::size_t k = 0; k < want.size(); ++k) {
    QVERIFY(plusZero(s.diff.maps[0].values[k]));  // head 0: the same scores, -inf included
    QCOMPARE(s.diff.maps[1].values[k], want[k]);
  }
  QVERIFY(s.nanNotes.isEmpty());
  QCOMPARE(s.diff.hi, std::log(3.0));
}

// Why there is no B - A: a batch element one side lacks (said with its side; the other side is
// still extracted), a different number of queries, of source keys or of heads. The data export's
// difference tensor refuses batch counts that differ; it holds the per-head differences of every
// batch element as (N, H, rows, cols), or (N, L, E) for merged and output.
void TestStages::compareSaysWhyThereIsNoDifference() {
  const mhaviz::Config c = smallConfig(false, false);  // N 2, H 2, L 5, S 7
  const mhaviz::ForwardResult a = computeResult(c);
  mhaviz::Config one = c;
  one.batch_size = 1;
  const mhaviz::ForwardResult b1 = computeResult(one);
  ViewOptions view;
  view.batch = 1;
  const CompareData missing = compareStage(a, b1, view);
  QCOMPARE(missing.mismatch,
           QStringLiteral("B: batch element 1 does not exist: the result has 1 (choose 0..0)"));
  QVERIFY(!missing.ok());
  QCOMPARE(missing.a.maps.size(), std::size_t{3});
  QVERIFY(missing.b.maps.empty() && missing.diff.maps.empty());

  view.batch = 0;
  mhaviz::Config longer = c;
  longer.tgt_len = 6;
  QCOMPARE(compareStage(a, computeResult(longer), view).mismatch,
           QStringLiteral("A has 5 queries, B has 6"));
  mhaviz::Config keys = c;
  keys.src_len = 8;
  QCOMPARE(compareStage(a, computeResult(keys), view).mismatch,
           QStringLiteral("A has 7 source keys, B has 8 (src_len or static_k differ)"));
  mhaviz::Config heads = c;
  heads.num_heads = 4;
  // The heads, not the maps: the average over heads is a map but no head.
  for (const bool average : {true, false}) {
    view.showAverage = average;
    QCOMPARE(compareStage(a, computeResult(heads), view).mismatch,
             QStringLiteral("A has 2 heads, B has 4 (num_heads differ)"));
  }

  QString what;
  try {
    (void)differenceTensor(a, b1, Stage::weights);
  } catch (const mhaviz::InvalidInput& e) {
    what = QString::fromUtf8(e.what());
  }
  QCOMPARE(what, QStringLiteral("A has 2 batch elements, B has 1"));

  const mhaviz::ForwardResult ka = mhaviz::ui::test::run(knownProblem());
  const mhaviz::ForwardResult kb = mhaviz::ui::test::run(knownB());
  const mhaviz::Tensor raw = differenceTensor(ka, kb, Stage::raw_scores);
  QCOMPARE(raw.shape(), (mhaviz::Shape{2, 2, 2, 3}));
  QCOMPARE(at4(raw, 0, 1, 0, 1), -std::log(3.0));
  QCOMPARE(at4(raw, 0, 1, 0, 2), -9.0);
  double elsewhere = 0;  // every other cell: A's and B's raw scores are equal
  for (std::int64_t k = 0; k < raw.numel(); ++k) {
    const bool changed = k == (0 * 2 + 1) * 2 * 3 + 1 || k == (0 * 2 + 1) * 2 * 3 + 2;
    if (!changed) elsewhere = std::max(elsewhere, std::abs(raw.value(k)));
  }
  QCOMPARE(elsewhere, 0.0);
  QCOMPARE(differenceTensor(ka, kb, Stage::merged).shape(), (mhaviz::Shape{2, 2, 2}));
}
