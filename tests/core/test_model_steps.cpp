// Generation captures (mhaviz_capture.capture_generation(), format version 2 with "steps"):
// tests/fixtures/models/generation.json (a KV cache: steps after the first have query length 1)
// and generation_full.json (no cache: every step recomputes the sequence), both from
// make_model_fixtures.py; the newest position's weights of each step against PyTorch's own
// uncached run (generation.steps.npz); steps with rollout; and the bad steps of an index.

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/model/model.hpp"
#include "test_util.hpp"

namespace mhaviz {
namespace {

const std::filesystem::path kModels = std::filesystem::path(MHAVIZ_FIXTURE_DIR) / "models";

class GenerationFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(GenerationFixture, StepsAreReadAndEveryCallMatchesPyTorch) {
  const model::Model m = model::read_model(kModels / (GetParam() + ".json"));
  EXPECT_EQ(m.index.steps, 4);
  ASSERT_EQ(m.layers.size(), 8U);
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(m.layers[i].info.step, static_cast<std::int64_t>(i / 2));
    EXPECT_EQ(m.layers[i].info.name, "attn." + std::to_string(i % 2));
  }
  EXPECT_EQ(model::step_layers(m.index, 2), (std::vector<std::size_t>{4, 5}));
  EXPECT_EQ(model::layer_title(m.layers[5].info, 5), "layer 5 (attn.1, step 2)");
  const model::ComputedModel c = model::compute_model(m);
  EXPECT_EQ(c.disagreeing(), 0U);
  for (const model::LayerCheck& check : c.checks) ASSERT_TRUE(check.weights_diff.has_value());
}

// The newest position's weights of every step, with or without the cache, are the last query
// row of what PyTorch returned in its uncached run.
TEST_P(GenerationFixture, NewestRowsMatchPyTorchsUncachedRun) {
  const model::Model m = model::read_model(kModels / (GetParam() + ".json"));
  const model::ComputedModel c = model::compute_model(m);
  const io::TensorMap want = io::read_npz(kModels / "generation.steps.npz");
  for (std::int64_t t = 0; t < 4; ++t) {
    for (std::int64_t n = 0; n < 2; ++n) {
      const model::StepRows rows = model::step_rows(m, c.weights, t, n);
      EXPECT_EQ(rows.position, 3 + t);
      ASSERT_EQ(rows.layers.size(), 2U);
      for (std::size_t p = 0; p < 2; ++p) {
        const Tensor& w = want.at("step" + std::to_string(t) + ".layer" + std::to_string(p));
        const model::StepRows::Layer& row = rows.layers[p];  // (N, H, S_t)
        ASSERT_EQ(row.keys, w.size(2));
        ASSERT_EQ(row.heads, w.size(1));
        for (std::int64_t h = 0; h < row.heads; ++h) {
          for (std::int64_t k = 0; k < row.keys; ++k) {
            EXPECT_NEAR(row.weights[static_cast<std::size_t>(h * row.columns + k)],
                        w.value((n * row.heads + h) * row.keys + k), 1e-6)
                << "step " << t << " batch " << n << " layer " << p << " head " << h;
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Captured, GenerationFixture,
                         ::testing::Values("generation", "generation_full"));

TEST(GenerationSteps, LabelsNameTheNewestPositionAndTheTokenItGenerates) {
  const model::Model m = model::read_model(kModels / "generation.json");
  const model::ComputedModel c = model::compute_model(m);
  ASSERT_EQ(m.index.tokens.size(), 8U);
  const model::StepRows rows = model::step_rows(m, c.weights, 1);
  EXPECT_EQ(rows.query, m.index.tokens[4]);
  EXPECT_EQ(rows.generated, m.index.tokens[5]);
  EXPECT_EQ(m.layers[2].problem.config.tgt_len, 1);  // the cached step's one new row
  EXPECT_EQ(m.layers[2].problem.config.query_labels, std::vector<std::string>{m.index.tokens[4]});
  const model::StepRows last = model::step_rows(m, c.weights, 3);
  EXPECT_EQ(last.generated, m.index.tokens[7]);
  test::expect_invalid([&] { (void)model::step_rows(m, c.weights, 4, 0, "--step"); },
                       {"--step 4", "has 4 generation steps (0 to 3)"});
}

TEST(GenerationSteps, RolloutUsesOneStepsLayers) {
  const model::Model full = model::read_model(kModels / "generation_full.json");
  const model::ComputedModel cf = model::compute_model(full);
  const model::Rollout last = model::attention_rollout(full, cf.weights);
  EXPECT_EQ(last.layers, (std::vector<std::size_t>{6, 7}));
  EXPECT_EQ(last.tokens, 7);
  EXPECT_EQ(model::attention_rollout(full, cf.weights, 0, 1).tokens, 5);
  const model::AttentionFlow flow = model::attention_flow(full, cf.weights, 1, 2);
  EXPECT_EQ(flow.layers, (std::vector<std::size_t>{4, 5}));

  const model::Model cached = model::read_model(kModels / "generation.json");
  const model::ComputedModel cc = model::compute_model(cached);
  test::expect_invalid([&] { (void)model::attention_rollout(cached, cc.weights); },
                       {"step 3 has none", "step 0"});
  EXPECT_EQ(model::attention_rollout(cached, cc.weights, 0, 0).tokens, 4);
  // A model without steps has no step to choose.
  const model::Model encoder = model::read_model(kModels / "encoder.json");
  test::expect_invalid([&] { (void)model::step_layers(encoder.index, 0, "--step"); },
                       {"--step 0", "has no generation steps"});
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// parse_model_index of generation.json edited by `edit` must fail naming every part.
void expect_bad_steps(const std::function<void(nlohmann::json&)>& edit,
                      const std::vector<std::string>& parts) {
  nlohmann::json index = nlohmann::json::parse(read_text(kModels / "generation.json"));
  edit(index);
  test::expect_invalid([&] { (void)model::parse_model_index(index.dump(), "g.json"); }, parts);
}

TEST(GenerationSteps, BadStepsAreNamedWithTheFix) {
  expect_bad_steps([](nlohmann::json& j) { j["steps"] = 0; },
                   {"g.json: key \"steps\" is 0", "at least one step", "capture_generation()"});
  expect_bad_steps([](nlohmann::json& j) { j["steps"] = "four"; },
                   {"key \"steps\" must be the number of generation steps"});
  expect_bad_steps([](nlohmann::json& j) { j["layers"][3].erase("step"); },
                   {"layer 3 (attn.1)", "key \"step\" is missing", "0 to 3"});
  expect_bad_steps([](nlohmann::json& j) { j["layers"][7]["step"] = 4; },
                   {"layer 7 (attn.1, step 4)", "\"steps\": 4 (steps 0 to 3)"});
  expect_bad_steps([](nlohmann::json& j) { j["layers"][2]["step"] = 2; },
                   {"layer 3 (attn.1, step 1)", "comes after a call of step 2"});
  expect_bad_steps([](nlohmann::json& j) { j["layers"][5]["step"] = 1; },
                   {"layer 5 (attn.1, step 1)", "comes after a call of step 2"});
  expect_bad_steps(
      [](nlohmann::json& j) {
        j["layers"][6]["step"] = 2;
        j["layers"][7]["step"] = 2;
      },
      {"step 3 has no call"});
  expect_bad_steps([](nlohmann::json& j) { j["layers"][4]["name"] = "attn.9"; },
                   {"layer 4 (attn.9, step 2)", "where step 0 calls attn.0"});
  expect_bad_steps([](nlohmann::json& j) { j["layers"][5]["config"]["num_heads"] = 4; },
                   {"layer 5 (attn.1, step 2): num_heads=4 does not fit the layer",
                    "num_heads=2 in step 0 (layer 1 (attn.1, step 0))"});
  expect_bad_steps([](nlohmann::json& j) { j["layers"][6]["config"]["batch_size"] = 1; },
                   {"layer 6 (attn.0, step 3): batch_size=1 does not fit", "batch_size=2"});
  expect_bad_steps([](nlohmann::json& j) { j.erase("steps"); },
                   {"has key \"step\" but the index has no \"steps\""});
  expect_bad_steps([](nlohmann::json& j) { j["version"] = 99; },
                   {"version 99 is not supported", "versions 1 to 4"});
}

}  // namespace
}  // namespace mhaviz
