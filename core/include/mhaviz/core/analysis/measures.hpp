#pragma once
/// \file
/// Measures that say what a head does, computed from a finished forward pass (docs/config.md,
/// "Measures"): per-query entropy, normalised entropy, confidence and sink shares, head
/// ablation, and value-weighted norms (Kobayashi et al. 2020). Everything is computed in
/// double from the result's own tensors; none of them needs raw_scores, mask or scores.

#include <cstdint>
#include <optional>
#include <vector>

#include "mhaviz/core/analysis/sink.hpp"
#include "mhaviz/core/analysis/value_zeroing.hpp"
#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/spec/inputs.hpp"

namespace mhaviz {

/// The measures of every (batch element n, head h, query i), each a row-major (N, H, L) array.
/// A query with no open key (every key masked to -inf, so its weights are NaN or, with
/// need_weights = False, 0) has NaN in every attention measure.
struct HeadMeasures {
  std::int64_t N = 0, H = 0, L = 0;
  bool has_bias_k = false;  ///< the result has a bias_k column (add_bias_kv)
  bool has_zero = false;    ///< the result has a zero column (add_zero_attn)

  /// Keys the merged mask leaves open (not -inf), counting the bias_k / zero columns, which
  /// are never masked.
  std::vector<std::int64_t> open_keys;
  /// -Σ_j α_ij log α_ij in nats, with 0·log 0 = 0.
  std::vector<double> entropy;
  /// entropy / log(open_keys); 0 when exactly one key is open (nothing to choose), NaN when
  /// none is.
  std::vector<double> normalized_entropy;
  /// max_j α_ij.
  std::vector<double> confidence;
  /// α_i0, the weight on the first source key.
  std::vector<double> first_key;
  /// α on the bias_k column (0 everywhere when there is none).
  std::vector<double> bias_k;
  /// α on the zero column (0 everywhere when there is none).
  std::vector<double> zero;
  /// ‖Δ_ni‖ / ‖output_ni‖: Δ is the change of attn_output's row (n, i) when head h's output
  /// is zeroed before out_proj; NaN when the row of the output is zero or not finite.
  std::vector<double> ablation;

  [[nodiscard]] std::size_t at(std::int64_t n, std::int64_t h, std::int64_t i) const {
    return static_cast<std::size_t>((n * H + h) * L + i);
  }
};

/// Averages of one head, over the queries of one batch element (or of all of them).
struct HeadAverage {
  std::int64_t queries = 0;  ///< queries with at least one open key (the ones averaged)
  double entropy = 0, normalized_entropy = 0, confidence = 0, first_key = 0, bias_k = 0,
         zero = 0;  ///< means over those queries (NaN when there is none)
  /// sqrt(Σ‖Δ‖²) / sqrt(Σ‖output‖²) over the queries whose rows are finite (not a mean of
  /// ratios): the relative change of the whole output block when the head is zeroed.
  double ablation = 0;
};

/// The weights the attention measures read: weights_before_dropout when dropout was applied
/// (a distribution), else weights.
const Tensor& attention_distribution(const ForwardResult& result);

/// Computes the measures of `result`, which forward() computed from `inputs` (used only for
/// the masks, to count the open keys). Throws InvalidInput when the two do not fit. A result of
/// the weights stage only (model::weights_result, with empty `inputs`) gets its attention
/// measures and a NaN ablation (there is no output to ablate).
/// `control`: its threads share blocks of a few query rows of one (batch element, head) (the
/// numbers do not depend on them, bit for bit); its cancel flag, read before each block, throws
/// Cancelled, so a cancel is seen within about a millisecond; its progress, when set, is called
/// after each block with (blocks of that step done, blocks of that step).
HeadMeasures head_measures(const ForwardResult& result, const Inputs& inputs,
                           const RunControl& control = {});

/// Average of head h over the queries of batch element n, or of every batch element when
/// n < 0.
HeadAverage head_average(const HeadMeasures& m, const ForwardResult& result, std::int64_t n,
                         std::int64_t h);

/// Value-weighted norms of Kobayashi et al. (2020), "Attention is not only a weight".
/// f_h(x_j) = v_j^h W_O^h, where v_j^h is row j of head h's values (x_j W_V^h + b_V^h, the
/// bias_v row for the bias_k column, 0 for the zero column) and W_O^h the head's columns of
/// out_proj.weight (transposed). Uses the weights that were applied (after dropout).
struct ValueNorms {
  Tensor per_head;  ///< (N, H, L, Sx), the weights' element type: α_ij^h ‖f_h(x_j)‖
  Tensor summed;    ///< (N, L, Sx), the weights' element type: ‖Σ_h α_ij^h f_h(x_j)‖
  Tensor f_norms;   ///< (N, H, Sx) float64: ‖f_h(x_j)‖
};

/// `control` as head_measures's (the query rows are shared by its threads).
ValueNorms value_norms(const ForwardResult& result, const RunControl& control = {});

/// What the window shows beside a result: the head measures, the head averages and, up to
/// kValueNormCellLimit weight cells, the value norms and value zeroing.
struct ResultMeasures {
  HeadMeasures head;
  std::vector<HeadAverage> averages;    ///< (N + 1) * H: [n * H + h], row N over every element
  std::optional<ValueNorms> norms;      ///< absent above kValueNormCellLimit cells
  std::optional<ValueZeroing> zeroing;  ///< absent above kValueNormCellLimit cells
  SinkScores sinks;                     ///< sink_scores of the result (Gu et al. 2024)
  /// logit_scales of the result's parameters, one per head (empty when they cannot be
  /// computed, e.g. without projection weights).
  std::vector<double> logit_scale;

  [[nodiscard]] const HeadAverage& average(std::int64_t n, std::int64_t h) const {
    return averages[static_cast<std::size_t>((n < 0 ? head.N : n) * head.H + h)];
  }
  [[nodiscard]] std::size_t bytes() const;
};

/// N*H*L*Sx above which measure_result leaves out the value norms (their two tensors would
/// add about as much memory as the weights again).
inline constexpr std::int64_t kValueNormCellLimit = std::int64_t{1} << 24;

/// head_measures, every head_average, sink_scores, value_norms and value_zeroing (within the
/// limit; for weights without a pass, model::weights_result, only the first three) of
/// `result`;
/// `control` as head_measures's.
ResultMeasures measure_result(const ForwardResult& result, const Inputs& inputs,
                              const RunControl& control = {});

}  // namespace mhaviz
