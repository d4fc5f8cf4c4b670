// The head view's layout without a window (tokens/head_lines.hpp): which lines are drawn with
// which opacity, the coverage threshold, masked pairs, the bias_k / zero rows, NaN queries,
// hover; and the same against a real forward pass (tokens/head_view_picture.hpp).

#include <QTest>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include "mhaviz/core/config.hpp"
#include "stages/stage_data.hpp"
#include "../render/test_render_common.hpp"
#include "tokens/head_lines.hpp"
#include "tokens/head_view_picture.hpp"

using mhaviz::KeyKind;
using mhaviz::ui::HeadLine;
using mhaviz::ui::HeadLines;
using mhaviz::ui::HeadLinesOptions;
using mhaviz::ui::MapData;
using mhaviz::ui::StageData;
using mhaviz::ui::TokenHit;

namespace {

// One copied map of rows x cols values, keys labelled k0.. (kinds as given).
MapData makeMap(int rows, int cols, std::vector<double> values, std::vector<KeyKind> kinds = {}) {
  MapData map;
  map.rows = rows;
  map.cols = cols;
  map.values = std::move(values);
  for (int j = 0; j < cols; ++j) {
    const KeyKind kind = static_cast<std::size_t>(j) < kinds.size()
                             ? kinds[static_cast<std::size_t>(j)]
                             : KeyKind::source;
    map.columns.push_back({QStringLiteral("k%1").arg(j), kind});
  }
  return map;
}

HeadLinesOptions allHeads(const StageData& data) {
  HeadLinesOptions options;
  for (int h = 0; h < static_cast<int>(data.maps.size()); ++h) options.heads.push_back(h);
  return options;
}

std::set<std::pair<int, int>> pairsOf(const HeadLines& lines, int head) {
  std::set<std::pair<int, int>> out;
  for (const HeadLine& l : lines.lines) {
    if (l.head == head) out.insert({l.query, l.key});
  }
  return out;
}

}  // namespace

class TestHeadLines : public QObject {
  Q_OBJECT

 private slots:
  void alphaIsTheWeightAndEveryPositivePairHasALine() {
    StageData data;
    data.maps.push_back(makeMap(2, 3, {0.5, 0.3, 0.2, 0.0, 0.9, 0.1}));
    data.maps.push_back(makeMap(2, 3, {0.1, 0.1, 0.8, 0.6, 0.2, 0.2}));
    const HeadLines lines = mhaviz::ui::layoutHeadLines(data, {}, allHeads(data));
    QCOMPARE(lines.lines.size(), std::size_t{11});  // 12 pairs, one of weight 0
    for (const HeadLine& l : lines.lines) {
      const double w = data.maps[static_cast<std::size_t>(l.head)].valueAt(l.query, l.key);
      QCOMPARE(l.weight, w);
      QCOMPARE(l.alpha, w);
      QVERIFY(w > 0);
    }
    QVERIFY(!pairsOf(lines, 0).contains({1, 0}));  // weight 0: no line
    QCOMPARE(lines.hiddenLines, 0);
    // Drawn weakest first, strongest on top.
    for (std::size_t k = 1; k < lines.lines.size(); ++k) {
      QVERIFY(lines.lines[k - 1].alpha <= lines.lines[k].alpha);
    }
    // Queries on the left, keys on the right, rows in order, labels positions by default.
    QCOMPARE(lines.queries.size(), std::size_t{2});
    QCOMPARE(lines.keys.size(), std::size_t{3});
    QCOMPARE(lines.queries[1].label, QStringLiteral("1"));
    QCOMPARE(lines.keys[2].label, QStringLiteral("k2"));
    QVERIFY(lines.queries[0].anchor.x() < lines.keys[0].anchor.x());
    QVERIFY(lines.queries[0].anchor.y() < lines.queries[1].anchor.y());
    QVERIFY(lines.keys[1].anchor.y() < lines.keys[2].anchor.y());
    QCOMPARE(lines.firstExtraKey, -1);
  }

  void onlyTheChosenHeadsAreDrawn() {
    StageData data;
    data.maps.push_back(makeMap(1, 2, {0.5, 0.5}));
    data.maps.push_back(makeMap(1, 2, {0.25, 0.75}));
    HeadLinesOptions options;
    options.heads = {1};
    const HeadLines lines = mhaviz::ui::layoutHeadLines(data, {}, options);
    QCOMPARE(lines.lines.size(), std::size_t{2});
    for (const HeadLine& l : lines.lines) QCOMPARE(l.head, 1);
  }

  void coverageKeepsTheFewestStrongestLines() {
    StageData data;
    data.maps.push_back(makeMap(1, 4, {0.15, 0.5, 0.05, 0.3}));
    HeadLinesOptions options = allHeads(data);
    options.coverage = 0.8;  // 0.5 + 0.3 reach it exactly
    HeadLines lines = mhaviz::ui::layoutHeadLines(data, {}, options);
    QCOMPARE(pairsOf(lines, 0), (std::set<std::pair<int, int>>{{0, 1}, {0, 3}}));
    QCOMPARE(lines.hiddenLines, 2);
    options.coverage = 0.81;  // needs the third strongest too
    lines = mhaviz::ui::layoutHeadLines(data, {}, options);
    QCOMPARE(pairsOf(lines, 0), (std::set<std::pair<int, int>>{{0, 0}, {0, 1}, {0, 3}}));
    QCOMPARE(lines.hiddenLines, 1);
    options.coverage = 0.4;  // the strongest alone
    lines = mhaviz::ui::layoutHeadLines(data, {}, options);
    QCOMPARE(pairsOf(lines, 0), (std::set<std::pair<int, int>>{{0, 1}}));
    QCOMPARE(lines.hiddenLines, 3);
    options.coverage = 1.0;
    lines = mhaviz::ui::layoutHeadLines(data, {}, options);
    QCOMPARE(lines.lines.size(), std::size_t{4});
    QCOMPARE(lines.hiddenLines, 0);
  }

  void maskedPairsDrawNoLine() {
    StageData data;
    MapData map = makeMap(2, 2, {1.0, 0.0, 0.4, 0.6});
    map.masked = {0, 1, 0, 0};
    // A masked pair never draws, whatever value it holds.
    map.values[1] = 0.2;
    data.maps.push_back(map);
    const HeadLines lines = mhaviz::ui::layoutHeadLines(data, {}, allHeads(data));
    QCOMPARE(pairsOf(lines, 0), (std::set<std::pair<int, int>>{{0, 0}, {1, 0}, {1, 1}}));
  }

  void extraKeysAreRowsOfTheirOwnSetApart() {
    StageData data;
    data.maps.push_back(
        makeMap(2, 4, {0.4, 0.2, 0.3, 0.1, 0.25, 0.25, 0.25, 0.25},
                {KeyKind::source, KeyKind::source, KeyKind::bias_k, KeyKind::zero}));
    data.maps[0].columns[2].label = QStringLiteral("bias_k");
    data.maps[0].columns[3].label = QStringLiteral("zero");
    const HeadLines lines = mhaviz::ui::layoutHeadLines(data, {}, allHeads(data));
    QCOMPARE(lines.keys.size(), std::size_t{4});
    QCOMPARE(lines.queries.size(), std::size_t{2});  // no query rows for them
    QCOMPARE(lines.firstExtraKey, 2);
    QCOMPARE(lines.keys[2].kind, KeyKind::bias_k);
    QCOMPARE(lines.keys[3].kind, KeyKind::zero);
    QCOMPARE(lines.keys[2].label, QStringLiteral("bias_k"));
    // Set apart: the separator between the source keys and the extra ones, a larger step there.
    QVERIFY(lines.separatorY > lines.keys[1].box.bottom());
    QVERIFY(lines.separatorY < lines.keys[2].box.top());
    const double step = lines.keys[1].anchor.y() - lines.keys[0].anchor.y();
    QVERIFY(lines.keys[2].anchor.y() - lines.keys[1].anchor.y() > step * 1.2);
    QVERIFY(pairsOf(lines, 0).contains({0, 2}));
    QVERIFY(pairsOf(lines, 0).contains({1, 3}));
  }

  void aNanQueryIsMarkedAndDrawsNothing() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    StageData data;
    data.maps.push_back(makeMap(2, 2, {nan, nan, 0.5, 0.5}));
    const HeadLines lines = mhaviz::ui::layoutHeadLines(data, {"a", "b"}, allHeads(data));
    QVERIFY(lines.queries[0].nan);
    QVERIFY(!lines.queries[1].nan);
    QCOMPARE(lines.queries[0].label, QStringLiteral("a"));
    QCOMPARE(pairsOf(lines, 0), (std::set<std::pair<int, int>>{{1, 0}, {1, 1}}));
  }

  void hoverShowsOneTokensLinesWithTheirWeights() {
    StageData data;
    data.maps.push_back(makeMap(2, 3, {0.5, 0.3, 0.2, 0.1, 0.7, 0.2}));
    data.maps.push_back(makeMap(2, 3, {0.2, 0.2, 0.6, 0.3, 0.3, 0.4}));
    HeadLinesOptions options = allHeads(data);
    options.hoverQuery = 1;
    HeadLines lines = mhaviz::ui::layoutHeadLines(data, {}, options);
    QCOMPARE(lines.lines.size(), std::size_t{6});
    for (const HeadLine& l : lines.lines) QCOMPARE(l.query, 1);
    QVERIFY(lines.notesAtKeys);
    QCOMPARE(lines.notes.size(), std::size_t{6});
    for (const auto& n : lines.notes) {
      QCOMPARE(n.weight, data.maps[static_cast<std::size_t>(n.head)].valueAt(1, n.row));
    }
    options.hoverQuery = -1;
    options.hoverKey = 2;
    lines = mhaviz::ui::layoutHeadLines(data, {}, options);
    QCOMPARE(lines.lines.size(), std::size_t{4});
    for (const HeadLine& l : lines.lines) QCOMPARE(l.key, 2);
    QVERIFY(!lines.notesAtKeys);
    QCOMPARE(lines.notes.size(), std::size_t{4});
    // The points over the tokens say which one.
    const TokenHit q = mhaviz::ui::hitToken(lines, lines.queries[1].box.center());
    QCOMPARE(q.side, TokenHit::Side::query);
    QCOMPARE(q.row, 1);
    const TokenHit k = mhaviz::ui::hitToken(lines, lines.keys[2].box.center());
    QCOMPARE(k.side, TokenHit::Side::key);
    QCOMPARE(k.row, 2);
    const QPointF middle((lines.queries[0].anchor.x() + lines.keys[0].anchor.x()) / 2,
                         lines.keys[0].anchor.y());
    QCOMPARE(mhaviz::ui::hitToken(lines, middle).side, TokenHit::Side::none);
  }

  void normsAreScaledToTheLargest() {
    StageData data;
    data.maps.push_back(makeMap(1, 2, {2.0, 4.0}));
    HeadLinesOptions options = allHeads(data);
    options.unitWeights = false;
    const HeadLines lines = mhaviz::ui::layoutHeadLines(data, {}, options);
    QCOMPARE(lines.lines.size(), std::size_t{2});
    QCOMPARE(lines.lines[0].alpha, 0.5);
    QCOMPARE(lines.lines[1].alpha, 1.0);
  }

  void aForwardPassWithBiasKAndZeroDrawsItsWeights() {
    mhaviz::Config config;
    config.embed_dim = 8;
    config.num_heads = 2;
    config.tgt_len = 4;
    config.src_len = 5;
    config.add_bias_kv = true;
    config.add_zero_attn = true;
    const mhaviz::ForwardResult result = mhaviz::ui::test::computeResult(config, true);
    mhaviz::ui::ViewOptions view;
    const StageData data = mhaviz::ui::headViewData(result, view);
    QCOMPARE(data.maps.size(), std::size_t{2});
    const HeadLines lines = mhaviz::ui::layoutHeadLines(data, {}, allHeads(data));
    QCOMPARE(lines.keys.size(), std::size_t{7});  // S + bias_k + zero
    QCOMPARE(lines.firstExtraKey, 5);
    QCOMPARE(lines.keys[5].kind, KeyKind::bias_k);
    QCOMPARE(lines.keys[6].kind, KeyKind::zero);
    // Every line's weight is the pass's weight; the causal mask's pairs (j > i) have none.
    std::size_t expected = 0;
    for (std::int64_t h = 0; h < 2; ++h) {
      for (std::int64_t i = 0; i < 4; ++i) {
        for (std::int64_t j = 0; j < 7; ++j) {
          const double w = result.weights.value(((0 * 2 + h) * 4 + i) * 7 + j);
          const bool maskedKey = j < 5 && j > i;
          if (w > 0 && !maskedKey) ++expected;
        }
      }
    }
    QCOMPARE(lines.lines.size(), expected);
    for (const HeadLine& l : lines.lines) {
      QVERIFY(!(l.key < 5 && l.key > l.query));
      QCOMPARE(l.alpha, result.weights.value(((0 * 2 + l.head) * 4 + l.query) * 7 + l.key));
    }
    // The grid's solo head is the head view's only head.
    view.soloHead = 1;
    QCOMPARE(mhaviz::ui::headsShown(view, 2, {}), std::vector<int>{1});
    view.soloHead = -1;
    QCOMPARE(mhaviz::ui::headsShown(view, 2, {false, true}), std::vector<int>{1});
    QCOMPARE(mhaviz::ui::headsShown(view, 2, {}), (std::vector<int>{0, 1}));
  }
};

QTEST_MAIN(TestHeadLines)
#include "test_head_lines.moc"
