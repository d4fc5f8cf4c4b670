#pragma once
// Seeded random numbers for generated parameters, inputs, masks and dropout (internal to the
// core). Our own transforms over generators whose output the standards fix, so a seed gives
// the same numbers with every standard library and compiler. Not torch's generator: only the
// distributions match PyTorch.
//
// CounterRng (parameters and query/key/value): Philox4x32-10 (Random123), a counter-based
// generator, so element k of a tensor is a pure function of (seed, stream, k) and a tensor is
// filled in parallel, with the same values on any number of threads. Rng (masks, graphs,
// dropout): a sequential std::mt19937_64 stream.

#include <array>
#include <cstdint>
#include <random>
#include <span>

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

/// splitmix64's finaliser: spreads nearby seeds over the whole seed space.
std::uint64_t mix_seed(std::uint64_t x);

/// Philox4x32-10 keyed by mix_seed(seed), one independent sequence per `stream`. Block c (128
/// bits) of a stream gives two 53-bit uniforms u1 = (hi 53 bits of its first 64 + 1) / 2^53
/// in (0, 1] and u2 = (hi 53 bits of its last 64) / 2^53 in [0, 1); value k of a stream comes
/// from block k / 2:
///   normal(k)  = sqrt(-2 ln u1) * (k even ? cos : sin)(2 pi u2)   (Box-Muller, no rejection)
///   uniform(k) = k even ? u1' : u2, with u1' = u1 - 2^-53 in [0, 1)
class CounterRng {
 public:
  CounterRng(std::uint64_t seed, std::uint64_t stream);

  [[nodiscard]] double normal(std::uint64_t k) const;
  [[nodiscard]] double uniform(std::uint64_t k) const;

  /// out[i] = normal(first + i), in parallel on every hardware thread for long spans.
  void normals(std::uint64_t first, std::span<float> out) const;
  void normals(std::uint64_t first, std::span<double> out) const;
  /// out[i] = lo + (hi - lo) * uniform(first + i), likewise.
  void uniforms(std::uint64_t first, std::span<float> out, double lo, double hi) const;
  void uniforms(std::uint64_t first, std::span<double> out, double lo, double hi) const;

  /// Block c: Philox4x32-10 of the counter (c, stream) under the key mix_seed(seed).
  [[nodiscard]] std::array<std::uint32_t, 4> block(std::uint64_t c) const;

  /// Philox4x32-10 itself (Random123's philox4x32 with 10 rounds).
  static std::array<std::uint32_t, 4> philox(const std::array<std::uint32_t, 4>& counter,
                                             const std::array<std::uint32_t, 2>& key);

 private:
  std::uint64_t key_;
  std::uint64_t stream_;
};

/// The CounterRng streams of the input seed: query, key and value (random normal inputs and
/// the random content of sinusoidal ones).
inline constexpr std::uint64_t kQueryStream = 0, kKeyStream = 1, kValueStream = 2;

}  // namespace mhaviz::detail
