// Configuration-file keys of the generation settings: reading, exact round trip, messages.
#include <gtest/gtest.h>

#include <limits>

#include "gen_test_util.hpp"
#include "mhaviz/core/io/config_json.hpp"

using mhaviz::Config;
using mhaviz::gen::GraphBias;
using mhaviz::gen::InputKind;
using mhaviz::gen::MaskCell;
using mhaviz::gen::MaskDType;
using mhaviz::gen::MaskKind;
using mhaviz::gen::MaskShape;
using mhaviz::gen::PaddingKind;
using mhaviz::gen::WeightKind;
using mhaviz::io::config_to_json;
using mhaviz::io::parse_config_json;
using mhaviz::test::expect_invalid;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Config parse(const std::string& text) { return parse_config_json(text, "config.json"); }

void expect_config_error(const std::string& text, const std::vector<std::string>& parts) {
  expect_invalid([&] { (void)parse(text); }, parts);
}

}  // namespace

TEST(GenJson, DefaultsAreNoMasksRandomInputsDefaultWeights) {
  const Config c = parse("{}");
  EXPECT_EQ(c.attn_mask_spec.kind, MaskKind::none);
  EXPECT_EQ(c.key_padding_spec.kind, PaddingKind::none);
  EXPECT_EQ(c.input_spec.kind, InputKind::random);
  EXPECT_EQ(c.weight_spec.kind, WeightKind::default_init);
  EXPECT_TRUE(c.query_labels.empty());
  const std::string text = config_to_json(Config{});
  EXPECT_NE(text.find(R"("attn_mask": {
    "kind": "none",
    "dtype": "bool",
    "shape": "2d"
  })"),
            std::string::npos)
      << text;
}

TEST(GenJson, SuggestedFormsAreRead) {
  const Config c = parse(R"({
    "tgt_len": 3, "src_len": 4, "batch_size": 2,
    "attn_mask": {"kind": "causal", "dtype": "float", "shape": "3d", "masked_value": -10000},
    "key_padding_mask": {"valid_lengths": [4, 2], "dtype": "bool"},
    "inputs": {"kind": "sinusoidal", "scale": 2, "content_scale": 0.1, "self_attention": false},
    "weights": {"kind": "identity", "scale": 0.5},
    "query_labels": ["the", "cat", "sat"], "key_labels": ["a", "b", "c", "d"]})");
  EXPECT_EQ(c.attn_mask_spec.kind, MaskKind::causal);
  EXPECT_EQ(c.attn_mask_spec.dtype, MaskDType::floating);
  EXPECT_EQ(c.attn_mask_spec.shape, MaskShape::three_d);
  EXPECT_EQ(c.attn_mask_spec.masked_value, -1e4);
  EXPECT_EQ(c.key_padding_spec.kind, PaddingKind::lengths);
  EXPECT_EQ(c.key_padding_spec.valid_lengths, (std::vector<std::int64_t>{4, 2}));
  EXPECT_EQ(c.input_spec.kind, InputKind::sinusoidal);
  EXPECT_EQ(c.input_spec.scale, 2.0);
  EXPECT_EQ(c.input_spec.content_scale, 0.1);
  EXPECT_EQ(c.weight_spec.kind, WeightKind::identity);
  EXPECT_EQ(c.weight_spec.scale, 0.5);
  EXPECT_EQ(c.query_labels, (std::vector<std::string>{"the", "cat", "sat"}));
  EXPECT_EQ(c.key_labels.size(), 4U);
  EXPECT_EQ(parse(R"({"key_padding_mask": {"padded_keys": [[0, 3]]}})").key_padding_spec.kind,
            PaddingKind::keys);
}

TEST(GenJson, CellsAndGridForms) {
  Config c = parse(R"({"attn_mask": {"kind": "custom", "dtype": "float",
    "cells": [[0, 1], [1, 2, -3.5], {"b": 2, "i": 0, "j": 0, "value": "-inf"}]}})");
  EXPECT_EQ(c.attn_mask_spec.cells,
            (std::vector<MaskCell>{MaskCell{0, 1, -1, std::nullopt}, MaskCell{1, 2, -1, -3.5},
                                   MaskCell{0, 0, 2, -kInf}}));
  c = parse(R"({"attn_mask": {"kind": "custom", "grid": [[0, 1, "-inf"], [true, false, 2]],
                              "dtype": "float"}})");
  EXPECT_EQ(c.attn_mask_spec.cells,
            (std::vector<MaskCell>{MaskCell{0, 1, -1, 1.0}, MaskCell{0, 2, -1, -kInf},
                                   MaskCell{1, 0, -1, std::nullopt}, MaskCell{1, 2, -1, 2.0}}));
  c = parse(R"({"attn_mask": {"kind": "custom", "grid": [[[0, 1]], [[1, 0]]]}})");
  EXPECT_EQ(c.attn_mask_spec.cells, (std::vector<MaskCell>{MaskCell{0, 1, 0, std::nullopt},
                                                           MaskCell{0, 0, 1, std::nullopt}}));
}

TEST(GenJson, RoundTripIsExact) {
  Config c;
  c.tgt_len = 5;
  c.src_len = 6;
  auto& m = c.attn_mask_spec;
  m.kind = MaskKind::graph;
  m.dtype = MaskDType::floating;
  m.shape = MaskShape::three_d;
  m.masked_value = -12345.678901234567;
  m.width = 7;  // not used by graph: written because it differs from the default
  m.segments = {1, 2, 3};
  m.probability = 0.1;
  m.seed = 18446744073709551615ULL;
  m.causal = true;
  m.cells = {MaskCell{0, 1, -1, std::nullopt}, MaskCell{2, 3, 4, 0.1}, MaskCell{1, 1, -1, -kInf}};
  m.edges = {{0, 1}, {3, 2}};
  m.edge_probability = 0.3;
  m.graph_bias = GraphBias::table;
  m.max_distance = 2;
  m.table_scale = 0.7;
  c.key_padding_spec = {PaddingKind::keys, {3, 0}, {{1, 2}, {}}, MaskDType::floating, -1e9};
  c.input_spec = {InputKind::one_hot, 1.0 / 3.0, 0.25, true};
  c.weight_spec = {WeightKind::identity, 2.5};
  c.query_labels = {"a", "b\"q", "ü", "", "e"};
  c.key_labels = {"1", "2", "3", "4", "5", "6"};
  const std::string text = config_to_json(c);
  const Config back = parse(text);
  EXPECT_EQ(back, c) << text;
  EXPECT_EQ(config_to_json(back), text);
  // Every kind with its defaults round-trips too.
  for (const MaskKind kind : mhaviz::gen::kMaskKinds) {
    Config k;
    k.attn_mask_spec.kind = kind;
    EXPECT_EQ(parse(config_to_json(k)), k) << to_string(kind);
  }
  for (const PaddingKind kind : mhaviz::gen::kPaddingKinds) {
    Config k;
    k.key_padding_spec.kind = kind;
    EXPECT_EQ(parse(config_to_json(k)), k) << to_string(kind);
  }
}

TEST(GenJson, RepeatedNestedKeysAreErrors) {
  expect_config_error(R"({"attn_mask": {"kind": "causal", "dtype": "bool", "kind": "band"}})",
                      {"key \"kind\" appears twice in \"attn_mask\""});
  expect_config_error(R"({"attn_mask": {"cells": [{"i": 0, "j": 1, "i": 2}]}})",
                      {"key \"i\" appears twice"});
  // The same key in sibling objects is fine.
  EXPECT_EQ(parse(R"({"attn_mask": {"cells": [{"i": 0, "j": 1}, {"i": 2, "j": 3}]},
                      "inputs": {"kind": "random"}, "weights": {"kind": "default"}})")
                .attn_mask_spec.cells.size(),
            2U);
}

TEST(GenJson, ErrorsNameTheFullKeyPath) {
  expect_config_error(R"({"attn_mask": {"kind": "diagonal"}})",
                      {"config.json", "\"attn_mask.kind\"", "one of \"none\", \"causal\"",
                       "\"graph\"", "string \"diagonal\""});
  expect_config_error(R"({"attn_mask": {"widht": 3}})",
                      {"unknown key \"attn_mask.widht\"", "did you mean \"attn_mask.width\""});
  expect_config_error(R"({"attn_mask": {"zzzzzzzz": 3}})", {"the keys of \"attn_mask\" are"});
  expect_config_error(R"({"attn_mask": "causal"})", {"\"attn_mask\" must be an object"});
  expect_config_error(R"({"attn_mask": {"width": 2.5}})",
                      {"\"attn_mask.width\" must be an integer"});
  expect_config_error(R"({"attn_mask": {"masked_value": "-infinity"}})",
                      {"\"attn_mask.masked_value\"", "\"-inf\""});
  expect_config_error(R"({"attn_mask": {"cells": [[0, 1], [2]]}})",
                      {"\"attn_mask.cells[1]\"", "[i, j] or [i, j, value]"});
  expect_config_error(R"({"attn_mask": {"cells": [{"i": 0}]}})",
                      {"\"attn_mask.cells[0]\"", "needs both"});
  expect_config_error(R"({"attn_mask": {"cells": [{"i": 0, "j": 1, "h": 1}]}})",
                      {"unknown key \"attn_mask.cells[0].h\""});
  expect_config_error(R"({"attn_mask": {"edges": [[0, 1, 2]]}})",
                      {"\"attn_mask.edges[0]\"", "[u, v]"});
  expect_config_error(R"({"attn_mask": {"grid": [[0, "x"]]}})", {"\"attn_mask.grid[0][1]\""});
  expect_config_error(R"({"attn_mask": {"seed": -1}})", {"\"attn_mask.seed\"", "non-negative"});
  expect_config_error(R"({"key_padding_mask": {"valid_lengths": [1, "2"]}})",
                      {"\"key_padding_mask.valid_lengths[1]\"", "an integer"});
  expect_config_error(R"({"key_padding_mask": {"valid_lengths": [1], "padded_keys": [[0]]}})",
                      {"both", "\"kind\""});
  expect_config_error(R"({"key_padding_mask": {"dtype": "float32"}})",
                      {"\"key_padding_mask.dtype\"", "one of \"bool\", \"float\""});
  expect_config_error(R"({"inputs": {"kind": "onehot"}})", {"\"inputs.kind\"", "\"one_hot\""});
  expect_config_error(R"({"inputs": {"self_attention": 1}})",
                      {"\"inputs.self_attention\" must be true or false"});
  expect_config_error(R"({"weights": {"kind": "xavier"}})",
                      {"\"weights.kind\"", "one of \"default\", \"identity\""});
  expect_config_error(R"({"query_labels": ["a", 2]})", {"\"query_labels[1]\"", "a string"});
  expect_config_error(R"({"attn_mask": {}, "atn_mask": {}})", {"did you mean \"attn_mask\""});
}
