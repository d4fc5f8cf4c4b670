#pragma once
// mhaviz-teach-tests' QtTest class, its slots defined in test_teach.cpp (the grid's solo head, the
// weight matrices, bias_k), test_teach_breakdown.cpp (the cell breakdown) and
// test_teach_guides.cpp (shape flow, help text, walk-through, bundled examples), and the helpers
// those files share: a computed example and independent reads of its tensors.

#include <QObject>
#include <cmath>
#include <cstdint>

#include "../stages/stage_results.hpp"
#include "teach/examples.hpp"

namespace mhaviz::ui::test {

inline mhaviz::Config biasZeroConfig() {
  mhaviz::Config c = loadExample(QStringLiteral(":/examples/bias_kv_and_zero_attn.json"));
  c.dtype = mhaviz::DType::float64;
  return c;
}

// Element (n, h, r, c) of a (N, H, rows, cols) tensor, indexed independently of the UI code.
inline double at4(const mhaviz::Tensor& t, std::int64_t n, std::int64_t h, std::int64_t r,
                  std::int64_t c) {
  const auto& s = t.shape();
  return t.value(((n * s[1] + h) * s[2] + r) * s[3] + c);
}

inline bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }
}  // namespace mhaviz::ui::test

class TestTeach : public QObject {
  Q_OBJECT

 private slots:  // in the order they run
  void theGridShowsTheSelectedHeadOfTheScores();
  void weightMatricesNameOutputAndInputFeatures();
  void theBiasKvExampleTellsBiasKFromTheZeroKey();
  void biasKHelpSaysItIsAKeyWithoutAQuery();
  void breakdownOfANormalCellReproducesTheWeight();
  void breakdownOfAMaskedCellIsZero();
  void breakdownOfTheBiasKColumn();
  void breakdownOfTheZeroColumn();
  void breakdownOfANanCellExplainsTheFullyMaskedRow();
  void breakdownInFloat32AgreesToRounding();
  void averageCellListsEveryHead();
  void softCapIsAStageAndABreakdownRow();
  void shapeTableEqualsShapeFlow();
  void helpTextStatesTheKeyCountsAndTheMisconception();
  void walkThroughFollowsPyTorchsOrder();
  void everyBundledExampleParsesAndComputes();
};
