// Generated masks through make_problem and forward(): PyTorch's weights for a generated ALiBi
// mask, bool vs float equivalence, (n, h) placement of 3-D masks, fully padded elements, and
// the messages for loaded masks of the wrong shape.
#include <gtest/gtest.h>

#include <cmath>

#include "gen_test_util.hpp"
#include "mhaviz/core/forward/derived_maps.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/gen/masks.hpp"
#include "mhaviz/core/plan/problem.hpp"

using mhaviz::derived_all;
using mhaviz::derived_value;
using mhaviz::DerivedMap;

using mhaviz::Config;
using mhaviz::ForwardResult;
using mhaviz::make_problem;
using mhaviz::Problem;
using mhaviz::Shape;
using mhaviz::Tensor;
using mhaviz::gen::MaskCell;
using mhaviz::gen::MaskDType;
using mhaviz::gen::MaskKind;
using mhaviz::gen::MaskShape;
using mhaviz::gen::PaddingKind;
using mhaviz::io::TensorMap;
using mhaviz::test::expect_invalid;
using mhaviz::test::same_tensor;
using mhaviz::test::small_config;

namespace {

ForwardResult run(const Config& c, const TensorMap& tensors = {}) {
  const Problem p = make_problem(c, tensors);
  return mhaviz::forward(p.config, p.params, p.inputs);
}

/// Element (n, h, i, j) of an (N, H, L, Sx) result tensor.
double at4(const ForwardResult& r, const Tensor& t, std::int64_t n, std::int64_t h, std::int64_t i,
           std::int64_t j) {
  return t.value(((n * r.H + h) * r.L + i) * r.Sx + j);
}

}  // namespace

TEST(GenForward, GeneratedAlibiGivesPyTorchsWeights) {
  TensorMap fx = mhaviz::test::mask_fixture("forward_alibi");
  const Tensor want_weights = fx.at("attn_output_weights");
  const Tensor want_output = fx.at("attn_output");
  fx.erase("attn_output_weights");
  fx.erase("attn_output");
  Config c;
  c.embed_dim = 12;
  c.num_heads = 6;
  c.batch_size = 2;
  c.tgt_len = 5;
  c.src_len = 7;
  c.average_attn_weights = false;
  c.attn_mask_spec.kind = MaskKind::alibi;
  c.attn_mask_spec.dtype = MaskDType::floating;
  c.attn_mask_spec.shape = MaskShape::three_d;
  c.attn_mask_spec.causal = true;
  const ForwardResult r = run(c, fx);
  EXPECT_TRUE(same_tensor(*r.attn_output_weights, want_weights, 1e-6));
  EXPECT_TRUE(same_tensor(r.attn_output, want_output, 1e-5));
}

TEST(GenForward, BoolAndEquivalentFloatMasksGiveTheSameWeights) {
  for (const MaskKind kind :
       {MaskKind::causal, MaskKind::window, MaskKind::band, MaskKind::block, MaskKind::random}) {
    Config c = small_config();
    c.tgt_len = 6;
    c.average_attn_weights = false;
    c.attn_mask_spec.kind = kind;
    c.attn_mask_spec.width = 2;
    c.attn_mask_spec.segments = {2, 2};
    c.attn_mask_spec.probability = 0.3;
    c.attn_mask_spec.shape = kind == MaskKind::random ? MaskShape::three_d : MaskShape::two_d;
    c.key_padding_spec.kind = PaddingKind::lengths;
    c.key_padding_spec.valid_lengths = {6, 4};
    const ForwardResult as_bool = run(c);
    c.attn_mask_spec.dtype = MaskDType::floating;
    c.key_padding_spec.dtype = MaskDType::floating;
    const ForwardResult as_float = run(c);
    EXPECT_TRUE(same_tensor(as_float.weights, as_bool.weights)) << to_string(kind);
    EXPECT_TRUE(same_tensor(derived_all(as_float, DerivedMap::mask),
                            derived_all(as_bool, DerivedMap::mask)))
        << to_string(kind);
  }
}

TEST(GenForward, FiniteMaskedValueIsAdded) {
  Config c = small_config();
  c.attn_mask_spec.kind = MaskKind::causal;
  c.attn_mask_spec.dtype = MaskDType::floating;
  c.attn_mask_spec.masked_value = -1e4;
  const ForwardResult r = run(c);
  EXPECT_EQ(derived_value(r, DerivedMap::mask, 1, 1, 0, 3), -1e4);
  EXPECT_EQ(derived_value(r, DerivedMap::scores, 1, 1, 0, 3),
            static_cast<float>(derived_value(r, DerivedMap::raw_scores, 1, 1, 0, 3) - 1e4));
  EXPECT_EQ(derived_value(r, DerivedMap::mask, 1, 1, 3, 3), 0.0);
}

TEST(GenForward, ThreeDMaskLandsOnBlockNTimesHPlusH) {
  Config c = small_config();  // N=2, H=2: blocks b = n*2 + h
  c.attn_mask_spec.kind = MaskKind::custom;
  c.attn_mask_spec.dtype = MaskDType::floating;
  c.attn_mask_spec.shape = MaskShape::three_d;
  for (std::int64_t b = 0; b < 4; ++b) {
    // Block b adds -(b+1) at query b, key b+1: a distinct cell and value per block.
    c.attn_mask_spec.cells.push_back(MaskCell{b, b + 1, b, -static_cast<double>(b + 1)});
  }
  const ForwardResult r = run(c);
  for (std::int64_t n = 0; n < 2; ++n) {
    for (std::int64_t h = 0; h < 2; ++h) {
      const std::int64_t b = n * 2 + h;
      for (std::int64_t i = 0; i < 4; ++i) {
        for (std::int64_t j = 0; j < 6; ++j) {
          const double want = i == b && j == b + 1 ? -static_cast<double>(b + 1) : 0.0;
          EXPECT_EQ(derived_value(r, DerivedMap::mask, n, h, i, j), want)
              << "n=" << n << " h=" << h;
        }
      }
    }
  }
}

TEST(GenForward, PerHeadAlibiBiasReachesEachHead) {
  Config c = small_config();
  c.num_heads = 4;
  c.attn_mask_spec.kind = MaskKind::alibi;
  c.attn_mask_spec.dtype = MaskDType::floating;
  c.attn_mask_spec.shape = MaskShape::three_d;
  const ForwardResult r = run(c);
  const std::vector<double> slopes = mhaviz::gen::alibi_slopes(4);
  for (std::int64_t n = 0; n < 2; ++n) {
    for (std::int64_t h = 0; h < 4; ++h) {
      EXPECT_EQ(derived_value(r, DerivedMap::mask, n, h, 1, 4),
                static_cast<float>(-3.0 * slopes[static_cast<std::size_t>(h)]));
    }
  }
}

TEST(GenForward, FullyPaddedElementGivesNaNRowsUnlessAColumnCannotBePadded) {
  Config c = small_config();
  c.key_padding_spec.kind = PaddingKind::lengths;
  c.key_padding_spec.valid_lengths = {6, 0};  // batch element 1 fully padded
  ForwardResult r = run(c);
  EXPECT_TRUE(std::isnan(at4(r, r.weights, 1, 0, 2, 3)));
  EXPECT_TRUE(std::isnan(r.output.value((1 * 4 + 2) * 8)));
  EXPECT_FALSE(std::isnan(at4(r, r.weights, 0, 0, 2, 3)));
  for (const int variant : {0, 1}) {
    Config d = c;
    (variant == 0 ? d.add_zero_attn : d.add_bias_kv) = true;
    r = run(d);
    for (std::int64_t h = 0; h < 2; ++h) {
      for (std::int64_t i = 0; i < 4; ++i) {
        // Every source key padded: the appended column takes all the weight.
        EXPECT_EQ(at4(r, r.weights, 1, h, i, 6), 1.0f);
        EXPECT_EQ(at4(r, r.weights, 1, h, i, 0), 0.0f);
      }
    }
  }
}

TEST(GenForward, TensorFileMasksOverrideGeneratedOnes) {
  Config c = small_config();
  c.attn_mask_spec.kind = MaskKind::causal;
  c.key_padding_spec.kind = PaddingKind::lengths;
  c.key_padding_spec.valid_lengths = {1, 1};
  TensorMap t;
  t.emplace("attn_mask", Tensor::from_bools({4, 6}, std::vector<std::uint8_t>(24, 0)));
  const Problem p = make_problem(c, t);
  EXPECT_TRUE(same_tensor(*p.inputs.attn_mask, t.at("attn_mask")));
  EXPECT_TRUE(same_tensor(*p.inputs.key_padding_mask, *mhaviz::gen::make_key_padding_mask(c)));
  // An overridden mask's settings are not checked (they are not used).
  c.key_padding_spec.valid_lengths = {1};
  t.emplace("key_padding_mask", Tensor::from_bools({2, 6}, std::vector<std::uint8_t>(12, 0)));
  EXPECT_NO_THROW((void)make_problem(c, t));
}

TEST(GenForward, LoadedMasksOfTheWrongShapeNameBothShapes) {
  const Config c = small_config();  // L=4, S=6, N=2, H=2
  const auto check = [&](const char* name, Shape shape, std::vector<std::string> parts) {
    TensorMap t;
    t.emplace(name, Tensor::from_bools(shape, std::vector<std::uint8_t>(
                                                  static_cast<std::size_t>(mhaviz::numel(shape)))));
    expect_invalid([&] { (void)run(c, t); }, parts);
  };
  check("attn_mask", {6, 4}, {"(6, 4)", "(4, 6)"});
  check("attn_mask", {2, 4, 6}, {"(2, 4, 6)", "(4, 4, 6)"});
  check("key_padding_mask", {2, 4}, {"(2, 6)", "(2, 4)"});
}

TEST(GenForward, IsCausalHintNeedsAMask) {
  Config c = small_config();
  c.is_causal = true;
  expect_invalid([&] { (void)run(c); }, {"Need attn_mask if specifying the is_causal hint"});
  c.attn_mask_spec.kind = MaskKind::causal;
  EXPECT_NO_THROW((void)run(c));
}
