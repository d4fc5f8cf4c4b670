// Input and weight generators, token labels, and fitting settings to new sizes.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "gen_test_util.hpp"
#include "mhaviz/core/forward/derived_maps.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/gen/inputs.hpp"
#include "mhaviz/core/gen/resize.hpp"
#include "mhaviz/core/gen/weights.hpp"
#include "mhaviz/core/plan/problem.hpp"

using mhaviz::derived_all;
using mhaviz::derived_value;
using mhaviz::DerivedMap;

using mhaviz::Config;
using mhaviz::DType;
using mhaviz::Inputs;
using mhaviz::Params;
using mhaviz::Shape;
using mhaviz::Tensor;
using mhaviz::gen::InputKind;
using mhaviz::gen::make_inputs;
using mhaviz::gen::make_params;
using mhaviz::gen::MaskCell;
using mhaviz::gen::MaskKind;
using mhaviz::gen::MaskShape;
using mhaviz::gen::PaddingKind;
using mhaviz::gen::WeightKind;
using mhaviz::test::expect_invalid;
using mhaviz::test::same_tensor;
using mhaviz::test::small_config;

TEST(GenInputs, DefaultIsRandomInputsExactly) {
  const Config c = small_config();
  const Inputs a = make_inputs(c);
  const Inputs b = mhaviz::random_inputs(c);
  EXPECT_TRUE(same_tensor(a.query, b.query));
  EXPECT_TRUE(same_tensor(a.key, b.key));
  EXPECT_TRUE(same_tensor(a.value, b.value));
  Config scaled = c;
  scaled.input_spec.scale = 0.5;
  EXPECT_FLOAT_EQ(static_cast<float>(make_inputs(scaled).key.value(13)),
                  static_cast<float>(0.5 * b.key.value(13)));
}

TEST(GenInputs, OneHotTokens) {
  Config c = small_config();  // (L, N, E) = (4, 2, 8); key (6, 2, kdim=3)
  c.kdim = 3;
  c.input_spec.kind = InputKind::one_hot;
  c.input_spec.scale = 2.0;
  const Inputs in = make_inputs(c);
  for (std::int64_t p = 0; p < 4; ++p) {
    for (std::int64_t n = 0; n < 2; ++n) {
      for (std::int64_t f = 0; f < 8; ++f) {
        EXPECT_EQ(in.query.value((p * 2 + n) * 8 + f), f == p ? 2.0 : 0.0);
      }
    }
  }
  // Position 4 of a 3-wide key is e_(4 mod 3) = e_1.
  EXPECT_EQ(in.key.value((4 * 2 + 1) * 3 + 1), 2.0);
  EXPECT_EQ(in.key.value((4 * 2 + 1) * 3 + 0), 0.0);
}

TEST(GenInputs, SinusoidalPositionsInEveryLayout) {
  Config c = small_config();
  c.dtype = DType::float64;
  c.input_spec.kind = InputKind::sinusoidal;
  const auto pe = [](std::int64_t p, std::int64_t f, std::int64_t d) {
    const double angle = static_cast<double>(p) /
                         std::pow(10000.0, static_cast<double>(f - f % 2) / static_cast<double>(d));
    return f % 2 == 0 ? std::sin(angle) : std::cos(angle);
  };
  Inputs in = make_inputs(c);  // (S, N, E)
  EXPECT_DOUBLE_EQ(in.key.value((5 * 2 + 1) * 8 + 3), pe(5, 3, 8));
  EXPECT_DOUBLE_EQ(in.query.value((2 * 2 + 0) * 8 + 0), std::sin(2.0));
  c.batch_first = true;  // (N, S, E)
  in = make_inputs(c);
  EXPECT_DOUBLE_EQ(in.key.value((1 * 6 + 5) * 8 + 3), pe(5, 3, 8));
  c.batch_size = std::nullopt;  // (S, E)
  in = make_inputs(c);
  EXPECT_DOUBLE_EQ(in.key.value(5 * 8 + 6), pe(5, 6, 8));
  // Random content is added on top, from the input seed.
  c.input_spec.content_scale = 0.1;
  const Inputs noisy = make_inputs(c);
  const double diff = noisy.key.value(5 * 8 + 6) - pe(5, 6, 8);
  EXPECT_NE(diff, 0.0);
  EXPECT_LT(std::abs(diff), 1.0);
  EXPECT_TRUE(same_tensor(make_inputs(c).key, noisy.key));
}

TEST(GenInputs, SelfAttentionSharesTheQuery) {
  Config c = small_config();
  c.src_len = c.tgt_len;
  c.input_spec.self_attention = true;
  const Inputs in = make_inputs(c);
  EXPECT_TRUE(same_tensor(in.key, in.query));
  EXPECT_TRUE(same_tensor(in.value, in.query));
  c.src_len = 6;
  expect_invalid([&] { (void)make_inputs(c); }, {"inputs.self_attention", "src_len=6", "tgt_len=4",
                                                 "set inputs.self_attention to false"});
  c.src_len = 4;
  c.kdim = 5;
  expect_invalid([&] { (void)make_inputs(c); }, {"kdim=5", "kdim/vdim to null"});
}

TEST(GenWeights, DefaultIsInitParamsTimesScale) {
  Config c = small_config();
  c.add_bias_kv = true;
  const Params base = mhaviz::init_params(c);
  EXPECT_TRUE(same_tensor(*make_params(c).in_proj_weight, *base.in_proj_weight));
  c.weight_spec.scale = 3.0;
  const Params s = make_params(c);
  EXPECT_FLOAT_EQ(static_cast<float>(s.in_proj_weight->value(17)),
                  static_cast<float>(3.0 * base.in_proj_weight->value(17)));
  EXPECT_FLOAT_EQ(static_cast<float>(s.bias_k->value(2)),
                  static_cast<float>(3.0 * base.bias_k->value(2)));
  c.weight_spec.scale = std::nan("");
  expect_invalid([&] { (void)make_params(c); }, {"weights.scale"});
}

TEST(GenWeights, IdentityProjectionsGiveRawSimilarity) {
  Config c = small_config();  // E=8, H=2, hd=4
  c.weight_spec.kind = WeightKind::identity;
  const mhaviz::Problem p = mhaviz::make_problem(c);
  const mhaviz::ForwardResult r = mhaviz::forward(p.config, p.params, p.inputs);
  // raw score (n, h, i, j) = query_i . key_j over head h's features / sqrt(hd).
  for (const auto [n, h, i, j] : {std::array<std::int64_t, 4>{0, 0, 1, 2}, {1, 1, 3, 5}}) {
    double dot = 0.0;
    for (std::int64_t f = h * 4; f < h * 4 + 4; ++f) {
      dot += p.inputs.query.value((i * 2 + n) * 8 + f) * p.inputs.key.value((j * 2 + n) * 8 + f);
    }
    EXPECT_NEAR(derived_value(r, DerivedMap::raw_scores, n, h, i, j), dot / 2.0, 1e-5);
  }
  // Output of identity out_proj is the merged head outputs.
  EXPECT_TRUE(same_tensor(r.output, r.merged, 1e-6));
}

TEST(GenWeights, IdentityWithOtherKdimIsTruncatedOrPadded) {
  Config c = small_config();
  c.kdim = 3;
  c.vdim = 10;
  c.add_bias_kv = true;
  c.weight_spec.kind = WeightKind::identity;
  const Params p = make_params(c);
  ASSERT_TRUE(p.k_proj_weight.has_value());
  EXPECT_EQ(p.k_proj_weight->shape(), (Shape{8, 3}));
  for (std::int64_t r = 0; r < 8; ++r) {
    for (std::int64_t col = 0; col < 3; ++col) {
      EXPECT_EQ(p.k_proj_weight->value(r * 3 + col), r == col ? 1.0 : 0.0);
    }
    for (std::int64_t col = 0; col < 10; ++col) {
      EXPECT_EQ(p.v_proj_weight->value(r * 10 + col), r == col ? 1.0 : 0.0);
    }
  }
  EXPECT_EQ(p.bias_k->value(0), 0.0);
  c.kdim.reset();
  c.vdim.reset();
  const Params packed = make_params(c);
  EXPECT_EQ(packed.in_proj_weight->value(8 * 8 + 0), 1.0);         // k block row 0
  EXPECT_EQ(packed.in_proj_weight->value((16 + 7) * 8 + 7), 1.0);  // v block row 7
  EXPECT_EQ(packed.in_proj_weight->value((16 + 7) * 8 + 6), 0.0);
}

TEST(GenLabels, CountMustMatchTheLength) {
  Config c = small_config();
  c.query_labels = {"The", "cat", "sat"};
  expect_invalid([&] { (void)mhaviz::make_problem(c); },
                 {"query_labels has 3 labels", "tgt_len=4"});
  c.query_labels.push_back("down");
  c.key_labels = {"a"};
  expect_invalid([&] { (void)mhaviz::make_problem(c); }, {"key_labels has 1 labels", "src_len=6"});
  c.key_labels.clear();
  EXPECT_NO_THROW((void)mhaviz::make_problem(c));
}

TEST(GenResize, CustomCellsKeepTheirOverlap) {
  Config before = small_config();
  before.tgt_len = 6;
  before.src_len = 6;
  before.attn_mask_spec.kind = MaskKind::custom;
  before.attn_mask_spec.cells = {MaskCell{0, 0, -1, std::nullopt}, MaskCell{3, 7 - 2, -1, 1.0},
                                 MaskCell{5, 1, -1, std::nullopt}, MaskCell{1, 5, -1, 2.0},
                                 MaskCell{4, 4, -1, std::nullopt}};
  Config after = before;
  after.tgt_len = 4;
  after.src_len = 8;
  const std::string text = mhaviz::gen::describe_resize(before, after);
  EXPECT_EQ(text,
            "custom attn_mask resized from 6x6 to 4x8: 2 cells outside dropped, 3 cells kept");
  const auto notes = mhaviz::gen::fit_to_sizes(before, after);
  ASSERT_EQ(notes.size(), 1U);
  EXPECT_EQ(after.attn_mask_spec.cells,
            (std::vector<MaskCell>{MaskCell{0, 0, -1, std::nullopt}, MaskCell{3, 5, -1, 1.0},
                                   MaskCell{1, 5, -1, 2.0}}));
  EXPECT_NO_THROW((void)mhaviz::make_problem(after));
  // Without fitting, cells outside the mask are an error naming the cell.
  Config unfitted = before;
  unfitted.tgt_len = 4;
  expect_invalid([&] { (void)mhaviz::make_problem(unfitted); }, {"attn_mask.cells[2]", "4x6"});
}

TEST(GenResize, BlocksKeepTheirBatchElementAndHead) {
  Config before = small_config();  // N=2, H=2
  before.attn_mask_spec.kind = MaskKind::custom;
  before.attn_mask_spec.shape = MaskShape::three_d;
  before.attn_mask_spec.cells = {MaskCell{0, 0, 1, std::nullopt},   // n=0, h=1
                                 MaskCell{0, 1, 3, std::nullopt}};  // n=1, h=1
  Config after = before;
  after.num_heads = 4;
  after.batch_size = 1;
  const auto notes = mhaviz::gen::fit_to_sizes(before, after);
  EXPECT_EQ(after.attn_mask_spec.cells, (std::vector<MaskCell>{MaskCell{0, 0, 1, std::nullopt}}));
  ASSERT_EQ(notes.size(), 1U);
  EXPECT_NE(notes[0].find("1 cell outside dropped"), std::string::npos) << notes[0];
}

TEST(GenResize, PaddingAndLabelsFollowTheSizes) {
  Config before = small_config();
  before.key_padding_spec.kind = PaddingKind::lengths;
  before.key_padding_spec.valid_lengths = {6, 2};
  before.query_labels = {"a", "b", "c", "d"};
  Config after = before;
  after.batch_size = 3;
  after.src_len = 4;
  after.tgt_len = 6;
  const auto notes = mhaviz::gen::fit_to_sizes(before, after);
  EXPECT_EQ(after.key_padding_spec.valid_lengths, (std::vector<std::int64_t>{4, 2, 4}));
  EXPECT_EQ(after.query_labels, (std::vector<std::string>{"a", "b", "c", "d", "4", "5"}));
  EXPECT_EQ(notes.size(), 3U);
  EXPECT_NO_THROW((void)mhaviz::make_problem(after));
  Config same = before;
  EXPECT_TRUE(mhaviz::gen::fit_to_sizes(before, same).empty());
  EXPECT_EQ(mhaviz::gen::describe_resize(before, before), "");
}
