#pragma once
// The arithmetic of one attention cell (n, h, i, j), read from the core's intermediates: q_i,
// k_j, their dot product, the 1/sqrt(hd) scaling, the mask term, the score, the row's max, exp
// and sum, and the softmax weight. The only arithmetic done here is the displayed
// recomputation, which is compared with the stored values. Pure (no widgets), any thread.

#include <QString>
#include <cstdint>
#include <vector>

#include "mhaviz/core/forward/result.hpp"

namespace mhaviz::ui {

struct CellBreakdown {
  std::int64_t n = 0, h = 0, i = 0, j = 0, hd = 0;
  mhaviz::KeyColumn column;  // what key j is (source, bias_k, zero)
  std::vector<double> q, k;  // q_i and k_j of head h (result.q, result.k), hd numbers each
  double dot = 0;            // recomputed sum_d q_i[d] * k_j[d]
  double sqrtHd = 1;
  double rawRecomputed = 0;     // dot / sqrt(hd)
  double rawStored = 0;         // raw score derived from the result (derived_maps.hpp)
  bool capped = false;          // attn_logit_softcapping is set
  double cap = 0;               // its value
  double cappedRecomputed = 0;  // cap * tanh(rawStored / cap)
  double cappedStored = 0;      // capped score (derived)
  double maskTerm = 0;          // merged mask term (derived)
  double scoreRecomputed = 0;   // (cappedStored when capped, else rawStored) + maskTerm
  double scoreStored = 0;       // score (derived): the softmax input
  double rowMax = 0;            // max over the row of the derived scores (-inf when all masked)
  double expTerm = 0;           // exp(scoreStored - rowMax)
  double rowSum = 0;            // sum_j' exp(score_j' - rowMax)
  double weightRecomputed = 0;  // expTerm / rowSum (NaN for a fully masked row)
  double weightStored = 0;      // softmax before dropout (weights_before_dropout, else weights)
  bool dropout = false;         // true when dropout was applied (training, p > 0)
  double weightDropped = 0;     // result.weights (after dropout) when dropout
  bool rowFullyMasked = false;  // every score of the row is -inf
  double tolerance = 0;         // relative agreement expected for the result's dtype
};

/// Reads the cell from `result`. Throws InvalidInput when (n, h, i, j) is out of range.
CellBreakdown breakdownCell(const mhaviz::ForwardResult& result, std::int64_t n, std::int64_t h,
                            std::int64_t i, std::int64_t j);

/// True when `a` and `b` agree to `relTol` (relative, with an absolute floor of relTol for values
/// near 0); two NaNs or two equal infinities agree.
bool agrees(double a, double b, double relTol);

/// The breakdown as HTML for the panel: every number, the explanation of a bias_k / zero column
/// and of a NaN (fully masked) row, and both values wherever the recomputation disagrees.
QString breakdownHtml(const CellBreakdown& cell);

/// The head-average cell: per-head weights (before dropout when dropout was applied, as the
/// average map shows the weights stage) and their mean.
QString averageHtml(const mhaviz::ForwardResult& result, std::int64_t n, std::int64_t i,
                    std::int64_t j, bool beforeDropout);

}  // namespace mhaviz::ui
