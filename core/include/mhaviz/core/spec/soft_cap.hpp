#pragma once
/// \file
/// The soft-cap of attention logits (Gemma 2): s -> cap * tanh(s / cap). Smooth, odd, close to
/// s for |s| << cap and never beyond +-cap. mhaviz applies it to the scaled raw scores before
/// the mask (config key attn_logit_softcapping); -inf stays -inf.

#include <cmath>

namespace mhaviz {

/// cap * tanh(s / cap) in T's precision (float for float32 runs, as PyTorch computes it).
template <typename T>
[[nodiscard]] T soft_capped(T s, T cap) {
  return cap * std::tanh(s / cap);
}

}  // namespace mhaviz
