// Weights-only models (mhaviz/core/model/weights_only.hpp): the weights of the captured test
// models (tests/fixtures/models), stored as plain arrays or as a version-4 model file, give the
// same weights, rollout, flow and sink scores as the models recomputed from their inputs; and
// the bad inputs of docs/bad-input.md (rows weights-*) are refused with the fix, or warned.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/model/model.hpp"
#include "mhaviz/core/model/weights_only.hpp"
#include "test_util.hpp"

namespace mhaviz {
namespace {

namespace fs = std::filesystem;
using test::expect_invalid;
using test::same;
using WeightsFiles = test::TempDirTest;

const fs::path kModels = fs::path(MHAVIZ_FIXTURE_DIR) / "models";

/// A softmax-like (rows sum to 1) tensor of the given shape, from a simple deterministic pattern.
Tensor rows_of_ones(const Shape& shape) {
  const std::int64_t S = shape.back();
  std::vector<float> v(static_cast<std::size_t>(numel(shape)));
  for (std::size_t i = 0; i < v.size(); i += static_cast<std::size_t>(S)) {
    double sum = 0;
    for (std::int64_t k = 0; k < S; ++k) sum += 1.0 + double((i / S + k * 7) % 5);
    for (std::int64_t k = 0; k < S; ++k)
      v[i + k] = static_cast<float>((1.0 + double((i / S + k * 7) % 5)) / sum);
  }
  return Tensor::from(shape, std::move(v));
}

std::vector<std::string> words(std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(std::string("w").append(std::to_string(i)));
  return out;
}

TEST_F(WeightsFiles, CapturedWeightsGiveTheRecomputedModelsViews) {
  // The encoder fixture: 4 self-attention layers; its recomputed weights saved as plain arrays.
  const model::Model captured = model::read_model(kModels / "encoder.json");
  const model::ComputedModel computed = model::compute_model(captured);
  io::TensorMap arrays;
  for (std::size_t i = 0; i < computed.weights.size(); ++i)
    arrays.emplace(std::string("attentions.").append(std::to_string(i)), computed.weights[i]);
  io::write_npz(dir_ / "w.npz", arrays);
  const model::Model weights = model::read_weights_file(dir_ / "w.npz", {});
  EXPECT_TRUE(weights.index.weights_only);
  EXPECT_TRUE(weights.warnings.empty());
  ASSERT_EQ(weights.layers.size(), captured.layers.size());
  const model::ComputedModel stored = model::compute_model(weights);
  for (std::size_t i = 0; i < stored.weights.size(); ++i) {
    EXPECT_TRUE(same(stored.weights[i], computed.weights[i])) << "layer " << i;
    EXPECT_FALSE(stored.checks[i].checked);
    EXPECT_EQ(stored.sinks[i].score, computed.sinks[i].score) << "layer " << i;
  }
  const model::Rollout a = model::attention_rollout(captured, computed.weights);
  const model::Rollout b = model::attention_rollout(weights, stored.weights);
  EXPECT_EQ(a.map, b.map);
  const model::AttentionFlow fa = model::attention_flow(captured, computed.weights);
  const model::AttentionFlow fb = model::attention_flow(weights, stored.weights);
  EXPECT_EQ(fa.map, fb.map);
  // The head measures that need only the weights are the recomputed pass's; the ablation,
  // which needs the outputs, is not available (NaN).
  const model::Layer& layer = captured.layers[1];
  const ForwardResult pass =
      forward(layer.problem.config, layer.problem.params, layer.problem.inputs);
  const HeadMeasures full = head_measures(pass, layer.problem.inputs);
  const HeadMeasures only = head_measures(model::weights_result(weights.layers[1]), Inputs{});
  EXPECT_EQ(only.entropy, full.entropy);
  EXPECT_EQ(only.confidence, full.confidence);
  EXPECT_EQ(only.first_key, full.first_key);
  EXPECT_TRUE(std::all_of(only.ablation.begin(), only.ablation.end(),
                          [](double v) { return std::isnan(v); }));
  EXPECT_TRUE(std::none_of(full.ablation.begin(), full.ablation.end(),
                           [](double v) { return std::isnan(v); }));
}

TEST_F(WeightsFiles, AnyModelFileIsReadByItsSuffix) {
  // A .json in any case is an index; anything else is plain arrays, read with the options.
  EXPECT_TRUE(model::names_model_index("m.json"));
  EXPECT_TRUE(model::names_model_index("dir.npz/M.JSON"));
  EXPECT_FALSE(model::names_model_index("m.npz"));
  EXPECT_FALSE(model::names_model_index("m.json.npz"));
  EXPECT_FALSE(model::names_model_index("json"));
  const model::Model index = model::read_any_model(kModels / "encoder.json", {});
  EXPECT_FALSE(index.index.weights_only);
  EXPECT_EQ(index.layers.size(), 4u);
  io::write_npz(dir_ / "w.npz", {{"attentions.0", rows_of_ones({1, 2, 3, 3})}});
  model::WeightsFileOptions options;
  options.tokens = words(3);
  const model::Model weights = model::read_any_model(dir_ / "w.npz", options);
  EXPECT_TRUE(weights.index.weights_only);
  EXPECT_EQ(weights.index.tokens, options.tokens);
  // The memory limit reaches either reader.
  expect_invalid([&] { (void)model::read_any_model(dir_ / "w.npz", {}, 16); }, {"memory limit"});
  expect_invalid([&] { (void)model::read_any_model(kModels / "encoder.json", {}, 16); },
                 {"memory limit"});
}

TEST_F(WeightsFiles, VersionFourFileKeepsGroupsTokensAndKeyValueHeads) {
  // The decoder fixture's self- and cross-attention as an encoder-decoder without parameters.
  const model::Model captured = model::read_model(kModels / "decoder.json");
  const model::ComputedModel computed = model::compute_model(captured);
  nlohmann::json index = {{"format", "mhaviz-model"}, {"version", 4}, {"tensors", "d.npz"},
                          {"tokens", words(6)},       {"target_tokens", words(5)},
                          {"num_key_value_heads", 1}, {"layers", nlohmann::json::array()}};
  io::TensorMap tensors;
  for (std::size_t i = 0; i < captured.layers.size(); ++i) {
    const Tensor& w = computed.weights[i];
    const bool cross = !captured.layers[i].info.self_attention;
    index["layers"].push_back({{"name", captured.layers[i].info.name},
                               {"group", cross ? "cross" : "decoder"},
                               {"shape", w.shape()}});
    tensors.emplace(std::to_string(i) + "/weights", w);
  }
  index["layers"][0]["num_key_value_heads"] = 2;
  std::ofstream(dir_ / "d.json") << index.dump();
  io::write_npz(dir_ / "d.npz", tensors);
  const model::Model m = model::read_model(dir_ / "d.json");
  ASSERT_EQ(m.layers.size(), 4u);
  EXPECT_EQ(m.layers[0].info.kv_heads, 2);
  EXPECT_EQ(m.layers[1].info.kv_heads, 1);
  EXPECT_FALSE(m.layers[1].info.self_attention);
  EXPECT_EQ(m.layers[1].info.config.query_labels, words(5));  // decoder tokens
  EXPECT_EQ(m.layers[1].info.config.key_labels, words(6));    // encoder tokens
  EXPECT_EQ(m.layers[0].info.config.key_labels, words(5));
  const model::ComputedModel stored = model::compute_model(m);
  EXPECT_TRUE(same(stored.weights[1], computed.weights[1]));
  EXPECT_EQ(model::attention_rollout(m, stored.weights).map,
            model::attention_rollout(captured, computed.weights).map);
  // The layer as a result of the weights stage: what the token views and the grid draw.
  const ForwardResult r = model::weights_result(m.layers[1]);
  EXPECT_EQ(r.L, 5);
  EXPECT_EQ(r.S, 6);
  EXPECT_FALSE(r.is_reduced());  // drawn on the fixed 0..1 scale of a pass's weights
  EXPECT_TRUE(r.is_stored_weights());  // no mask known: the grid's legend claims none
  EXPECT_TRUE(same(r.weights, computed.weights[1]));
}

TEST_F(WeightsFiles, StackedArraysAndHuggingFaceNamesFormGroups) {
  io::TensorMap arrays;
  arrays.emplace("encoder_attentions", rows_of_ones({3, 2, 4, 4}));       // stacked, rank 4
  arrays.emplace("decoder_attentions.1", rows_of_ones({1, 2, 3, 3}));
  arrays.emplace("decoder_attentions.0", rows_of_ones({1, 2, 3, 3}));
  arrays.emplace("cross_attentions.0", rows_of_ones({1, 2, 3, 4}));
  io::write_npz(dir_ / "hf.npz", arrays);
  model::WeightsFileOptions options;
  options.tokens = words(4);
  options.target_tokens = words(3);
  const model::Model m = model::read_weights_file(dir_ / "hf.npz", options);
  ASSERT_EQ(m.layers.size(), 6u);
  EXPECT_EQ(m.layers[0].info.name, "encoder_attentions.0");
  EXPECT_EQ(m.layers[2].info.group, "encoder");
  EXPECT_EQ(m.layers[3].info.name, "decoder_attentions.0");
  EXPECT_EQ(m.layers[5].info.group, "cross");
  EXPECT_FALSE(m.layers[5].info.self_attention);
  const model::ComputedModel c = model::compute_model(m);
  EXPECT_EQ(model::attention_rollout(m, c.weights).layers, (std::vector<std::size_t>{0, 1, 2}));
}

TEST_F(WeightsFiles, RowsThatDoNotSumToOneAreWarnedNotRenormalised) {
  Tensor w = rows_of_ones({1, 2, 3, 3});
  w.data<float>()[0] *= 0.5F;  // dropout-like
  io::write_npz(dir_ / "w.npz", {{"attentions.0", w}});
  const model::Model m = model::read_weights_file(dir_ / "w.npz", {});
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].find("1 of 6 rows do not sum to 1"), std::string::npos) << m.warnings[0];
  EXPECT_NE(m.warnings[0].find("not renormalised"), std::string::npos);
  EXPECT_TRUE(same(*m.layers[0].torch_weights, w));
}

TEST_F(WeightsFiles, BadWeightsAreRefusedWithTheFix) {
  const auto read = [&](const io::TensorMap& arrays, model::WeightsFileOptions options = {}) {
    io::write_npz(dir_ / "bad.npz", arrays);
    return [&, options] { (void)model::read_weights_file(dir_ / "bad.npz", options); };
  };
  expect_invalid(read({{"a", rows_of_ones({4, 4})}}), {"bad.npz", "has rank 2", "(heads, queries, keys)"});
  Tensor nan = rows_of_ones({2, 3, 3});
  nan.data<float>()[4] = std::numeric_limits<float>::quiet_NaN();
  expect_invalid(read({{"a", nan}}), {"member \"a\"", "head 0, query 1, key 1", "must be finite"});
  Tensor negative = rows_of_ones({2, 3, 3});
  negative.data<float>()[10] = -0.25F;
  expect_invalid(read({{"a", negative}}), {"head 1", "at least 0", "before the softmax"});
  expect_invalid(read({{"attentions.0", rows_of_ones({1, 2, 3, 3})},
                       {"attentions.1", rows_of_ones({1, 4, 3, 3})}}),
                 {"attentions.1", "4 heads", "ragged layers"});
  model::WeightsFileOptions tokens;
  tokens.tokens = words(5);
  expect_invalid(read({{"attentions.0", rows_of_ones({2, 3, 3})}}, tokens),
                 {"3 queries but 5 tokens were given"});
  tokens.tokens = words(1);  // e.g. a tokens file with every token on its first line
  expect_invalid(read({{"attentions.0", rows_of_ones({2, 3, 3})}}, tokens),
                 {"3 queries but 1 token was given"});
  model::WeightsFileOptions kv;
  kv.kv_heads = 3;
  expect_invalid(read({{"attentions.0", rows_of_ones({4, 3, 3})}}, kv),
                 {"num_key_value_heads=3 does not divide its 4 heads"});
  expect_invalid(read({{"attentions", rows_of_ones({1025, 1, 1, 1})}}),
                 {"stacks 1025 layers", "at most 1024"});
  expect_invalid(read({{"mask", Tensor::from_bools({1, 2, 2}, {1, 0, 0, 1})}}),
                 {"holds bool", "float32 or float64"});
  expect_invalid(read({}), {"holds no arrays"});
  // Huge L: refused by the memory limit before the layers are kept.
  io::write_npz(dir_ / "big.npz", {{"attentions.0", rows_of_ones({1, 64, 64})}});
  expect_invalid([&] { (void)model::read_weights_file(dir_ / "big.npz", {}, 4096); },
                 {"memory limit"});
}

TEST_F(WeightsFiles, BadVersionFourIndexIsRefusedWithTheFix) {
  io::write_npz(dir_ / "t.npz", {{"0/weights", rows_of_ones({1, 2, 3, 3})}});
  const auto index = [&](const nlohmann::json& layer) {
    nlohmann::json doc = {{"format", "mhaviz-model"}, {"version", 4}, {"tensors", "t.npz"},
                          {"layers", {layer}}};
    std::ofstream(dir_ / "t.json") << doc.dump();
    return [&] { (void)model::read_model(dir_ / "t.json"); };
  };
  expect_invalid(index({{"name", "a"}}), {"key \"shape\"", "save_attentions"});
  expect_invalid(index({{"name", "a"}, {"shape", {1, 2, 4, 3}}}),
                 {"has shape (1, 2, 3, 3) but the index says (1, 2, 4, 3)"});
  expect_invalid(index({{"name", "a"}, {"shape", {1, 2, 3, 3}}, {"group", "middle"}}),
                 {"\"group\" must be"});
  expect_invalid(index({{"name", "a"}, {"shape", {1, 2, 3, 3}}, {"query_tokens", {"x"}}}),
                 {"3 queries but 1 token of its own"});
  expect_invalid(index({{"name", "a"}, {"shape", {1, 1 << 20, 1 << 12, 1 << 12}}}),
                 {"memory limit"});
  (void)index({{"name", "a"}, {"shape", {1, 2, 3, 3}}});
  EXPECT_EQ(model::read_model(dir_ / "t.json").layers.size(), 1u);
}

TEST_F(WeightsFiles, GenerationStepsLabelTheWholeSequence) {
  // A generation with a KV cache as Hugging Face's generate() returns it: step 0 reads the
  // 3-token prompt, step 1 one new token against 4 keys.
  nlohmann::json index = {{"format", "mhaviz-model"}, {"version", 4}, {"tensors", "g.npz"},
                          {"steps", 2}, {"tokens", {"a", "b", "c", "d", "e"}},
                          {"layers",
                           {{{"name", "attentions.0"}, {"step", 0}, {"shape", {1, 2, 3, 3}}},
                            {{"name", "attentions.0"}, {"step", 1}, {"shape", {1, 2, 1, 4}}}}}};
  std::ofstream(dir_ / "g.json") << index.dump();
  io::write_npz(dir_ / "g.npz", {{"0/weights", rows_of_ones({1, 2, 3, 3})},
                                 {"1/weights", rows_of_ones({1, 2, 1, 4})}});
  const model::Model m = model::read_model(dir_ / "g.json");
  EXPECT_EQ(m.layers[0].info.config.query_labels, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(m.layers[1].info.config.key_labels, (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(m.layers[1].info.config.query_labels, std::vector<std::string>{"d"});
  const model::ComputedModel c = model::compute_model(m);
  const model::StepRows rows = model::step_rows(m, c.weights, 1);
  EXPECT_EQ(rows.query, "d");
  EXPECT_EQ(rows.generated, "e");
  ASSERT_EQ(rows.layers.size(), 1u);
  EXPECT_EQ(rows.layers[0].weights.size(), 2u * 4u);
  // More keys than tokens: the tokens must label the whole sequence.
  index["tokens"] = {"a", "b", "c"};
  std::ofstream(dir_ / "g.json") << index.dump();
  expect_invalid([&] { (void)model::read_model(dir_ / "g.json"); },
                 {"sees 4 keys but 3 tokens were given", "whole sequence"});
}

TEST_F(WeightsFiles, DifferenceOfTwoModelsPerLayerAndHead) {
  const Tensor a0 = rows_of_ones({1, 2, 3, 3});
  Tensor b0 = a0;
  b0.data<float>()[9 + 4] += 0.25F;  // head 1, query 1, key 1
  io::write_npz(dir_ / "a.npz", {{"attentions.0", a0}, {"attentions.1", a0}});
  io::write_npz(dir_ / "b.npz", {{"attentions.0", a0}, {"attentions.1", b0}});
  const model::Model a = model::read_weights_file(dir_ / "a.npz", {});
  const model::Model b = model::read_weights_file(dir_ / "b.npz", {});
  const model::ComputedModel ca = model::compute_model(a), cb = model::compute_model(b);
  const model::WeightsDifference d =
      model::weights_difference(a, ca.weights, b, cb.weights, 0, "--compare-with a.npz");
  EXPECT_EQ(d.largest[0], (std::vector<double>{0.0, 0.0}));
  EXPECT_EQ(d.largest[1][0], 0.0);
  EXPECT_NEAR(d.largest[1][1], 0.25, 1e-7);
  EXPECT_NEAR(d.mean[1][1], 0.25 / 9, 1e-7);
  EXPECT_EQ(d.worst_layer, 1u);
  EXPECT_EQ(d.worst_head, 1);
  io::write_npz(dir_ / "c.npz", {{"attentions.0", a0}, {"attentions.1", rows_of_ones({1, 2, 3, 4})}});
  const model::Model c = model::read_weights_file(dir_ / "c.npz", {});
  const model::ComputedModel cc = model::compute_model(c);
  expect_invalid([&] { (void)model::weights_difference(a, ca.weights, c, cc.weights, 0, "--compare-with a.npz"); },
                 {"--compare-with a.npz", "layer 1 (attentions.1) has shape (1, 2, 3, 3)",
                  "(1, 2, 3, 4)", "same layers, heads and lengths"});
  expect_invalid([&] { (void)model::weights_difference(a, ca.weights, b, {cb.weights.data(), 1}, 0, "x"); },
                 {"2 layers", "compared with it 1"});
}

// A shape that differs says which part differs and the fix; a cancel flag stops it.
TEST_F(WeightsFiles, DifferenceNamesWhatDiffersInAShape) {
  const Tensor a0 = rows_of_ones({2, 2, 3, 3});
  io::write_npz(dir_ / "a.npz", {{"attentions.0", a0}});
  const model::Model a = model::read_weights_file(dir_ / "a.npz", {});
  const std::vector<Tensor> wa = model::compute_model(a).weights;
  const auto against = [&](const Tensor& t) {
    io::write_npz(dir_ / "b.npz", {{"attentions.0", t}});
    const model::Model b = model::read_weights_file(dir_ / "b.npz", {});
    const std::vector<Tensor> wb = model::compute_model(b).weights;
    return [a, wa, b, wb] { (void)model::weights_difference(a, wa, b, wb, 0, "A (a.json)"); };
  };
  expect_invalid(against(rows_of_ones({1, 2, 3, 3})),
                 {"A (a.json): layer 0 (attentions.0) has shape (2, 2, 3, 3)",
                  "batch elements differ (A: 2, B: 1)", "same batch"});
  expect_invalid(against(rows_of_ones({2, 4, 3, 3})),
                 {"heads differ (A: 2, B: 4)", "two runs of one model"});
  expect_invalid(against(rows_of_ones({2, 2, 3, 4})),
                 {"inputs differ in length (A: 3 queries and 3 keys, B: 3 queries and 4 keys)",
                  "two inputs of one length", "same layers, heads and lengths"});
  // The batch element asked for must exist; a float64 B is compared with a float32 A.
  io::write_npz(dir_ / "t.npz",
                {{"attentions.0", Tensor::from({2, 2, 3, 3}, std::vector<float>(36, 1.0F / 3.0F))}});
  const model::Model thirds = model::read_weights_file(dir_ / "t.npz", {});
  const std::vector<Tensor> wt = model::compute_model(thirds).weights;
  Tensor b64(ElemType::f64, {2, 2, 3, 3});
  for (std::int64_t i = 0; i < b64.numel(); ++i) b64.data<double>()[i] = 1.0 / 3.0;
  b64.data<double>()[18 + 9 + 1] = 0.5;  // batch 1, head 1, query 0, key 1
  io::write_npz(dir_ / "b.npz", {{"attentions.0", b64}});
  const model::Model b = model::read_weights_file(dir_ / "b.npz", {});
  const std::vector<Tensor> wb = model::compute_model(b).weights;
  const model::WeightsDifference d0 = model::weights_difference(thirds, wt, b, wb, 0, "A");
  EXPECT_LT(d0.worst, 1e-7);  // float32 thirds against float64 ones
  const model::WeightsDifference d1 = model::weights_difference(thirds, wt, b, wb, 1, "A");
  EXPECT_NEAR(d1.largest[0][1], 0.5 - 1.0 / 3.0, 1e-7);
  EXPECT_NEAR(d1.mean[0][1], (0.5 - 1.0 / 3.0) / 9, 1e-7);
  EXPECT_EQ(d1.largest[0][0], d0.largest[0][0]);
  EXPECT_EQ(d1.worst_head, 1);
  expect_invalid([&] { (void)model::weights_difference(thirds, wt, b, wb, 2, "A"); },
                 {"batch element 2 does not exist (2 batch elements)"});
  std::atomic<bool> stop{true};
  EXPECT_THROW((void)model::weights_difference(thirds, wt, b, wb, 0, "A", &stop), Cancelled);
}

// The notes of a comparison: tokens that differ where both have them, tokens on one side only,
// layers whose names differ; none for two runs of one model on one input.
TEST_F(WeightsFiles, ComparisonNotesNameTokensAndLayersThatDiffer) {
  const Tensor t = rows_of_ones({1, 2, 3, 3});
  io::write_npz(dir_ / "a.npz", {{"attentions.0", t}, {"attentions.1", t}});
  io::write_npz(dir_ / "e.npz", {{"attentions.0", t}, {"attentions.7", t}});
  model::WeightsFileOptions cat;
  cat.tokens = {"the", "cat", "sat"};
  model::WeightsFileOptions dog;
  dog.tokens = {"the", "dog", "ran"};
  const model::Model a = model::read_weights_file(dir_ / "a.npz", cat);
  EXPECT_TRUE(model::comparison_notes(a, model::read_weights_file(dir_ / "a.npz", cat)).empty());
  const std::vector<std::string> tokens =
      model::comparison_notes(a, model::read_weights_file(dir_ / "a.npz", dog));
  ASSERT_EQ(tokens.size(), 1U);
  EXPECT_EQ(tokens[0],
            "the tokens differ at 2 of 3 positions (first at position 1: \"cat\" in A, \"dog\" "
            "in B); the maps are compared position by position");
  const std::vector<std::string> none =
      model::comparison_notes(model::read_weights_file(dir_ / "a.npz", {}), a);
  ASSERT_EQ(none.size(), 1U);
  EXPECT_NE(none[0].find("A has no tokens (its positions are numbered) and B has 3"),
            std::string::npos);
  const std::vector<std::string> names =
      model::comparison_notes(a, model::read_weights_file(dir_ / "e.npz", cat));
  ASSERT_EQ(names.size(), 1U);
  EXPECT_NE(names[0].find("names differ at 1 of 2 layers (first: layer 1 is attentions.1 in A, "
                          "attentions.7 in B); layers are compared by position"),
            std::string::npos)
      << names[0];
}

}  // namespace
}  // namespace mhaviz
