#pragma once
/// \file
/// Attention sinks (Gu et al. 2024, "When Attention Sink Emerges in Language Models: An
/// Empirical View"): the sink score of key j in head h is the mean weight the queries give it,
/// α_j^h = (1/L') Σ_i α_ij^h; the sink rate is the share of heads in which the first token's
/// sink score exceeds ε. A query with no open key (every key masked to -inf: weights NaN in
/// PyTorch) has no weight to give: it is left out of the mean, and L' counts only the queries
/// with at least one open key.

#include <cstdint>
#include <vector>

#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/forward/result.hpp"

namespace mhaviz {

/// Default ε of the sink rate (Gu et al. 2024 use 0.3).
inline constexpr double kDefaultSinkEps = 0.3;

/// Throws InvalidInput naming `what` (e.g. "--sink-eps") unless 0 < eps <= 1.
void check_sink_eps(double eps, const char* what);

/// Sink scores of every (batch element, head, key column), the bias_k / zero columns included.
struct SinkScores {
  std::int64_t N = 0, H = 0, Sx = 0;
  /// (N + 1, H, Sx) row-major: block n < N over the queries of batch element n, block N over
  /// the queries of every element. NaN where no query has an open key.
  std::vector<double> score;
  /// (N + 1, H): the queries averaged (those with at least one open key).
  std::vector<std::int64_t> queries;

  /// Sink score of key column j in head h of batch element n (n < 0: every element).
  [[nodiscard]] double at(std::int64_t n, std::int64_t h, std::int64_t j) const {
    return score[static_cast<std::size_t>(((n < 0 ? N : n) * H + h) * Sx + j)];
  }
  [[nodiscard]] std::int64_t queries_of(std::int64_t n, std::int64_t h) const {
    return queries[static_cast<std::size_t>((n < 0 ? N : n) * H + h)];
  }
};

/// Sink scores of `result`, from attention_distribution(result) (the weights before dropout
/// when dropout was applied). A query counts when its merged mask leaves a key open.
/// `control`: its threads share blocks of key columns (the sums do not depend on them, bit for
/// bit) and its cancel flag, read before each block, throws Cancelled.
SinkScores sink_scores(const ForwardResult& result, const RunControl& control = {});

/// How many heads have a first-token sink score above ε.
struct SinkRate {
  std::int64_t sinks = 0;  ///< (batch element, head) pairs whose first-key score > ε
  std::int64_t heads = 0;  ///< (batch element, head) pairs with at least one counted query
  /// sinks / heads; NaN when no head counts.
  [[nodiscard]] double rate() const;
  SinkRate& operator+=(const SinkRate& o) {
    sinks += o.sinks;
    heads += o.heads;
    return *this;
  }
};

/// The sink rate of one layer: each batch element is a sequence of its own (Gu et al. average
/// over sequences), so every (batch element, head) pair is one head counted.
SinkRate sink_rate(const SinkScores& scores, double eps);

}  // namespace mhaviz
