// The head view's layout without a window (tokens/head_lines.hpp), on made-up maps: which lines
// are drawn with which opacity, the coverage threshold, the drawing order, masked pairs, the
// bias_k / zero rows, NaN queries, hover, norms (TestHeadLines, test_head_lines.hpp).

#include <QTest>
#include <array>
#include <limits>
#include <set>
#include <utility>

#include "stages/stage_data.hpp"
#include "test_head_lines.hpp"
#include "tokens/head_lines.hpp"

using mhaviz::KeyKind;
using mhaviz::ui::HeadLine;
using mhaviz::ui::HeadLines;
using mhaviz::ui::HeadLinesOptions;
using mhaviz::ui::MapData;
using mhaviz::ui::StageData;
using mhaviz::ui::TokenHit;
using mhaviz::ui::test::allHeads;
using mhaviz::ui::test::makeMap;

namespace {

std::set<std::pair<int, int>> pairsOf(const HeadLines& lines, int head) {
  std::set<std::pair<int, int>> out;
  for (const HeadLine& l : lines.lines) {
    if (l.head == head) out.insert({l.query, l.key});
  }
  return out;
}

}  // namespace

void TestHeadLines::alphaIsTheWeightAndEveryPositivePairHasALine() {
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

void TestHeadLines::onlyTheChosenHeadsAreDrawn() {
  StageData data;
  data.maps.push_back(makeMap(1, 2, {0.5, 0.5}));
  data.maps.push_back(makeMap(1, 2, {0.25, 0.75}));
  HeadLinesOptions options;
  options.heads = {1};
  const HeadLines lines = mhaviz::ui::layoutHeadLines(data, {}, options);
  QCOMPARE(lines.lines.size(), std::size_t{2});
  for (const HeadLine& l : lines.lines) QCOMPARE(l.head, 1);
}

void TestHeadLines::coverageKeepsTheFewestStrongestLines() {
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

// Thousands of lines (the radix sort's path) drawn weakest first, ties in query, head, key
// order, exactly as a stable sort by alpha would: values that differ only below a float's
// precision among them; a hovered token's lines in that order, its notes by head and key (a
// query's) or by query and head (a key's); every line picked without a hover is the
// selection's own, not a copy.
void TestHeadLines::manyLinesAreDrawnWeakestFirstAsAStableSortWould() {
  const int n = 48;
  const std::array<double, 5> base = {0.25, 0.5, 0.125, 0.75, 0.3};
  StageData data;
  for (int h = 0; h < 2; ++h) {
    std::vector<double> values;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        // Ties, and near ties that one float cannot tell apart, falling as the query rises.
        values.push_back(base[static_cast<std::size_t>((i * 7 + j * 3 + h) % 5)] +
                         ((n - i) % 3) * 1e-13);
      }
    }
    data.maps.push_back(makeMap(n, n, values));
  }
  HeadLinesOptions options = allHeads(data);
  options.unitWeights = false;  // alpha = value / largest, as for norms
  struct Expected {
    int head, query, key;
    double alpha;
  };
  std::vector<Expected> expected;
  const double largest = 0.75 + 2e-13;
  for (int i = 0; i < n; ++i) {
    for (int h = 0; h < 2; ++h) {
      for (int j = 0; j < n; ++j) {
        expected.push_back(
            {h, i, j, data.maps[static_cast<std::size_t>(h)].valueAt(i, j) / largest});
      }
    }
  }
  std::stable_sort(expected.begin(), expected.end(),
                   [](const Expected& a, const Expected& b) { return a.alpha < b.alpha; });
  const mhaviz::ui::LineSelection selection = mhaviz::ui::selectHeadLines(data, options);
  HeadLines all = mhaviz::ui::headLinesGeometry(data, {}, options);
  mhaviz::ui::pickHeadLines(all, selection, data, options);
  QCOMPARE(all.lines.size(), expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const HeadLine& l = all.lines[k];
    QVERIFY2(l.head == expected[k].head && l.query == expected[k].query &&
                 l.key == expected[k].key && l.alpha == expected[k].alpha,
             qPrintable(QStringLiteral("line %1").arg(k)));
  }
  HeadLines again = mhaviz::ui::headLinesGeometry(data, {}, options);
  mhaviz::ui::pickHeadLines(again, selection, data, options);
  QCOMPARE(&again.lines[0], &all.lines[0]);

  options.hoverQuery = 5;
  HeadLines query = mhaviz::ui::headLinesGeometry(data, {}, options);
  mhaviz::ui::pickHeadLines(query, selection, data, options);
  std::vector<HeadLine> wanted;
  for (const HeadLine& l : all.lines) {
    if (l.query == 5) wanted.push_back(l);
  }
  QCOMPARE(query.lines.size(), wanted.size());
  for (std::size_t k = 0; k < wanted.size(); ++k) {
    QCOMPARE(query.lines[k].head, wanted[k].head);
    QCOMPARE(query.lines[k].key, wanted[k].key);
  }
  QCOMPARE(query.notes.size(), wanted.size());
  for (std::size_t k = 0; k < query.notes.size(); ++k) {
    QCOMPARE(query.notes[k].slot, static_cast<int>(k) / n);
    QCOMPARE(query.notes[k].row, static_cast<int>(k) % n);
  }

  options.hoverQuery = -1;
  options.hoverKey = 7;
  HeadLines key = mhaviz::ui::headLinesGeometry(data, {}, options);
  mhaviz::ui::pickHeadLines(key, selection, data, options);
  wanted.clear();
  for (const HeadLine& l : all.lines) {
    if (l.key == 7) wanted.push_back(l);
  }
  QCOMPARE(key.lines.size(), wanted.size());
  for (std::size_t k = 0; k < wanted.size(); ++k) {
    QCOMPARE(key.lines[k].head, wanted[k].head);
    QCOMPARE(key.lines[k].query, wanted[k].query);
  }
  for (std::size_t k = 0; k < key.notes.size(); ++k) {
    QCOMPARE(key.notes[k].row, static_cast<int>(k) / 2);
    QCOMPARE(key.notes[k].slot, static_cast<int>(k) % 2);
  }
}

// More than kManyLines lines: the faint ones (opacity below kFaintLine), a haze in the picture,
// come first in the order read (query, head, key), the others after them weakest first; a
// hovered token's lines are still weakest first.
void TestHeadLines::aHazeOfFaintLinesKeepsTheOrderItWasReadIn() {
  const int n = 80;
  const int heads = 4;  // 25,600 lines
  static_assert(n * n * heads > static_cast<int>(mhaviz::ui::kManyLines));
  StageData data;
  for (int h = 0; h < heads; ++h) {
    std::vector<double> values;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        // Faint weights falling along the row, a strong one every 16th key.
        values.push_back((i + j + h) % 16 == 0 ? 0.3 + 0.01 * ((i + h) % 5) : 0.2 - 0.002 * j);
      }
    }
    data.maps.push_back(makeMap(n, n, values));
  }
  const HeadLinesOptions options = allHeads(data);
  const mhaviz::ui::LineSelection selection = mhaviz::ui::selectHeadLines(data, options);
  QCOMPARE(selection.lines.size(), std::size_t{n * n * heads});
  std::size_t k = 0;
  for (int i = 0; i < n; ++i) {
    for (int h = 0; h < heads; ++h) {
      for (int j = 0; j < n; ++j) {
        if ((i + j + h) % 16 == 0) continue;
        const HeadLine& l = selection.lines[k++];
        QVERIFY2(l.query == i && l.head == h && l.key == j && l.alpha < mhaviz::ui::kFaintLine,
                 qPrintable(QStringLiteral("faint line %1").arg(k)));
      }
    }
  }
  QVERIFY(k > 0 && k < selection.lines.size());
  for (; k + 1 < selection.lines.size(); ++k) {
    QVERIFY(selection.lines[k].alpha >= mhaviz::ui::kFaintLine);
    QVERIFY(selection.lines[k].alpha <= selection.lines[k + 1].alpha);
  }
  HeadLinesOptions hover = options;
  hover.hoverQuery = 7;
  HeadLines hovered = mhaviz::ui::headLinesGeometry(data, {}, hover);
  mhaviz::ui::pickHeadLines(hovered, selection, data, hover);
  QCOMPARE(hovered.lines.size(), std::size_t{n * heads});
  for (std::size_t m = 0; m + 1 < hovered.lines.size(); ++m)
    QVERIFY(hovered.lines[m].alpha <= hovered.lines[m + 1].alpha);
}

void TestHeadLines::maskedPairsDrawNoLine() {
  StageData data;
  MapData map = makeMap(2, 2, {1.0, 0.0, 0.4, 0.6});
  map.masked = {0, 1, 0, 0};
  // A masked pair never draws, whatever value it holds.
  map.values[1] = 0.2;
  data.maps.push_back(map);
  const HeadLines lines = mhaviz::ui::layoutHeadLines(data, {}, allHeads(data));
  QCOMPARE(pairsOf(lines, 0), (std::set<std::pair<int, int>>{{0, 0}, {1, 0}, {1, 1}}));
}

void TestHeadLines::extraKeysAreRowsOfTheirOwnSetApart() {
  StageData data;
  data.maps.push_back(makeMap(2, 4, {0.4, 0.2, 0.3, 0.1, 0.25, 0.25, 0.25, 0.25},
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

void TestHeadLines::aNanQueryIsMarkedAndDrawsNothing() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  StageData data;
  data.maps.push_back(makeMap(2, 2, {nan, nan, 0.5, 0.5}));
  const HeadLines lines = mhaviz::ui::layoutHeadLines(data, {"a", "b"}, allHeads(data));
  QVERIFY(lines.queries[0].nan);
  QVERIFY(!lines.queries[1].nan);
  QCOMPARE(lines.queries[0].label, QStringLiteral("a"));
  QCOMPARE(pairsOf(lines, 0), (std::set<std::pair<int, int>>{{1, 0}, {1, 1}}));
}

void TestHeadLines::hoverShowsOneTokensLinesWithTheirWeights() {
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

void TestHeadLines::normsAreScaledToTheLargest() {
  StageData data;
  data.maps.push_back(makeMap(1, 2, {2.0, 4.0}));
  HeadLinesOptions options = allHeads(data);
  options.unitWeights = false;
  const HeadLines lines = mhaviz::ui::layoutHeadLines(data, {}, options);
  QCOMPARE(lines.lines.size(), std::size_t{2});
  QCOMPARE(lines.lines[0].alpha, 0.5);
  QCOMPARE(lines.lines[1].alpha, 1.0);
}

QTEST_MAIN(TestHeadLines)
