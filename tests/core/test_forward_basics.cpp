// Properties of the forward pass that hold for any parameters (the PyTorch comparisons are in
// test_forward_fixtures.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>
#include <vector>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/derived_maps.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/gen/inputs.hpp"
#include "mhaviz/core/gen/weights.hpp"
#include "mhaviz/core/plan/memory.hpp"
#include "mhaviz/core/spec/shapes.hpp"

using mhaviz::derived_all;
using mhaviz::derived_value;
using mhaviz::DerivedMap;

namespace mhaviz {
namespace {

template <typename T>
class ForwardBasics : public ::testing::Test {
 protected:
  static Config config() {
    Config c;
    c.dtype = std::is_same_v<T, double> ? DType::float64 : DType::float32;
    c.embed_dim = 12;
    c.num_heads = 3;
    c.batch_size = 2;
    c.tgt_len = 5;
    c.src_len = 7;
    return c;
  }
  static ForwardResult run(const Config& c) { return forward(c, init_params(c), random_inputs(c)); }
};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(ForwardBasics, Scalars);

TYPED_TEST(ForwardBasics, WeightRowsSumToOne) {
  const ForwardResult r = this->run(this->config());
  const auto w = r.weights.template data<TypeParam>();
  ASSERT_EQ(r.weights.shape(), (Shape{2, 3, 5, 7}));
  for (std::int64_t row = 0; row < 2 * 3 * 5; ++row) {
    double sum = 0;
    for (std::int64_t j = 0; j < 7; ++j) sum += w[static_cast<std::size_t>(row * 7 + j)];
    EXPECT_NEAR(sum, 1.0, 1e-5);
  }
}

TYPED_TEST(ForwardBasics, WeightsChangedInPlaceAreNotTakenFromTheCache) {
  // The pass keeps transposed weights across passes (transposed_weights.hpp): a parameter
  // written between two passes, in place (no other copy of it left but the cache's), must be
  // the one the second pass uses.
  const auto bytes = [](const Tensor& t) {
    return std::vector<std::byte>(t.bytes().begin(), t.bytes().end());
  };
  const char* keys[] = {"in_proj_weight", "k_proj_weight", "out_proj.weight"};
  for (const bool packed : {true, false}) {
    Config c = this->config();
    if (!packed) c.kdim = 8;  // separate q/k/v_proj_weight
    const Inputs in = random_inputs(c);
    Params p = init_params(c);
    const std::vector<std::byte> before = bytes(forward(c, p, in).output);
    for (const char* key : keys) {
      if (auto* t = p.find(key); t->has_value()) {
        for (TypeParam& x : (*t)->template data<TypeParam>())
          x = x * TypeParam(0.5) + TypeParam(0.01);
      }
    }
    const std::vector<std::byte> after = bytes(forward(c, p, in).output);
    Params fresh = p;  // the same values in storage no pass has seen
    for (const char* key : keys) {
      if (auto* t = fresh.find(key); t->has_value()) {
        Tensor copy((*t)->type(), (*t)->shape());
        const auto from = std::as_const(**t).bytes();
        std::copy(from.begin(), from.end(), copy.bytes().begin());
        *t = copy;
      }
    }
    EXPECT_NE(after, before) << "the change made no difference: the test proves nothing";
    EXPECT_EQ(after, bytes(forward(c, fresh, in).output))
        << (packed ? "packed" : "separate") << " weights: the second pass used stale ones";
  }
}

TYPED_TEST(ForwardBasics, ReturnShapesFollowPyTorch) {
  Config c = this->config();
  ForwardResult r = this->run(c);
  EXPECT_EQ(r.attn_output.shape(), (Shape{5, 2, 12}));
  EXPECT_EQ(r.attn_output_weights->shape(), (Shape{2, 5, 7}));
  c.batch_first = true;
  c.average_attn_weights = false;
  r = this->run(c);
  EXPECT_EQ(r.attn_output.shape(), (Shape{2, 5, 12}));
  EXPECT_EQ(r.attn_output_weights->shape(), (Shape{2, 3, 5, 7}));
  c.batch_size.reset();
  r = this->run(c);
  EXPECT_EQ(r.attn_output.shape(), (Shape{5, 12}));
  EXPECT_EQ(r.attn_output_weights->shape(), (Shape{3, 5, 7}));
  c.need_weights = false;
  EXPECT_FALSE(this->run(c).attn_output_weights.has_value());
}

TYPED_TEST(ForwardBasics, ExtraColumnsAreAppendedInOrder) {
  Config c = this->config();
  c.add_bias_kv = true;
  c.add_zero_attn = true;
  const ForwardResult r = this->run(c);
  ASSERT_EQ(r.Sx, 9);
  ASSERT_EQ(r.columns.size(), 9U);
  EXPECT_EQ(r.columns[6], (KeyColumn{KeyKind::source, 6}));
  EXPECT_EQ(r.columns[7].kind, KeyKind::bias_k);
  EXPECT_EQ(r.columns[8].kind, KeyKind::zero);
  // The zero key's raw score is exactly 0 for every query.
  const Tensor raw_scores = derived_all(r, DerivedMap::raw_scores);
  for (std::int64_t row = 0; row < 2 * 3 * 5; ++row) {
    EXPECT_EQ(raw_scores.value(row * 9 + 8), 0.0);
  }
  // The data sits where the labels say: in every (n, h) block of k (and v), row S = 7 is head
  // h's slice of bias_k (bias_v), row 8 is zeros, and rows 0..6 are the projected keys (not a
  // bias row or a zero row that landed earlier).
  const std::int64_t hd = 4;
  for (std::int64_t b = 0; b < 2 * 3; ++b) {
    const std::int64_t h = b % 3;
    for (const auto& [t, bias, name] :
         {std::tuple{&r.k, &*r.params.bias_k, "k"}, std::tuple{&r.v, &*r.params.bias_v, "v"}}) {
      const auto at = [&, t = t](std::int64_t row, std::int64_t i) {
        return t->value((b * 9 + row) * hd + i);
      };
      for (std::int64_t i = 0; i < hd; ++i) {
        EXPECT_EQ(at(7, i), bias->value(h * hd + i)) << name << " block " << b << " [" << i << "]";
        EXPECT_EQ(at(8, i), 0.0) << name << " block " << b << " [" << i << "]";
      }
      for (std::int64_t row = 0; row < 7; ++row) {
        bool differs = false;
        for (std::int64_t i = 0; i < hd; ++i) differs |= at(row, i) != bias->value(h * hd + i);
        EXPECT_TRUE(differs) << name << " block " << b << " row " << row << " is the bias row";
      }
    }
  }
}

TYPED_TEST(ForwardBasics, FullyMaskedRowIsNaNUnlessZeroAttn) {
  Config c = this->config();
  Inputs in = random_inputs(c);
  std::vector<std::uint8_t> m(5 * 7, 0);
  for (int j = 0; j < 7; ++j) m[static_cast<std::size_t>(2 * 7 + j)] = 1;  // query 2
  in.attn_mask = Tensor::from_bools({5, 7}, m);
  ForwardResult r = forward(c, init_params(c), in);
  EXPECT_TRUE(std::isnan(r.weights.value(2 * 7)));
  EXPECT_FALSE(std::isnan(r.weights.value(1 * 7)));
  c.add_zero_attn = true;
  r = forward(c, init_params(c), in);
  EXPECT_FALSE(std::isnan(r.weights.value(2 * 8)));
  EXPECT_NEAR(r.weights.value(2 * 8 + 7), 1.0, 1e-6);  // all weight on the zero key
}

// need_weights=False: a query whose every key is masked gets weights 0, so its head outputs are
// exactly 0 and attn_output's row is exactly out_proj.bias, as in PyTorch 2.5+ (that path goes
// through scaled_dot_product_attention, whose softmax maps a fully masked row to 0:
// pytorch/pytorch PR 131060 / 133882). PyTorch 1.13 and 2.0-2.4 give NaN there. With
// need_weights=True (the general path, in every version) the row is NaN.
TYPED_TEST(ForwardBasics, FullyMaskedQueryWithoutWeightsGivesZero) {
  Config c = this->config();  // N=2, H=3, L=5, S=7, E=12, seq-first
  Inputs in = random_inputs(c);
  std::vector<std::uint8_t> m(5 * 7, 0);
  for (int j = 0; j < 7; ++j) m[static_cast<std::size_t>(2 * 7 + j)] = 1;  // query 2
  m[1 * 7 + 3] = 1;                                                        // query 1: one key
  in.attn_mask = Tensor::from_bools({5, 7}, m);
  Params p = init_params(c);
  std::vector<TypeParam> bias(12);
  for (std::size_t i = 0; i < bias.size(); ++i) bias[i] = TypeParam(0.25) * TypeParam(i + 1);
  p.out_proj_bias = Tensor::from<TypeParam>({12}, bias);

  c.need_weights = false;
  const ForwardResult r = forward(c, p, in);
  EXPECT_FALSE(r.attn_output_weights.has_value());
  for (std::int64_t b = 0; b < 2 * 3; ++b) {
    for (std::int64_t j = 0; j < 7; ++j) {
      EXPECT_EQ(r.weights.value((b * 5 + 2) * 7 + j), 0.0) << "block " << b << " key " << j;
    }
    for (std::int64_t i = 0; i < 4; ++i) {
      EXPECT_EQ(r.head_output.value((b * 5 + 2) * 4 + i), 0.0) << "block " << b;
    }
  }
  for (std::int64_t n = 0; n < 2; ++n) {
    for (std::int64_t e = 0; e < 12; ++e) {
      // attn_output is (L, N, E).
      EXPECT_EQ(r.attn_output.value((2 * 2 + n) * 12 + e), p.out_proj_bias->value(e))
          << "batch " << n << " feature " << e;
      EXPECT_TRUE(std::isfinite(r.attn_output.value((1 * 2 + n) * 12 + e)));  // partly masked
    }
  }

  c.need_weights = true;
  const ForwardResult with = forward(c, p, in);
  for (std::int64_t n = 0; n < 2; ++n) {
    for (std::int64_t e = 0; e < 12; ++e) {
      EXPECT_TRUE(std::isnan(with.attn_output.value((2 * 2 + n) * 12 + e))) << n << " " << e;
      EXPECT_FALSE(std::isnan(with.attn_output.value((1 * 2 + n) * 12 + e))) << n << " " << e;
    }
    for (std::int64_t j = 0; j < 7; ++j) {
      EXPECT_TRUE(std::isnan(with.attn_output_weights->value((n * 5 + 2) * 7 + j)));
    }
  }
}

TEST(ForwardControl, CancelStopsBetweenBlocks) {
  Config c;
  c.batch_size = 2;
  std::atomic<bool> cancel{false};
  std::int64_t calls = 0;
  RunControl rc;
  rc.cancel = &cancel;
  rc.progress = [&](std::int64_t done, std::int64_t total) {
    ++calls;
    EXPECT_EQ(total, 4);
    if (done == 2) cancel = true;
  };
  EXPECT_THROW((void)forward(c, init_params(c), random_inputs(c), rc), Cancelled);
  EXPECT_EQ(calls, 2);
}

TEST(ForwardControl, ValidationNamesTheProblem) {
  Config c;
  c.num_heads = 3;
  EXPECT_THROW(
      {
        try {
          validate_config(c);
        } catch (const InvalidInput& e) {
          EXPECT_NE(std::string(e.what()).find("embed_dim must be divisible by num_heads"),
                    std::string::npos);
          throw;
        }
      },
      InvalidInput);
}

TEST(Memory, EstimateIsWithinTenPercentOfTheResult) {
  for (const auto& [n, l, s, e, h] : std::vector<std::array<std::int64_t, 5>>{
           {1, 64, 64, 32, 4}, {2, 128, 96, 64, 8}, {4, 200, 300, 48, 6}}) {
    Config c;
    c.batch_size = n;
    c.tgt_len = l;
    c.src_len = s;
    c.embed_dim = e;
    c.num_heads = h;
    const ForwardResult r = forward(c, init_params(c), random_inputs(c));
    const auto est = static_cast<double>(estimate_result_bytes(c));
    const auto held = static_cast<double>(r.bytes());
    EXPECT_GE(est, held * 0.9) << n << " " << l << " " << s;
    EXPECT_LE(est, held * 1.1) << n << " " << l << " " << s;
    EXPECT_GT(estimate_memory(c), estimate_result_bytes(c));
  }
}

TEST(Memory, RefusesOverTheLimitWithTheEstimate) {
  Config c;
  c.tgt_len = c.src_len = 4096;
  c.num_heads = 16;
  c.batch_size = 64;
  try {
    check_memory(c);
    FAIL() << "expected InvalidInput";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("the limit is 4.0 GiB"), std::string::npos) << e.what();
  }
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(17), "17 B");
}

TEST(ShapeFlow, CountsAppendedColumns) {
  Config c;
  c.add_bias_kv = true;
  c.add_zero_attn = true;
  c.src_len = 5;
  const auto steps = shape_flow(c);
  ASSERT_FALSE(steps.empty());
  bool saw_scores = false;
  for (const auto& s : steps) {
    if (s.tensor == "scores") {
      saw_scores = true;
      EXPECT_EQ(s.shape, (Shape{2, 8, 7}));
      EXPECT_EQ(s.symbolic, "(N*H, L, S+2)");
    }
  }
  EXPECT_TRUE(saw_scores);
}

}  // namespace
}  // namespace mhaviz
