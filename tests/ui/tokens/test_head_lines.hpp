#pragma once
// mhaviz-head-lines-tests' QtTest class, its slots defined in test_head_lines.cpp (the layout of
// made-up maps) and test_head_lines_picture.cpp (a real forward pass, the picture's geometry,
// the view's head chips), and the helpers both use: a made-up map, every head chosen.

#include <QObject>
#include <QString>
#include <cstddef>
#include <utility>
#include <vector>

#include "stages/stage_data.hpp"
#include "tokens/head_lines.hpp"

namespace mhaviz::ui::test {

// One copied map of rows x cols values, keys labelled k0.. (kinds as given).
inline MapData makeMap(int rows, int cols, std::vector<double> values,
                       std::vector<KeyKind> kinds = {}) {
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

inline HeadLinesOptions allHeads(const StageData& data) {
  HeadLinesOptions options;
  for (int h = 0; h < static_cast<int>(data.maps.size()); ++h) options.heads.push_back(h);
  return options;
}

}  // namespace mhaviz::ui::test

class TestHeadLines : public QObject {
  Q_OBJECT

 private slots:  // in the order they run
  void alphaIsTheWeightAndEveryPositivePairHasALine();
  void onlyTheChosenHeadsAreDrawn();
  void coverageKeepsTheFewestStrongestLines();
  void manyLinesAreDrawnWeakestFirstAsAStableSortWould();
  void aHazeOfFaintLinesKeepsTheOrderItWasReadIn();
  void maskedPairsDrawNoLine();
  void extraKeysAreRowsOfTheirOwnSetApart();
  void aNanQueryIsMarkedAndDrawsNothing();
  void hoverShowsOneTokensLinesWithTheirWeights();
  void normsAreScaledToTheLargest();
  void aForwardPassWithBiasKAndZeroDrawsItsWeights();
  void biasKAloneAndZeroAloneGiveExactlyTheirRows();
  void narrowPicturesKeepQueriesLeftOfKeys();
  void theLimitCountsQueriesAndSourceKeys();
  void rasterLinesDrawWhereTheyRun();
  void aHazeOfThinLinesBlendsAsRealNumbersDo();
  void theFaintLinesOfOnePairAreDrawnAsOne();
  void aBandDrawsTheLinesOfItsTokens();
  void theLabelColumnFitsTheWidestLabel();
  void manyHeadChipsWrapInsteadOfWideningTheView();
};
