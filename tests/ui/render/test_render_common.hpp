#pragma once
// Shared by the rendering tests: small forward results computed by the core.

#include <cstdint>
#include <limits>
#include <vector>

#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/gen/inputs.hpp"
#include "mhaviz/core/gen/weights.hpp"

namespace mhaviz::ui::test {

/// A forward pass of a random module on random inputs; a causal bool attn_mask when `causal`,
/// and query 0 fully masked (a NaN row) when `nanRow`.
inline mhaviz::ForwardResult computeResult(mhaviz::Config config, bool causal = false,
                                           bool nanRow = false) {
  const mhaviz::Params params = mhaviz::init_params(config);
  mhaviz::Inputs inputs = mhaviz::random_inputs(config);
  const std::int64_t L = config.tgt_len, S = config.src_len;
  if (causal || nanRow) {
    std::vector<std::uint8_t> mask(static_cast<std::size_t>(L * S), 0);
    for (std::int64_t i = 0; i < L; ++i) {
      for (std::int64_t j = 0; j < S; ++j) {
        const bool masked = (causal && j > i) || (nanRow && i == 0);
        mask[static_cast<std::size_t>(i * S + j)] = masked ? 1 : 0;
      }
    }
    inputs.attn_mask = mhaviz::Tensor::from_bools({L, S}, mask);
  }
  return mhaviz::forward(config, params, inputs);
}

}  // namespace mhaviz::ui::test
