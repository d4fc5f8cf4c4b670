#include "rng.hpp"

#include <cmath>
#include <numbers>

namespace mhaviz::detail {

namespace {
// splitmix64 finaliser: spreads nearby (seed, stream) pairs over the whole seed space.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27U)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31U);
}
}  // namespace

Rng::Rng(std::uint64_t seed, std::uint64_t stream) : engine_(mix(mix(seed) ^ stream)) {}

double Rng::uniform() { return static_cast<double>(engine_() >> 11U) * 0x1.0p-53; }

double Rng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  double u1 = uniform();
  while (u1 <= 0.0) u1 = uniform();
  const double u2 = uniform();
  const double r = std::sqrt(-2.0 * std::log(u1));
  const double theta = 2.0 * std::numbers::pi * u2;
  spare_ = r * std::sin(theta);
  has_spare_ = true;
  return r * std::cos(theta);
}

}  // namespace mhaviz::detail
