#pragma once
// Small forward results computed by the core, for the tests of the stages layer and of the
// layers above it (render, tokens, exporting, teach and the window include this file): a small
// configuration, a random module's pass with a causal mask or a NaN row, and an example's pass
// with its problem.

#include <cstdint>
#include <vector>

#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/gen/inputs.hpp"
#include "mhaviz/core/gen/weights.hpp"
#include "mhaviz/core/plan/problem.hpp"

namespace mhaviz::ui::test {

inline mhaviz::Config smallConfig(bool biasKv, bool zeroAttn) {
  mhaviz::Config c;
  c.embed_dim = 16;
  c.num_heads = 2;
  c.tgt_len = 5;
  c.src_len = 7;
  c.batch_size = 2;
  c.add_bias_kv = biasKv;
  c.add_zero_attn = zeroAttn;
  c.seed = 11;
  return c;
}

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

struct ComputedProblem {
  mhaviz::Problem problem;
  mhaviz::ForwardResult result;
};

inline ComputedProblem compute(const mhaviz::Config& config) {
  ComputedProblem c{mhaviz::make_problem(config), {}};
  c.result = mhaviz::forward(c.problem.config, c.problem.params, c.problem.inputs);
  return c;
}

}  // namespace mhaviz::ui::test
