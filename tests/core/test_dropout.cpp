// Dropout on the attention weights (docs/semantics.md step 11). Torch's RNG is not reproduced,
// so these tests check what dropout must satisfy: entries 0 or w/(1-p), the fraction of zeros
// near p, seed determinism, and that eval mode ignores p.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "mhaviz/core/forward/derived_maps.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/gen/inputs.hpp"
#include "mhaviz/core/gen/weights.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "mhaviz/core/spec/inputs.hpp"
#include "mhaviz/core/spec/params.hpp"

using mhaviz::derived_all;
using mhaviz::derived_value;
using mhaviz::DerivedMap;

namespace {

using mhaviz::Config;
using mhaviz::ForwardResult;
using mhaviz::Tensor;

template <typename T>
struct DTypeOf;
template <>
struct DTypeOf<float> {
  static constexpr mhaviz::DType value = mhaviz::DType::float32;
  static constexpr double rel_tol = 1e-6;
};
template <>
struct DTypeOf<double> {
  static constexpr mhaviz::DType value = mhaviz::DType::float64;
  static constexpr double rel_tol = 1e-13;
};

template <typename T>
class DropoutTest : public ::testing::Test {
 protected:
  static constexpr double kP = 0.3;

  static Config config() {
    Config c;
    c.embed_dim = 8;
    c.num_heads = 2;
    c.batch_size = 2;
    c.tgt_len = 64;
    c.src_len = 64;
    c.dropout = kP;
    c.training = true;
    c.dtype = DTypeOf<T>::value;
    c.seed = 11;
    c.dropout_seed = 5;
    return c;
  }

  static ForwardResult run(const Config& c) {
    return mhaviz::forward(c, mhaviz::init_params(c), mhaviz::random_inputs(c));
  }
};

using Types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(DropoutTest, Types);

bool identical(const Tensor& a, const Tensor& b) {
  if (a.type() != b.type() || a.shape() != b.shape()) return false;
  const auto x = a.bytes();
  const auto y = b.bytes();
  return std::equal(x.begin(), x.end(), y.begin(), y.end());
}

/// Same shape and every element within float rounding of the other.
::testing::AssertionResult near(const Tensor& a, const Tensor& b, double rel = 1e-5) {
  if (a.shape() != b.shape()) return ::testing::AssertionFailure() << "shapes differ";
  for (std::int64_t i = 0; i < a.numel(); ++i) {
    const double x = a.value(i);
    const double y = b.value(i);
    if (std::abs(x - y) > 1e-7 + rel * std::abs(y)) {
      return ::testing::AssertionFailure() << "element " << i << ": " << x << " vs " << y;
    }
  }
  return ::testing::AssertionSuccess();
}

/// Flat indices of the entries dropout zeroed.
std::vector<std::int64_t> zeros_of(const Tensor& t) {
  std::vector<std::int64_t> z;
  for (std::int64_t i = 0; i < t.numel(); ++i) {
    if (t.value(i) == 0.0) z.push_back(i);
  }
  return z;
}

TYPED_TEST(DropoutTest, EntriesAreZeroOrRescaledAndZerosAreNearP) {
  const Config c = TestFixture::config();
  const ForwardResult r = TestFixture::run(c);
  ASSERT_TRUE(r.weights_before_dropout.has_value()) << "training with p > 0 must keep them";
  const Tensor& before = *r.weights_before_dropout;
  ASSERT_EQ(before.shape(), r.weights.shape());
  ASSERT_EQ(r.weights.type(),
            c.dtype == mhaviz::DType::float32 ? mhaviz::ElemType::f32 : mhaviz::ElemType::f64);
  const double scale = 1.0 / (1.0 - TestFixture::kP);
  const std::int64_t n = r.weights.numel();
  std::int64_t zeros = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double w = before.value(i);
    const double d = r.weights.value(i);
    ASSERT_GT(w, 0.0) << "softmax weight " << i << " underflowed; the test needs w > 0";
    if (d == 0.0) {
      ++zeros;
    } else {
      ASSERT_NEAR(d, w * scale, DTypeOf<TypeParam>::rel_tol * w * scale)
          << "entry " << i << " is neither 0 nor w/(1-p)";
    }
  }
  const double expected = TestFixture::kP * static_cast<double>(n);
  const double sd = std::sqrt(static_cast<double>(n) * TestFixture::kP * (1.0 - TestFixture::kP));
  EXPECT_LE(std::abs(static_cast<double>(zeros) - expected), 4.0 * sd)
      << zeros << " zeros of " << n << ", expected about " << expected;
}

TYPED_TEST(DropoutTest, WeightsBeforeDropoutAreSoftmaxRows) {
  const Config c = TestFixture::config();
  const ForwardResult r = TestFixture::run(c);
  ASSERT_TRUE(r.weights_before_dropout.has_value());
  const std::int64_t rows = r.N * r.H * r.L;
  for (std::int64_t row = 0; row < rows; ++row) {
    double sum = 0.0;
    for (std::int64_t j = 0; j < r.Sx; ++j) sum += r.weights_before_dropout->value(row * r.Sx + j);
    ASSERT_NEAR(sum, 1.0, 1e-5) << "row " << row;
  }
}

TYPED_TEST(DropoutTest, DroppedWeightsFeedHeadOutputAndReturnedAverage) {
  const Config c = TestFixture::config();
  const ForwardResult r = TestFixture::run(c);
  // head_output = weights @ v with the dropped weights (PyTorch: bmm(dropout(softmax), v)).
  for (std::int64_t b = 0; b < r.N * r.H; ++b) {
    for (std::int64_t i = 0; i < r.L; i += 7) {
      for (std::int64_t f = 0; f < r.hd; ++f) {
        double acc = 0.0;
        double mag = 0.0;
        for (std::int64_t j = 0; j < r.Sx; ++j) {
          const double t =
              r.weights.value((b * r.L + i) * r.Sx + j) * r.v.value((b * r.Sx + j) * r.hd + f);
          acc += t;
          mag += std::abs(t);
        }
        ASSERT_NEAR(r.head_output.value((b * r.L + i) * r.hd + f), acc, 1e-5 * mag + 1e-6)
            << "b=" << b << " i=" << i << " f=" << f;
      }
    }
  }
  // Returned weights are the mean over heads of the dropped weights, (N, L, Sx).
  ASSERT_TRUE(r.attn_output_weights.has_value());
  ASSERT_EQ(r.attn_output_weights->shape(), (mhaviz::Shape{r.N, r.L, r.Sx}));
  for (std::int64_t n = 0; n < r.N; ++n) {
    for (std::int64_t i = 0; i < r.L; ++i) {
      for (std::int64_t j = 0; j < r.Sx; ++j) {
        double mean = 0.0;
        for (std::int64_t h = 0; h < r.H; ++h) {
          mean += r.weights.value(((n * r.H + h) * r.L + i) * r.Sx + j);
        }
        mean /= static_cast<double>(r.H);
        ASSERT_NEAR(r.attn_output_weights->value((n * r.L + i) * r.Sx + j), mean,
                    1e-6 * std::abs(mean) + 1e-7);
      }
    }
  }
}

TYPED_TEST(DropoutTest, SameSeedSameMaskOtherSeedDiffers) {
  const Config c = TestFixture::config();
  const ForwardResult a = TestFixture::run(c);
  const ForwardResult b = TestFixture::run(c);
  EXPECT_EQ(zeros_of(a.weights), zeros_of(b.weights)) << "same dropout_seed, different mask";
  EXPECT_TRUE(near(a.weights, b.weights));
  EXPECT_TRUE(near(a.attn_output, b.attn_output));

  Config other = c;
  other.dropout_seed = 6;
  const ForwardResult d = TestFixture::run(other);
  ASSERT_TRUE(d.weights_before_dropout.has_value());
  EXPECT_TRUE(near(*a.weights_before_dropout, *d.weights_before_dropout))
      << "the dropout seed must not change the softmax";
  EXPECT_NE(zeros_of(a.weights), zeros_of(d.weights)) << "another dropout seed, same mask";
  EXPECT_FALSE(near(a.attn_output, d.attn_output)) << "another mask, same output";
}

// Recomputing the same configuration must give the same bits (the window recomputes on every
// edit; a difference view between runs must show nothing for unchanged settings).
TYPED_TEST(DropoutTest, RepeatedRunsAreBitIdentical) {
  for (const bool training : {true, false}) {
    Config c = TestFixture::config();
    c.training = training;
    const ForwardResult a = TestFixture::run(c);
    const ForwardResult b = TestFixture::run(c);
    EXPECT_TRUE(identical(derived_all(a, DerivedMap::scores), derived_all(b, DerivedMap::scores)))
        << "training=" << training;
    EXPECT_TRUE(identical(a.weights, b.weights)) << "training=" << training;
    EXPECT_TRUE(identical(a.attn_output, b.attn_output)) << "training=" << training;
  }
}

TYPED_TEST(DropoutTest, EvalModeIgnoresDropout) {
  const Config train = TestFixture::config();
  Config eval = train;
  eval.training = false;
  const ForwardResult t = TestFixture::run(train);
  const ForwardResult e = TestFixture::run(eval);
  EXPECT_FALSE(e.weights_before_dropout.has_value());
  ASSERT_TRUE(t.weights_before_dropout.has_value());
  EXPECT_TRUE(near(e.weights, *t.weights_before_dropout))
      << "eval weights must be the undropped softmax";
  EXPECT_TRUE(zeros_of(e.weights).empty()) << "eval mode zeroed entries";

  // p = 0 while training is deterministic and equals eval.
  Config zero = train;
  zero.dropout = 0.0;
  const ForwardResult z = TestFixture::run(zero);
  EXPECT_FALSE(z.weights_before_dropout.has_value());
  EXPECT_TRUE(near(z.weights, e.weights));
  EXPECT_TRUE(near(z.attn_output, e.attn_output));
}

TYPED_TEST(DropoutTest, ProbabilityOneZeroesEverything) {
  Config c = TestFixture::config();
  c.tgt_len = 5;
  c.src_len = 6;
  c.dropout = 1.0;
  const ForwardResult r = TestFixture::run(c);
  for (std::int64_t i = 0; i < r.weights.numel(); ++i) ASSERT_EQ(r.weights.value(i), 0.0);
  for (std::int64_t i = 0; i < r.head_output.numel(); ++i) ASSERT_EQ(r.head_output.value(i), 0.0);
}

}  // namespace
