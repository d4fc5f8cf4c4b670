#pragma once
// Seeded random numbers for generated parameters, inputs and dropout. Our own transforms over
// std::mt19937_64 (whose output sequence the standard fixes), so a seed gives the same numbers
// with every standard library. Not torch's generator: only the distributions match PyTorch.

#include <cstdint>
#include <random>

namespace mhaviz::detail {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  /// Two seeds mixed into one (e.g. a base seed and a batch-head index).
  Rng(std::uint64_t seed, std::uint64_t stream);

  /// Uniform in [0, 1) with 53 random bits.
  double uniform();
  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  /// Standard normal (Box-Muller).
  double normal();

 private:
  std::mt19937_64 engine_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace mhaviz::detail
