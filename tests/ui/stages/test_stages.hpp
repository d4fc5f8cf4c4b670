#pragma once
// mhaviz-stages-tests' QtTest class, its slots defined in test_stages_extract.cpp (every stage's
// maps against the core's tensors, the parameter and measure stages), test_stages_known.cpp (the
// maps of a result small enough to compute by hand), test_stages_compare.cpp (A, B and B - A) and
// test_stages_text.cpp (the reduced result, names, units, statistics), and the helpers those
// files share: small configurations, a result known by hand and independent reads of tensors.

#include <QFile>
#include <QObject>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "mhaviz/core/io/config_json.hpp"
#include "stage_results.hpp"

namespace mhaviz::ui::test {

/// The bundled example "add_bias_kv and add_zero_attn together" (resources/examples, built into
/// this test as it is into the teach layer) in float64.
inline mhaviz::Config biasZeroConfig() {
  QFile file(QStringLiteral(":/examples/bias_kv_and_zero_attn.json"));
  if (!file.open(QIODevice::ReadOnly)) return {};  // no bias_k, no zero key: the test fails
  const QByteArray text = file.readAll();
  mhaviz::Config c = mhaviz::io::parse_config_json(
      std::string_view(text.constData(), static_cast<std::size_t>(text.size())),
      "bias_kv_and_zero_attn.json");
  c.dtype = mhaviz::DType::float64;
  return c;
}

// Flat index into a (N, H, A, B) tensor.
inline std::int64_t at(const mhaviz::Tensor& t, std::int64_t n, std::int64_t h, std::int64_t a,
                       std::int64_t b) {
  return ((n * t.size(1) + h) * t.size(2) + a) * t.size(3) + b;
}

// Element (n, h, r, c) of a (N, H, rows, cols) tensor, indexed independently of the UI code.
inline double at4(const mhaviz::Tensor& t, std::int64_t n, std::int64_t h, std::int64_t r,
                  std::int64_t c) {
  const auto& s = t.shape();
  return t.value(((n * s[1] + h) * s[2] + r) * s[3] + c);
}

inline bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

/// A problem small enough to compute by hand: E = 2 and two heads of one dimension each (head h
/// sees feature h; the scale 1/sqrt(1) is 1), identity q/k/v projections, no biases,
/// out_proj.weight [[3, 0], [4, 1]], float64, batch_first, N = 2, L = 2, S = 3. The bool
/// attn_mask masks key 2 of query 0 and every key of query 1 (a NaN row under need_weights).
///
///   batch 0: query [[1, 1], [2, -1]], key [[2, 0], [2, ln 3], [5, 9]], value [[4, 8], [6, 4],
///            [100, 100]]: query 0's raw scores are [2, 2, 5] in head 0 and [0, ln 3, 9] in
///            head 1, its weights [1/2, 1/2, 0] and [1/4, 3/4, 0], its head outputs 5 and 5,
///            its output out_proj [5, 5] = [15, 25].
///   batch 1: query [[3, 0], [1, 1]], key [[1, 1], [-1, 2], [0, 0]], value [[10, 20], [30, 40],
///            [50, 60]]: raw scores [3, -3, 0] and [1, -1, 0] in head 0, [0, 0, 0] and
///            [1, 2, 0] in head 1.
inline mhaviz::Problem knownProblem() {
  mhaviz::Problem p;
  mhaviz::Config& c = p.config;
  c.embed_dim = 2;
  c.num_heads = 2;
  c.bias = false;
  c.batch_first = true;
  c.batch_size = 2;
  c.tgt_len = 2;
  c.src_len = 3;
  c.dtype = mhaviz::DType::float64;
  p.params = mhaviz::init_params(c);
  p.params.in_proj_weight =
      mhaviz::Tensor::from<double>({6, 2}, {1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1});
  p.params.out_proj_weight = mhaviz::Tensor::from<double>({2, 2}, {3, 0, 4, 1});
  const double ln3 = std::log(3.0);
  p.inputs.query = mhaviz::Tensor::from<double>({2, 2, 2}, {1, 1, 2, -1, 3, 0, 1, 1});
  p.inputs.key = mhaviz::Tensor::from<double>({2, 3, 2}, {2, 0, 2, ln3, 5, 9, 1, 1, -1, 2, 0, 0});
  p.inputs.value =
      mhaviz::Tensor::from<double>({2, 3, 2}, {4, 8, 6, 4, 100, 100, 10, 20, 30, 40, 50, 60});
  p.inputs.attn_mask = mhaviz::Tensor::from_bools({2, 3}, {0, 0, 1, 1, 1, 1});
  return p;
}

inline mhaviz::ForwardResult run(const mhaviz::Problem& p) {
  return mhaviz::forward(p.config, p.params, p.inputs);
}

}  // namespace mhaviz::ui::test

class TestStages : public QObject {
  Q_OBJECT

 private slots:  // in the order they run; each file's own comment says which it holds
  // test_stages_extract.cpp
  void extractWeightsWithBiasAndZero();
  void extractOtherStages();
  void averagePropagatesNan();
  void everyIntermediateStageShowsTheCoreTensorPerHead();
  void parameterStagesShowTheHeadSlicesOfTheWeights();
  void aSoloHeadKeepsItsSlicesOfTheWeights();
  void measureStagesOfAKnownResult();
  // test_stages_known.cpp
  void scoreStagesOfAKnownResult();
  void weightsOfAKnownResult();
  void projectionsAndOutputsOfAKnownResult();
  void batchElementAndSoloHeadPickTheirMaps();
  void describedAndDeferredMapsReadAsTheCopies();
  // test_stages_compare.cpp
  void theNanCauseFollowsTheSettings();
  void bMinusAOfAKnownResultWhereNanMeetsNan();
  void compareSaysWhyThereIsNoDifference();
  // test_stages_text.cpp
  void reducedResultHoldsItsRegion();
  void layerNamesNumberLayersWithinTheirStep();
  void stageNamesKindsAndKeyLabels();
  void statisticsSkipNonFiniteCellsAndStopWhenCancelled();
};
