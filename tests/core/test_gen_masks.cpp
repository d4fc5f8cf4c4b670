// attn_mask / key_padding_mask generators against masks built with PyTorch
// (tests/fixtures/masks, made by tests/fixtures/make_mask_fixtures.py).
#include <gtest/gtest.h>

#include <limits>

#include "gen_test_util.hpp"
#include "mhaviz/core/gen/masks.hpp"

using mhaviz::Config;
using mhaviz::DType;
using mhaviz::ElemType;
using mhaviz::Shape;
using mhaviz::Tensor;
using mhaviz::gen::GraphBias;
using mhaviz::gen::make_attn_mask;
using mhaviz::gen::make_key_padding_mask;
using mhaviz::gen::MaskCell;
using mhaviz::gen::MaskDType;
using mhaviz::gen::MaskKind;
using mhaviz::gen::MaskShape;
using mhaviz::gen::PaddingKind;
using mhaviz::test::expect_invalid;
using mhaviz::test::mask_fixture;
using mhaviz::test::same_tensor;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Config sized(std::int64_t L, std::int64_t S, MaskKind kind) {
  Config c;
  c.tgt_len = L;
  c.src_len = S;
  c.attn_mask_spec.kind = kind;
  return c;
}

}  // namespace

TEST(GenAttnMask, NoneGivesNoMask) { EXPECT_FALSE(make_attn_mask(Config{}).has_value()); }

TEST(GenAttnMask, CausalMatchesTorch) {
  const auto fx = mask_fixture("causal");
  Config c = sized(6, 6, MaskKind::causal);
  c.attn_mask_spec.dtype = MaskDType::floating;
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("square_float")));
  c = sized(5, 7, MaskKind::causal);
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("bool_5x7")));
}

TEST(GenAttnMask, WindowBandBlockMatchTorch) {
  const auto fx = mask_fixture("presets");
  Config c = sized(6, 6, MaskKind::window);
  c.attn_mask_spec.width = 3;
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("window_6x6_w3")));
  c = sized(5, 7, MaskKind::band);
  c.attn_mask_spec.width = 2;
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("band_5x7_w2")));
  c = sized(7, 7, MaskKind::block);
  c.attn_mask_spec.segments = {2, 3};
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("block_7x7_2_3")));
}

TEST(GenAttnMask, FloatFormUsesMaskedValue) {
  Config c = sized(3, 3, MaskKind::causal);
  c.attn_mask_spec.dtype = MaskDType::floating;
  c.attn_mask_spec.masked_value = -1e4;
  c.dtype = DType::float64;
  const Tensor m = *make_attn_mask(c);
  EXPECT_EQ(m.type(), ElemType::f64);
  EXPECT_EQ(m.value(1), -1e4);  // (0, 1)
  EXPECT_EQ(m.value(3), 0.0);   // (1, 0)
}

TEST(GenAttnMask, AlibiSlopesAreThePapers) {
  const auto fx = mask_fixture("alibi");
  for (const std::int64_t H : {8, 6}) {
    const Tensor& want = fx.at("slopes_h" + std::to_string(H));
    const std::vector<double> got = mhaviz::gen::alibi_slopes(H);
    ASSERT_EQ(std::ssize(got), want.numel());
    for (std::int64_t h = 0; h < want.numel(); ++h) {
      EXPECT_DOUBLE_EQ(got[static_cast<std::size_t>(h)], want.value(h)) << "H=" << H << " h=" << h;
    }
  }
  // Power of two: 2^(-8h/H) for h = 1..H.
  const std::vector<double> s4 = mhaviz::gen::alibi_slopes(4);
  for (std::size_t h = 0; h < 4; ++h) {
    EXPECT_DOUBLE_EQ(s4[h], std::pow(2.0, -8.0 * static_cast<double>(h + 1) / 4.0));
  }
}

TEST(GenAttnMask, AlibiBiasMatchesTorch) {
  const auto fx = mask_fixture("alibi");
  Config c = sized(5, 7, MaskKind::alibi);
  c.embed_dim = 12;
  c.num_heads = 6;
  c.batch_size = 2;
  c.attn_mask_spec.dtype = MaskDType::floating;
  c.attn_mask_spec.shape = MaskShape::three_d;
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("alibi_n2_h6_5x7")));

  c = sized(6, 6, MaskKind::alibi);
  c.num_heads = 8;
  c.attn_mask_spec.dtype = MaskDType::floating;
  c.attn_mask_spec.shape = MaskShape::three_d;
  c.attn_mask_spec.causal = true;
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("alibi_causal_n1_h8_6x6")));
  c.batch_size = std::nullopt;  // unbatched: (H, L, S)
  EXPECT_EQ(make_attn_mask(c)->shape(), (Shape{8, 6, 6}));
}

TEST(GenAttnMask, GraphDistanceBiasMatchesTorch) {
  const auto fx = mask_fixture("graph");
  Config c = sized(6, 6, MaskKind::graph);
  c.num_heads = 4;
  c.attn_mask_spec.dtype = MaskDType::floating;
  c.attn_mask_spec.shape = MaskShape::three_d;
  const Tensor& edges = fx.at("edges");
  for (std::int64_t e = 0; e < edges.size(0); ++e) {
    c.attn_mask_spec.edges.push_back({static_cast<std::int64_t>(edges.value(2 * e)),
                                      static_cast<std::int64_t>(edges.value(2 * e + 1))});
  }
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("distance_h4_6x6")));
}

TEST(GenAttnMask, GraphTableIsPerHeadAndDistance) {
  Config c = sized(5, 5, MaskKind::graph);
  c.num_heads = 2;
  c.batch_size = 2;
  auto& m = c.attn_mask_spec;
  m.dtype = MaskDType::floating;
  m.shape = MaskShape::three_d;
  m.graph_bias = GraphBias::table;
  m.max_distance = 1;
  m.edges = {{0, 1}, {1, 2}, {2, 3}};  // node 4 isolated
  const Tensor t = *make_attn_mask(c);
  const auto at = [&](std::int64_t b, std::int64_t i, std::int64_t j) {
    return t.value((b * 5 + i) * 5 + j);
  };
  for (std::int64_t b = 0; b < 4; ++b) {
    EXPECT_EQ(at(b, 0, 0), at(b, 3, 3));  // distance 0
    EXPECT_EQ(at(b, 0, 1), at(b, 2, 3));  // distance 1
    EXPECT_EQ(at(b, 0, 2), at(b, 0, 3));  // distance 2 and 3: past max_distance, shared entry
    EXPECT_EQ(at(b, 0, 2), at(b, 0, 4));  // unreachable: the same last entry
    EXPECT_NE(at(b, 0, 0), at(b, 0, 1));
    EXPECT_EQ(at(b, 1, 2), at(b % 2, 1, 2));  // per head, repeated over the batch
  }
  EXPECT_NE(at(0, 0, 1), at(1, 0, 1));  // heads differ
  // The random graph comes from the seed: same seed, same edges; other seed, other edges.
  m.edges.clear();
  m.edge_probability = 0.5;
  m.seed = 11;
  const auto e1 = mhaviz::gen::graph_edges(c);
  EXPECT_EQ(e1, mhaviz::gen::graph_edges(c));
  m.seed = 12;
  EXPECT_NE(e1, mhaviz::gen::graph_edges(c));
}

TEST(GenAttnMask, ShortestPaths) {
  const auto d = mhaviz::gen::shortest_paths(4, {{0, 1}, {1, 2}});
  EXPECT_EQ(d, (std::vector<std::int64_t>{0, 1, 2, -1, 1, 0, 1, -1, 2, 1, 0, -1, -1, -1, -1, 0}));
}

TEST(GenAttnMask, ThreeDRepeatsPresetsAndVariesRandomPerBlock) {
  Config c = sized(4, 6, MaskKind::causal);
  c.batch_size = 2;
  c.num_heads = 2;
  c.attn_mask_spec.shape = MaskShape::three_d;
  const Tensor causal3 = *make_attn_mask(c);
  ASSERT_EQ(causal3.shape(), (Shape{4, 4, 6}));
  c.attn_mask_spec.shape = MaskShape::two_d;
  const Tensor causal2 = *make_attn_mask(c);
  for (std::int64_t k = 0; k < causal3.numel(); ++k)
    EXPECT_EQ(causal3.value(k), causal2.value(k % 24));

  c.attn_mask_spec.kind = MaskKind::random;
  c.attn_mask_spec.probability = 0.5;
  c.attn_mask_spec.shape = MaskShape::three_d;
  const Tensor r = *make_attn_mask(c);
  std::int64_t differ = 0;
  std::int64_t masked = 0;
  for (std::int64_t k = 0; k < 24; ++k) differ += r.value(k) != r.value(24 + k) ? 1 : 0;
  for (std::int64_t k = 0; k < r.numel(); ++k) masked += r.value(k) != 0.0 ? 1 : 0;
  EXPECT_GT(differ, 0);
  EXPECT_GT(masked, 20);  // 96 cells at p = 0.5
  EXPECT_LT(masked, 76);
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), r));  // deterministic
  c.attn_mask_spec.seed = 99;
  EXPECT_FALSE(same_tensor(*make_attn_mask(c), r));
  c.attn_mask_spec.probability = 0.0;
  for (std::int64_t k = 0; k < 96; ++k) EXPECT_EQ(make_attn_mask(c)->value(k), 0.0);
}

TEST(GenAttnMask, CustomCells) {
  Config c = sized(3, 4, MaskKind::custom);
  c.batch_size = 2;
  auto& m = c.attn_mask_spec;
  m.cells = {MaskCell{0, 1, -1, std::nullopt}, MaskCell{2, 3, -1, 2.5}, MaskCell{1, 0, -1, 0.0}};
  Tensor t = *make_attn_mask(c);  // bool: listed cells masked unless their value is 0
  EXPECT_EQ(t.type(), ElemType::boolean);
  EXPECT_EQ(t.value(1), 1.0);
  EXPECT_EQ(t.value(11), 1.0);
  EXPECT_EQ(t.value(4), 0.0);
  m.dtype = MaskDType::floating;
  t = *make_attn_mask(c);
  EXPECT_EQ(t.value(1), -kInf);
  EXPECT_EQ(t.value(11), 2.5);
  EXPECT_EQ(t.value(4), 0.0);
  // Per-block cells in a 3-D mask; a later cell overrides an earlier one.
  m.shape = MaskShape::three_d;
  m.cells = {MaskCell{0, 0, 3, -7.0}, MaskCell{1, 1, -1, 1.0}, MaskCell{1, 1, 2, 4.0}};
  t = *make_attn_mask(c);
  ASSERT_EQ(t.shape(), (Shape{4, 3, 4}));
  for (std::int64_t b = 0; b < 4; ++b) {
    EXPECT_EQ(t.value(b * 12), b == 3 ? -7.0 : 0.0);
    EXPECT_EQ(t.value(b * 12 + 5), b == 2 ? 4.0 : 1.0);
  }
}

TEST(GenAttnMask, ErrorsNameTheKey) {
  Config c = sized(4, 4, MaskKind::alibi);
  expect_invalid([&] { (void)make_attn_mask(c); }, {"attn_mask.dtype", "float"});
  c.attn_mask_spec.dtype = MaskDType::floating;
  expect_invalid([&] { (void)make_attn_mask(c); }, {"attn_mask.shape", "3d"});
  c.attn_mask_spec.kind = MaskKind::window;
  c.attn_mask_spec.width = 0;
  expect_invalid([&] { (void)make_attn_mask(c); }, {"attn_mask.width", "at least 1"});
  c.attn_mask_spec.kind = MaskKind::random;
  c.attn_mask_spec.probability = 1.5;
  expect_invalid([&] { (void)make_attn_mask(c); }, {"attn_mask.probability", "1.5"});
  c.attn_mask_spec.kind = MaskKind::causal;
  c.attn_mask_spec.masked_value = kInf;
  expect_invalid([&] { (void)make_attn_mask(c); }, {"attn_mask.masked_value", "-inf or a finite"});
  c.attn_mask_spec.masked_value = -kInf;
  c.attn_mask_spec.kind = MaskKind::custom;
  c.attn_mask_spec.cells = {MaskCell{1, 4, -1, std::nullopt}};
  expect_invalid([&] { (void)make_attn_mask(c); }, {"attn_mask.cells[0]", "[1, 4]", "4x4"});
  c.attn_mask_spec.cells = {MaskCell{1, 1, 0, std::nullopt}};
  expect_invalid([&] { (void)make_attn_mask(c); }, {"attn_mask.cells[0]", "\"2d\""});
  c.attn_mask_spec.shape = MaskShape::three_d;
  c.attn_mask_spec.cells = {MaskCell{1, 1, 2, std::nullopt}};
  expect_invalid([&] { (void)make_attn_mask(c); }, {"b=2", "2 blocks"});
  c.attn_mask_spec.kind = MaskKind::graph;
  c.attn_mask_spec.edges = {{0, 4}};
  expect_invalid([&] { (void)make_attn_mask(c); }, {"attn_mask.edges[0]", "0..3"});
  c.attn_mask_spec.kind = MaskKind::block;
  c.attn_mask_spec.segments = {2, 0};
  expect_invalid([&] { (void)make_attn_mask(c); }, {"attn_mask.segments[1]"});
}

TEST(GenKeyPadding, LengthsMatchTorch) {
  Config c;
  c.batch_size = 3;
  c.src_len = 6;
  c.key_padding_spec.kind = PaddingKind::lengths;
  c.key_padding_spec.valid_lengths = {5, 3, 0};
  EXPECT_TRUE(same_tensor(*make_key_padding_mask(c), mask_fixture("padding").at("lengths_5_3_0")));
  c.key_padding_spec.dtype = MaskDType::floating;
  c.key_padding_spec.masked_value = -100.0;
  const Tensor f = *make_key_padding_mask(c);
  EXPECT_EQ(f.type(), ElemType::f32);
  EXPECT_EQ(f.value(4), 0.0);
  EXPECT_EQ(f.value(5), -100.0);
}

TEST(GenKeyPadding, ExplicitKeysAndUnbatched) {
  Config c;
  c.batch_size = std::nullopt;
  c.src_len = 4;
  c.key_padding_spec.kind = PaddingKind::keys;
  c.key_padding_spec.padded_keys = {{0, 2}};
  const Tensor t = *make_key_padding_mask(c);
  EXPECT_TRUE(same_tensor(t, Tensor::from_bools({4}, {1, 0, 1, 0})));
  EXPECT_FALSE(make_key_padding_mask(Config{}).has_value());
}

TEST(GenKeyPadding, ErrorsNameTheKey) {
  Config c;
  c.batch_size = 3;
  c.src_len = 6;
  c.key_padding_spec.kind = PaddingKind::lengths;
  c.key_padding_spec.valid_lengths = {5, 3};
  expect_invalid([&] { (void)make_key_padding_mask(c); },
                 {"key_padding_mask.valid_lengths has 2 entries", "batch_size=3"});
  c.key_padding_spec.valid_lengths = {5, 3, 7};
  expect_invalid([&] { (void)make_key_padding_mask(c); },
                 {"key_padding_mask.valid_lengths[2] = 7", "src_len=6"});
  c.batch_size = std::nullopt;
  c.key_padding_spec.valid_lengths = {1, 2};
  expect_invalid([&] { (void)make_key_padding_mask(c); }, {"unbatched", "exactly 1"});
  c.key_padding_spec.kind = PaddingKind::keys;
  c.key_padding_spec.padded_keys = {{6}};
  expect_invalid([&] { (void)make_key_padding_mask(c); },
                 {"key_padding_mask.padded_keys[0]", "key 6"});
}
