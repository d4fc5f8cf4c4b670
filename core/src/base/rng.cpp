#include "rng.hpp"

#include <Random123/philox.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "mhaviz/core/base/parallel.hpp"

namespace mhaviz::detail {

std::uint64_t mix_seed(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27U)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31U);
}

Rng::Rng(std::uint64_t seed, std::uint64_t stream) : engine_(mix_seed(mix_seed(seed) ^ stream)) {}

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

namespace {

/// The two 53-bit uniforms of a block: u1 in (0, 1], u2 in [0, 1).
struct Pair {
  double u1, u2;
};
Pair pair_of(const std::array<std::uint32_t, 4>& b) {
  const std::uint64_t x = (std::uint64_t{b[1]} << 32U) | b[0];
  const std::uint64_t y = (std::uint64_t{b[3]} << 32U) | b[2];
  return {static_cast<double>((x >> 11U) + 1) * 0x1.0p-53,
          static_cast<double>(y >> 11U) * 0x1.0p-53};
}

/// Box-Muller of one block: the normals r cos(theta) and r sin(theta).
std::array<double, 2> box_muller(const Pair& p) {
  const double r = std::sqrt(-2.0 * std::log(p.u1));
  double s = 0.0, c = 0.0;
  ::sincos(2.0 * std::numbers::pi * p.u2, &s, &c);
  return {r * c, r * s};
}

/// Elements per parallel piece: enough that a thread's start costs nothing in comparison.
constexpr std::int64_t kPiece = 1 << 15;

/// fill(begin, end) over [0, n) in pieces of an even length, on every hardware thread.
template <typename Fill>
void in_pieces(std::int64_t n, Fill&& fill) {
  const std::int64_t pieces = (n + kPiece - 1) / kPiece;
  parallel_for(pieces, thread_count(0, pieces),
               [&](std::int64_t p) { fill(p * kPiece, std::min(n, (p + 1) * kPiece)); });
}

}  // namespace

CounterRng::CounterRng(std::uint64_t seed, std::uint64_t stream)
    : key_(mix_seed(seed)), stream_(stream) {}

std::array<std::uint32_t, 4> CounterRng::philox(const std::array<std::uint32_t, 4>& counter,
                                                const std::array<std::uint32_t, 2>& key) {
  const r123::Philox4x32 rounds10;
  const r123::Philox4x32::ctr_type ctr = {{counter[0], counter[1], counter[2], counter[3]}};
  const r123::Philox4x32::key_type k = {{key[0], key[1]}};
  const r123::Philox4x32::ctr_type r = rounds10(ctr, k);
  return {r[0], r[1], r[2], r[3]};
}

std::array<std::uint32_t, 4> CounterRng::block(std::uint64_t c) const {
  const auto lo = [](std::uint64_t v) { return static_cast<std::uint32_t>(v); };
  const auto hi = [](std::uint64_t v) { return static_cast<std::uint32_t>(v >> 32U); };
  return philox({lo(c), hi(c), lo(stream_), hi(stream_)}, {lo(key_), hi(key_)});
}

double CounterRng::normal(std::uint64_t k) const {
  return box_muller(pair_of(block(k / 2)))[k % 2];
}

double CounterRng::uniform(std::uint64_t k) const {
  const Pair p = pair_of(block(k / 2));
  return k % 2 == 0 ? p.u1 - 0x1.0p-53 : p.u2;
}

namespace {

template <typename T>
void fill_normals(const CounterRng& g, std::uint64_t first, std::span<T> out) {
  in_pieces(static_cast<std::int64_t>(out.size()), [&](std::int64_t begin, std::int64_t end) {
    std::int64_t i = begin;
    // An odd first value is the sine of its block; then whole blocks give cos and sin.
    if ((first + static_cast<std::uint64_t>(i)) % 2 == 1 && i < end) {
      out[static_cast<std::size_t>(i)] =
          static_cast<T>(g.normal(first + static_cast<std::uint64_t>(i)));
      ++i;
    }
    for (; i + 1 < end; i += 2) {
      const auto [c, s] = box_muller(pair_of(g.block((first + static_cast<std::uint64_t>(i)) / 2)));
      out[static_cast<std::size_t>(i)] = static_cast<T>(c);
      out[static_cast<std::size_t>(i + 1)] = static_cast<T>(s);
    }
    if (i < end) {
      out[static_cast<std::size_t>(i)] =
          static_cast<T>(g.normal(first + static_cast<std::uint64_t>(i)));
    }
  });
}

template <typename T>
void fill_uniforms(const CounterRng& g, std::uint64_t first, std::span<T> out, double lo,
                   double hi) {
  const auto at = [&](std::int64_t i, double u) {
    out[static_cast<std::size_t>(i)] = static_cast<T>(lo + (hi - lo) * u);
  };
  in_pieces(static_cast<std::int64_t>(out.size()), [&](std::int64_t begin, std::int64_t end) {
    std::int64_t i = begin;
    // As fill_normals: a lone value at either end, whole blocks (two values) between.
    if ((first + static_cast<std::uint64_t>(i)) % 2 == 1 && i < end) {
      at(i, g.uniform(first + static_cast<std::uint64_t>(i)));
      ++i;
    }
    for (; i + 1 < end; i += 2) {
      const Pair p = pair_of(g.block((first + static_cast<std::uint64_t>(i)) / 2));
      at(i, p.u1 - 0x1.0p-53);
      at(i + 1, p.u2);
    }
    if (i < end) at(i, g.uniform(first + static_cast<std::uint64_t>(i)));
  });
}

}  // namespace

void CounterRng::normals(std::uint64_t first, std::span<float> out) const {
  fill_normals(*this, first, out);
}
void CounterRng::normals(std::uint64_t first, std::span<double> out) const {
  fill_normals(*this, first, out);
}
void CounterRng::uniforms(std::uint64_t first, std::span<float> out, double lo, double hi) const {
  fill_uniforms(*this, first, out, lo, hi);
}
void CounterRng::uniforms(std::uint64_t first, std::span<double> out, double lo, double hi) const {
  fill_uniforms(*this, first, out, lo, hi);
}

}  // namespace mhaviz::detail
