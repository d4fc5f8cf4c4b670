// The attention patterns of current practice against masks and a forward pass built with
// PyTorch (tests/fixtures/masks/{patterns,block_sparsity,forward_softcap}.npz, made by
// tests/fixtures/make_pattern_fixtures.py): prefix-LM, document masking, dilated sliding window,
// attention sink + window, the block-sparsity summary and Gemma 2's soft-cap of the scores.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gen_test_util.hpp"
#include "mhaviz/core/analysis/block_sparsity.hpp"
#include "mhaviz/core/forward/derived_maps.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/gen/masks.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "mhaviz/core/plan/problem.hpp"
#include "mhaviz/core/spec/soft_cap.hpp"

using mhaviz::BlockSparsity;
using mhaviz::Config;
using mhaviz::ForwardResult;
using mhaviz::Problem;
using mhaviz::Tensor;
using mhaviz::gen::make_attn_mask;
using mhaviz::gen::MaskDType;
using mhaviz::gen::MaskKind;
using mhaviz::gen::MaskShape;
using mhaviz::gen::PaddingKind;
using mhaviz::io::TensorMap;
using mhaviz::test::expect_invalid;
using mhaviz::test::mask_fixture;
using mhaviz::test::same_tensor;

namespace {

Config sized(std::int64_t L, std::int64_t S, MaskKind kind) {
  Config c;
  c.num_heads = 1;  // one (L, S) map per batch element
  c.tgt_len = L;
  c.src_len = S;
  c.attn_mask_spec.kind = kind;
  return c;
}

ForwardResult run(const Config& c, const TensorMap& tensors = {}) {
  const Problem p = mhaviz::make_problem(c, tensors);
  return mhaviz::forward(p.config, p.params, p.inputs);
}

/// The (1, rows, cols) fixture flags of a 2-D mask's blocks against the summary's.
void expect_blocks(const BlockSparsity& s, const Tensor& want) {
  ASSERT_EQ(s.maps, want.size(0));
  ASSERT_EQ(s.rows, want.size(1));
  ASSERT_EQ(s.cols, want.size(2));
  std::int64_t full = 0;
  for (std::int64_t k = 0; k < want.numel(); ++k) {
    EXPECT_EQ(s.full[static_cast<std::size_t>(k)], want.value(k) != 0.0 ? 1 : 0) << "block " << k;
    full += want.value(k) != 0.0 ? 1 : 0;
  }
  EXPECT_EQ(s.fully_masked, full);
  EXPECT_DOUBLE_EQ(s.share(), static_cast<double>(full) / static_cast<double>(want.numel()));
}

}  // namespace

TEST(GenPatterns, PrefixLmMatchesTorch) {
  const auto fx = mask_fixture("patterns");
  Config c = sized(6, 8, MaskKind::prefix_lm);
  c.attn_mask_spec.prefix_length = 3;
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("prefix_6x8_p3")));
  c = sized(5, 5, MaskKind::prefix_lm);
  c.attn_mask_spec.prefix_length = 0;  // plain causal
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("prefix_5x5_p0")));
  c = sized(6, 6, MaskKind::prefix_lm);
  c.attn_mask_spec.dtype = MaskDType::floating;
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("prefix_float_6x6_p2")));
}

TEST(GenPatterns, DocumentMaskMatchesTorch) {
  const auto fx = mask_fixture("patterns");
  Config c = sized(9, 9, MaskKind::document);
  c.attn_mask_spec.document_lengths = {3, 2, 4};
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("document_9_3_2_4")));
  c.attn_mask_spec.causal = true;
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("document_causal_9_3_2_4")));
}

TEST(GenPatterns, DilatedWindowMatchesTorch) {
  const auto fx = mask_fixture("patterns");
  Config c = sized(10, 10, MaskKind::dilated);
  c.attn_mask_spec.width = 3;
  c.attn_mask_spec.dilation = 2;
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("dilated_10x10_w3_d2")));
  c = sized(10, 12, MaskKind::dilated);
  c.attn_mask_spec.width = 3;
  c.attn_mask_spec.dilation = 3;
  c.attn_mask_spec.causal = true;
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("dilated_causal_10x12_w3_d3")));
  // Per head: (N*H, L, S), the same pattern in every block.
  c = sized(8, 8, MaskKind::dilated);
  c.batch_size = 2;
  c.num_heads = 3;  // after sized(): six blocks
  c.embed_dim = 6;
  c.attn_mask_spec.shape = MaskShape::three_d;
  c.attn_mask_spec.width = 2;
  c.attn_mask_spec.dilation = 2;
  c.attn_mask_spec.causal = true;
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("dilated_3d_n2_h3_8x8_w2_d2")));
}

TEST(GenPatterns, SinkWindowMatchesTorch) {
  const auto fx = mask_fixture("patterns");
  Config c = sized(10, 10, MaskKind::sink);
  c.attn_mask_spec.sink_tokens = 2;
  c.attn_mask_spec.width = 3;
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("sink_10x10_k2_w3")));
  c = sized(8, 9, MaskKind::sink);
  c.attn_mask_spec.sink_tokens = 1;
  c.attn_mask_spec.width = 2;
  c.attn_mask_spec.dtype = MaskDType::floating;
  EXPECT_TRUE(same_tensor(*make_attn_mask(c), fx.at("sink_float_8x9_k1_w2")));
}

TEST(GenPatterns, ImpossibleSettingsNameTheKeyAndTheFix) {
  Config c = sized(6, 8, MaskKind::prefix_lm);
  c.attn_mask_spec.prefix_length = 7;
  expect_invalid([&] { (void)make_attn_mask(c); },
                 {"attn_mask.prefix_length = 7", "between 0 and 6"});
  c.attn_mask_spec.prefix_length = -1;
  expect_invalid([&] { (void)make_attn_mask(c); }, {"attn_mask.prefix_length = -1"});
  c = sized(9, 9, MaskKind::document);
  c.attn_mask_spec.document_lengths = {3, 2, 3};
  expect_invalid([&] { (void)make_attn_mask(c); },
                 {"attn_mask.document_lengths sum to 8", "add up to 9"});
  c.attn_mask_spec.document_lengths = {3, -2, 8};
  expect_invalid([&] { (void)make_attn_mask(c); }, {"attn_mask.document_lengths[1] = -2"});
  c.attn_mask_spec.document_lengths = {};
  expect_invalid([&] { (void)make_attn_mask(c); }, {"attn_mask.document_lengths is empty"});
  c = sized(9, 8, MaskKind::document);
  c.attn_mask_spec.document_lengths = {9};
  expect_invalid([&] { (void)make_attn_mask(c); }, {"tgt_len == src_len", "src_len=9"});
  c = sized(6, 6, MaskKind::dilated);
  c.attn_mask_spec.dilation = 0;
  expect_invalid([&] { (void)make_attn_mask(c); }, {"attn_mask.dilation must be at least 1"});
  c.attn_mask_spec.dilation = 2;
  c.attn_mask_spec.width = 0;
  expect_invalid([&] { (void)make_attn_mask(c); }, {"attn_mask.width must be at least 1"});
  c = sized(6, 6, MaskKind::sink);
  c.attn_mask_spec.sink_tokens = -1;
  expect_invalid([&] { (void)make_attn_mask(c); }, {"attn_mask.sink_tokens must be at least 0"});
}

TEST(GenPatterns, JsonKeysRoundTrip) {
  const Config c = mhaviz::io::parse_config_json(
      R"({"tgt_len": 9, "src_len": 9, "attn_logit_softcapping": 30,
          "attn_mask": {"kind": "document", "document_lengths": [4, 5], "causal": true}})",
      "test");
  EXPECT_EQ(c.attn_mask_spec.kind, MaskKind::document);
  EXPECT_EQ(c.attn_mask_spec.document_lengths, (std::vector<std::int64_t>{4, 5}));
  EXPECT_TRUE(c.attn_mask_spec.causal);
  ASSERT_TRUE(c.attn_logit_softcapping.has_value());
  EXPECT_EQ(*c.attn_logit_softcapping, 30.0);
  EXPECT_EQ(mhaviz::io::parse_config_json(mhaviz::io::config_to_json(c), "again"), c);
  for (const char* kind : {"prefix_lm", "dilated", "sink"}) {
    Config k = c;
    k.attn_mask_spec.kind = mhaviz::io::parse_config_json(
                                std::string(R"({"attn_mask": {"kind": ")") + kind + "\"}}", "kind")
                                .attn_mask_spec.kind;
    k.attn_mask_spec.prefix_length = 3;
    k.attn_mask_spec.dilation = 4;
    k.attn_mask_spec.sink_tokens = 1;
    EXPECT_EQ(mhaviz::io::parse_config_json(mhaviz::io::config_to_json(k), "again"), k) << kind;
  }
}

TEST(GenPatterns, BlockSparsityMatchesNumpy) {
  const auto fx = mask_fixture("block_sparsity");
  Config c = sized(300, 300, MaskKind::sink);
  c.attn_mask_spec.sink_tokens = 4;
  c.attn_mask_spec.width = 64;
  Problem p = mhaviz::make_problem(c, {});
  expect_blocks(mhaviz::block_sparsity(p.config, p.params, p.inputs, 64), fx.at("sink300_b64"));
  expect_blocks(mhaviz::block_sparsity(p.config, p.params, p.inputs, 128), fx.at("sink300_b128"));
  c = sized(300, 300, MaskKind::document);
  c.attn_mask_spec.document_lengths = {100, 120, 80};
  c.attn_mask_spec.causal = true;
  c.attn_mask_spec.dtype = MaskDType::floating;
  p = mhaviz::make_problem(c, {});
  expect_blocks(mhaviz::block_sparsity(p.config, p.params, p.inputs, 64), fx.at("doc300_b64"));
  // From a result's merged mask: the same blocks.
  const ForwardResult r = mhaviz::forward(p.config, p.params, p.inputs);
  expect_blocks(mhaviz::block_sparsity(r, 128), fx.at("doc300_b128"));
}

TEST(GenPatterns, BlockSparsityCountsAppendedColumnsAndPadding) {
  // add_zero_attn appends a key that is never masked: no block of its column is fully masked.
  Config c = sized(4, 4, MaskKind::causal);
  c.add_zero_attn = true;
  Problem p = mhaviz::make_problem(c, {});
  BlockSparsity s = mhaviz::block_sparsity(p.config, p.params, p.inputs, 2);
  EXPECT_EQ(s.cols, 3);          // S' = 5 columns: blocks of 2, 2, 1
  EXPECT_EQ(s.fully_masked, 1);  // only rows 0-1 x keys 2-3
  EXPECT_TRUE(s.is_full(0, 0, 1));
  // key_padding_mask: batch element 1 has only 1 valid key, so its keys 2..3 are all masked.
  c = sized(4, 4, MaskKind::none);
  c.batch_size = 2;
  c.key_padding_spec.kind = PaddingKind::lengths;
  c.key_padding_spec.valid_lengths = {4, 1};
  p = mhaviz::make_problem(c, {});
  s = mhaviz::block_sparsity(p.config, p.params, p.inputs, 2);
  EXPECT_EQ(s.maps, 2 * c.num_heads);
  EXPECT_EQ(s.fully_masked, 2 * c.num_heads);  // element 1: column block 1 in both row blocks
  EXPECT_FALSE(s.is_full(0, 0, 1));
  EXPECT_TRUE(s.is_full(c.num_heads, 1, 1));
  // From a result, whose merged mask is kept at its broadcast shape (N, 1, 1, S'): the same.
  const BlockSparsity from_result =
      mhaviz::block_sparsity(mhaviz::forward(p.config, p.params, p.inputs), 2);
  EXPECT_EQ(from_result.maps, s.maps);
  EXPECT_EQ(from_result.fully_masked, s.fully_masked);
  EXPECT_EQ(from_result.full, s.full);
}

TEST(GenPatterns, SoftCapForwardMatchesTorch) {
  TensorMap fx = mask_fixture("forward_softcap");
  const Tensor want_weights = fx.at("attn_output_weights");
  const Tensor want_output = fx.at("attn_output");
  const Tensor want_capped = fx.at("capped_scores");
  for (const char* name : {"attn_output_weights", "attn_output", "capped_scores"}) fx.erase(name);
  Config c;
  c.embed_dim = 12;
  c.num_heads = 3;
  c.batch_size = 2;
  c.tgt_len = 5;
  c.src_len = 7;
  c.add_bias_kv = true;
  c.add_zero_attn = true;
  c.average_attn_weights = false;
  c.attn_logit_softcapping = 2.0;
  c.attn_mask_spec.kind = MaskKind::prefix_lm;
  c.attn_mask_spec.prefix_length = 2;
  c.key_padding_spec.kind = PaddingKind::lengths;
  c.key_padding_spec.valid_lengths = {7, 5};
  const ForwardResult r = run(c, fx);
  ASSERT_TRUE(r.has_capped_scores());
  const Tensor capped = mhaviz::derived_all(r, mhaviz::DerivedMap::capped_scores);
  const Tensor raw = mhaviz::derived_all(r, mhaviz::DerivedMap::raw_scores);
  EXPECT_TRUE(same_tensor(capped, want_capped, 1e-5));
  EXPECT_TRUE(same_tensor(*r.attn_output_weights, want_weights, 1e-6));
  EXPECT_TRUE(same_tensor(r.attn_output, want_output, 1e-5));
  // The cap bounds the capped scores, and the raw scores are kept as they were.
  for (std::int64_t k = 0; k < capped.numel(); ++k) {
    EXPECT_LE(std::abs(capped.value(k)), 2.0);
    EXPECT_FLOAT_EQ(static_cast<float>(capped.value(k)),
                    mhaviz::soft_capped(static_cast<float>(raw.value(k)), 2.0F));
  }
  // Without the cap the same tensors give a different output (the cap mattered).
  c.attn_logit_softcapping.reset();
  const ForwardResult plain = run(c, fx);
  EXPECT_FALSE(plain.has_capped_scores());
  EXPECT_FALSE(same_tensor(plain.attn_output, want_output, 1e-3));
}

TEST(GenPatterns, SoftCapMustBePositive) {
  for (const double bad : {0.0, -1.0, std::numeric_limits<double>::infinity()}) {
    Config c;
    c.attn_logit_softcapping = bad;
    expect_invalid([&] { mhaviz::validate_config(c); },
                   {"attn_logit_softcapping must be a positive number", "null"});
  }
}
