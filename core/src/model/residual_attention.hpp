#pragma once
// The residual-adjusted, head-averaged attention of a model's self-attention layers, shared by
// attention rollout and attention flow (docs/capture-and-models.md): per layer
// Â = rows of (A + I) normalised, A the mean over heads of the token columns (the appended
// bias_k / zero columns dropped, their share reported).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "mhaviz/core/model/model.hpp"

namespace mhaviz::model {

struct ResidualAttention {
  std::int64_t tokens = 0;                  ///< S
  std::vector<std::size_t> layers;          ///< the model layers used, in call order
  std::vector<std::vector<double>> matrix;  ///< per used layer: Â, S × S row-major
  std::vector<double> extra_share;          ///< per used layer: weight on appended columns
};

/// Â of every self-attention layer (of generation step `step`; -1: the last) of batch element
/// `batch`. `what` names the measure in messages ("rollout", "attention flow"). Throws
/// InvalidInput as attention_rollout does.
ResidualAttention residual_attention(const Model& model, std::span<const Tensor> weights,
                                     std::int64_t batch, std::int64_t step, const char* what);

/// Mean of each column of an S × S row-major map (how much each input position contributes on
/// average).
std::vector<double> column_means(const std::vector<double>& map, std::size_t S);

}  // namespace mhaviz::model
