// The counter-based generator of generated inputs and weights (core/src/base/rng.hpp):
// Philox4x32-10 as Random123 publishes it, the same values on any number of threads and from any
// offset, standard normal and uniform distributions, and inputs whose rows do not depend on the
// length.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "base/rng.hpp"
#include "mhaviz/core/gen/inputs.hpp"
#include "mhaviz/core/spec/inputs.hpp"

namespace mhaviz::detail {
namespace {

TEST(CounterRng, PhiloxKnownAnswers) {
  // Random123's kat_vectors: philox4x32 with 10 rounds.
  using Block = std::array<std::uint32_t, 4>;
  EXPECT_EQ(CounterRng::philox({0, 0, 0, 0}, {0, 0}),
            (Block{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(CounterRng::philox({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                               {0xa4093822, 0x299f31d0}),
            (Block{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(CounterRng, ParallelFillsEqualEachValueAlone) {
  const CounterRng g(42, 7);
  std::vector<double> all(200001);  // several pieces: filled on every hardware thread
  g.normals(0, all);
  for (std::size_t k = 0; k < all.size(); k += 997) ASSERT_EQ(all[k], g.normal(k)) << k;
  ASSERT_EQ(all.back(), g.normal(all.size() - 1));
  std::vector<float> shifted(1001);  // from an odd offset: the first value is a sine
  g.normals(12345, shifted);
  for (std::size_t k = 0; k < shifted.size(); ++k) {
    ASSERT_EQ(shifted[k], static_cast<float>(g.normal(12345 + k))) << k;
  }
  std::vector<double> u(70001);
  g.uniforms(3, u, -2.0, 2.0);
  for (std::size_t k = 0; k < u.size(); k += 101) ASSERT_EQ(u[k], -2.0 + 4.0 * g.uniform(3 + k));
}

TEST(CounterRng, NormalAndUniformDistributions) {
  const CounterRng g(1, 0);
  std::vector<double> x(1 << 20);
  g.normals(0, x);
  double sum = 0, squares = 0, beyond_two = 0;
  for (const double v : x) {
    sum += v;
    squares += v * v;
    beyond_two += std::abs(v) > 2.0 ? 1.0 : 0.0;
  }
  const auto n = static_cast<double>(x.size());
  EXPECT_NEAR(sum / n, 0.0, 0.005);
  EXPECT_NEAR(squares / n, 1.0, 0.005);
  EXPECT_NEAR(beyond_two / n, 0.0455, 0.001);  // P(|Z| > 2)
  g.uniforms(0, x, 0.0, 1.0);
  double below_quarter = 0;
  for (const double v : x) {
    ASSERT_GE(v, 0.0);
    ASSERT_LT(v, 1.0);
    below_quarter += v < 0.25 ? 1.0 : 0.0;
  }
  EXPECT_NEAR(below_quarter / n, 0.25, 0.002);
  // Streams and seeds differ.
  EXPECT_NE(CounterRng(1, 0).normal(0), CounterRng(1, 1).normal(0));
  EXPECT_NE(CounterRng(1, 0).normal(0), CounterRng(2, 0).normal(0));
}

TEST(CounterRng, InputRowsDoNotDependOnTheLength) {
  Config c;
  c.batch_size = 1;
  c.embed_dim = 8;
  c.num_heads = 2;
  c.tgt_len = c.src_len = 4;
  const Inputs short_inputs = random_inputs(c);
  c.tgt_len = c.src_len = 9;
  const Inputs long_inputs = random_inputs(c);
  for (std::int64_t k = 0; k < 4 * 8; ++k) {
    ASSERT_EQ(short_inputs.query.value(k), long_inputs.query.value(k));
    ASSERT_EQ(short_inputs.value.value(k), long_inputs.value.value(k));
  }
  EXPECT_NE(long_inputs.query.value(0), long_inputs.key.value(0));
}

}  // namespace
}  // namespace mhaviz::detail
