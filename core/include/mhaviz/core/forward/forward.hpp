#pragma once
/// \file
/// The forward pass of nn.MultiheadAttention (F.multi_head_attention_forward's general path,
/// PyTorch 2.x semantics), keeping every intermediate.

#include <atomic>
#include <cstdint>
#include <functional>

#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "mhaviz/core/spec/inputs.hpp"
#include "mhaviz/core/spec/params.hpp"

namespace mhaviz {

/// Controls for a running computation. Both members may be empty.
struct RunControl {
  /// Checked between (batch element, head) blocks; when it reads true the computation
  /// throws Cancelled. Owned by the caller, who may set it from any thread.
  const std::atomic<bool>* cancel = nullptr;
  /// Called after each block with (blocks done, blocks in all), from a computing thread
  /// (calls are serialised, never concurrent).
  std::function<void(std::int64_t, std::int64_t)> progress;
  /// Threads for the (batch element, head) blocks and the projections; 0 = one per hardware
  /// thread. The result does not depend on it, bit for bit.
  int threads = 0;
};

/// Throws InvalidInput, with PyTorch's message where PyTorch has one, when the config,
/// parameters and tensors cannot be used together. Called by forward() first.
void validate(const Config& config, const Params& params, const Inputs& inputs);

/// Runs the forward pass. Throws InvalidInput (see validate) or Cancelled.
ForwardResult forward(const Config& config, const Params& params, const Inputs& inputs,
                      const RunControl& control = {});

}  // namespace mhaviz
