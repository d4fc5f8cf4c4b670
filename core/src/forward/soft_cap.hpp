#pragma once
// Gemma 2's soft-cap of the attention logits (config key attn_logit_softcapping), applied by
// the forward pass to the scaled raw scores before the mask is added (internal to the core).
#include <cmath>
#include <optional>

#include "base/eigen_types.hpp"
#include "mhaviz/core/spec/soft_cap.hpp"

namespace mhaviz::detail {

/// capped = cap * tanh(raw / cap) coefficient-wise when `cap` is set; nothing otherwise (the
/// forward pass then adds the mask to `raw` itself). Each element is computed as
/// mhaviz::soft_capped does, in the scores' own precision.
template <typename Raw, typename Capped>
void soft_cap(const std::optional<double>& cap, const Raw& raw, Capped&& capped) {
  if (!cap) return;
  using T = typename std::decay_t<Raw>::Scalar;
  const T c = static_cast<T>(*cap);
  for (Eigen::Index i = 0; i < raw.rows(); ++i) {
    for (Eigen::Index j = 0; j < raw.cols(); ++j) capped(i, j) = soft_capped(raw(i, j), c);
  }
}

}  // namespace mhaviz::detail
