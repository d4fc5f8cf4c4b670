// Whole models (core/include/mhaviz/core/model/model.hpp): the fixtures of
// tests/fixtures/make_model_fixtures.py, captured from PyTorch 1.13 in eval mode under
// torch.no_grad(), recomputed layer by layer and compared with PyTorch's outputs; rollout
// compared with the script's NumPy rollout; and the model file's bad inputs.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/model/model.hpp"
#include "test_util.hpp"

namespace mhaviz {
namespace {

const std::filesystem::path kModels = std::filesystem::path(MHAVIZ_FIXTURE_DIR) / "models";

struct Computed {
  model::Model model;
  std::vector<Tensor> weights;
  std::vector<model::LayerCheck> checks;
};

Computed compute(const std::filesystem::path& index) {
  Computed c{model::read_model(index), {}, {}};
  for (const model::Layer& layer : c.model.layers) {
    const ForwardResult r =
        forward(layer.problem.config, layer.problem.params, layer.problem.inputs);
    c.checks.push_back(model::check_layer(layer, r));
    c.weights.push_back(r.weights);
  }
  return c;
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class ModelFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(ModelFixture, EveryLayerMatchesPyTorch) {
  const Computed c = compute(kModels / (GetParam() + ".json"));
  ASSERT_FALSE(c.model.layers.empty());
  for (std::size_t i = 0; i < c.checks.size(); ++i) {
    SCOPED_TRACE(model::layer_title(c.model.layers[i].info, i));
    EXPECT_TRUE(c.checks[i].ok);
    EXPECT_LT(c.checks[i].output_diff, 1e-5);
    if (c.checks[i].weights_diff) {
      EXPECT_LT(*c.checks[i].weights_diff, 1e-5);
    }
  }
}

// Sink scores and rates (Gu et al. 2024) against NumPy's weights of every layer
// (make_measure_fixtures.py, <name>.sinks.npz), at three thresholds so a wrong comparison fails.
TEST_P(ModelFixture, SinkRatesMatchNumPy) {
  const model::Model m = model::read_model(kModels / (GetParam() + ".json"));
  const model::ComputedModel c = model::compute_model(m);
  const io::TensorMap want = io::read_npz(kModels / (GetParam() + ".sinks.npz"));
  ASSERT_EQ(c.sinks.size(), m.layers.size());
  for (std::size_t i = 0; i < c.sinks.size(); ++i) {
    const Tensor& first = want.at("layer" + std::to_string(i) + ".first_key");  // (N, H)
    const SinkScores& s = c.sinks[i];
    ASSERT_EQ(first.numel(), s.N * s.H);
    for (std::int64_t n = 0; n < s.N; ++n) {
      for (std::int64_t h = 0; h < s.H; ++h) {
        const double e = first.value(n * s.H + h);
        if (std::isnan(e)) {
          EXPECT_EQ(s.queries_of(n, h), 0);
        } else {
          EXPECT_NEAR(s.at(n, h, 0), e, 1e-5) << "layer " << i << " batch " << n << " head " << h;
        }
      }
    }
  }
  for (const char* eps : {"0.1", "0.3", "0.5"}) {
    const Tensor& rate = want.at(std::string("rate.") + eps);
    const model::ModelSinkRates r = model::sink_rates(c, std::stod(eps));
    ASSERT_EQ(rate.numel(), static_cast<std::int64_t>(r.per_layer.size()) + 1);
    for (std::size_t i = 0; i < r.per_layer.size(); ++i) {
      EXPECT_DOUBLE_EQ(r.per_layer[i].rate(), rate.value(static_cast<std::int64_t>(i)))
          << "eps " << eps << " layer " << i;
    }
    EXPECT_DOUBLE_EQ(r.overall.rate(), rate.value(rate.numel() - 1)) << "eps " << eps;
  }
  EXPECT_THROW((void)model::sink_rates(c, 0.0), InvalidInput);
  EXPECT_THROW((void)model::sink_rates(c, 1.5), InvalidInput);
}

TEST_P(ModelFixture, RolloutMatchesNumPy) {
  const Computed c = compute(kModels / (GetParam() + ".json"));
  const io::TensorMap want = io::read_npz(kModels / (GetParam() + ".rollout.npz"));
  const Tensor& map = want.at("rollout");        // (N, S, S)
  const Tensor& share = want.at("extra_share");  // (layers, N)
  const std::int64_t N = map.size(0);
  const std::int64_t S = map.size(1);
  for (std::int64_t n = 0; n < N; ++n) {
    const model::Rollout r = model::attention_rollout(c.model, c.weights, n);
    ASSERT_EQ(r.tokens, S);
    ASSERT_EQ(static_cast<std::int64_t>(r.layers.size()), share.size(0));
    for (std::int64_t i = 0; i < S * S; ++i) {
      EXPECT_NEAR(r.map[static_cast<std::size_t>(i)], map.value(n * S * S + i), 1e-5)
          << "batch " << n << " cell " << i;
    }
    for (std::int64_t q = 0; q < S; ++q) {
      double sum = 0;
      for (std::int64_t k = 0; k < S; ++k) sum += r.map[static_cast<std::size_t>(q * S + k)];
      EXPECT_NEAR(sum, 1.0, 1e-9);
    }
    for (std::size_t l = 0; l < r.layers.size(); ++l) {
      EXPECT_NEAR(r.extra_share[l], share.value(static_cast<std::int64_t>(l) * N + n), 1e-5);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Captured, ModelFixture, ::testing::Values("encoder", "decoder", "extras"));

TEST(Model, EncoderIsCapturedFromTheFusedKernelInCallOrder) {
  const model::Model m = model::read_model(kModels / "encoder.json");
  ASSERT_EQ(m.layers.size(), 4U);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(m.layers[i].info.name, "layers." + std::to_string(i) + ".self_attn");
    EXPECT_TRUE(m.layers[i].info.fused);
    EXPECT_TRUE(m.layers[i].info.self_attention);
    EXPECT_EQ(m.layers[i].info.config.num_heads, 4);
    EXPECT_TRUE(m.layers[i].problem.inputs.key_padding_mask.has_value());
  }
  EXPECT_EQ(m.layers[0].info.config.query_labels.front(), "t0");
}

TEST(Model, DecoderHasSelfAndCrossAttention) {
  const model::Model m = model::read_model(kModels / "decoder.json");
  ASSERT_EQ(m.layers.size(), 4U);
  EXPECT_EQ(m.layers[1].info.name, "layers.0.multihead_attn");
  EXPECT_TRUE(m.layers[0].info.self_attention);
  EXPECT_FALSE(m.layers[1].info.self_attention);
  EXPECT_EQ(m.layers[1].info.config.src_len, 6);
  EXPECT_EQ(m.layers[1].info.config.tgt_len, 5);
}

TEST(Model, ExtrasShareIsReportedAndDropped) {
  const Computed c = compute(kModels / "extras.json");
  const model::Rollout r = model::attention_rollout(c.model, c.weights, 0);
  ASSERT_EQ(r.extra_share.size(), 2U);
  EXPECT_GT(r.extra_share[0], 0.0);  // bias_k and zero columns take part of every row
  EXPECT_EQ(r.tokens, 5);
}

TEST(Model, ADisagreementWithPyTorchIsReported) {
  model::Model m = model::read_model(kModels / "decoder.json");
  model::Layer& layer = m.layers[2];
  auto data = layer.torch_output.data<float>();
  data[3] += 0.5F;
  const ForwardResult r = forward(layer.problem.config, layer.problem.params, layer.problem.inputs);
  const model::LayerCheck check = model::check_layer(layer, r);
  EXPECT_FALSE(check.ok);
  EXPECT_NEAR(check.output_diff, 0.5, 1e-4);
}

class ModelBadInput : public test::TempDirTest {
 protected:
  /// Writes the encoder's index (edited by `edit`) and, unless `members` is false, its tensors.
  std::filesystem::path write_model(const std::function<void(nlohmann::json&)>& edit,
                                    const std::function<void(io::TensorMap&)>& members = {}) {
    nlohmann::json index = nlohmann::json::parse(read_text(kModels / "encoder.json"));
    index["tensors"] = "t.npz";
    edit(index);
    const auto path = dir_ / "m.json";
    std::ofstream(path) << index.dump();
    if (members) {
      io::TensorMap t = io::read_npz(kModels / "encoder.npz");
      members(t);
      io::write_npz(dir_ / "t.npz", t);
    }
    return path;
  }
};

TEST_F(ModelBadInput, MissingMemberNamesTheLayerAndTheFix) {
  const auto path =
      write_model([](nlohmann::json&) {}, [](io::TensorMap& t) { t.erase("2/out_proj.weight"); });
  test::expect_invalid(
      [&] { (void)model::read_model(path); },
      {"layer 2 (layers.2.self_attn)", "\"2/out_proj.weight\" is missing", "capture_model"});
}

TEST_F(ModelBadInput, InputsThatDoNotFitTheConfiguration) {
  const auto path = write_model([](nlohmann::json& j) { j["layers"][1]["config"]["tgt_len"] = 7; },
                                [](io::TensorMap&) {});
  test::expect_invalid([&] { (void)model::read_model(path); },
                       {"layer 1 (layers.1.self_attn)", "query", "tgt_len=7"});
}

TEST_F(ModelBadInput, AMaskThatDoesNotFit) {
  const auto path = write_model([](nlohmann::json&) {},
                                [](io::TensorMap& t) {
                                  t["3/key_padding_mask"] = Tensor(ElemType::boolean, {2, 5});
                                });
  test::expect_invalid([&] { (void)model::read_model(path); },
                       {"layer 3 (layers.3.self_attn)", "key_padding_mask"});
}

TEST_F(ModelBadInput, TensorsFileThatIsNotThere) {
  const auto path = write_model([](nlohmann::json&) {});
  test::expect_invalid([&] { (void)model::read_model(path); }, {"t.npz", "is not there"});
}

TEST_F(ModelBadInput, TenThousandLayers) {
  const auto path = write_model([](nlohmann::json& j) {
    const nlohmann::json layer = j["layers"][0];
    j["layers"] = nlohmann::json::array();
    for (int i = 0; i < 10000; ++i) j["layers"].push_back(layer);
  });
  test::expect_invalid([&] { (void)model::read_model(path); }, {"10000 layers", "at most 1024"});
}

TEST_F(ModelBadInput, LayersBeyondTheMemoryLimitAreRefusedBeforeReading) {
  const auto path = write_model([](nlohmann::json& j) {
    nlohmann::json layer = j["layers"][0];
    layer["config"]["tgt_len"] = layer["config"]["src_len"] = 4096;
    layer["config"].erase("query_labels");
    layer["config"].erase("key_labels");
    j["layers"] = nlohmann::json::array();
    for (int i = 0; i < 1000; ++i) j["layers"].push_back(layer);
  });  // no tensors file at all: the estimate refuses first
  test::expect_invalid([&] { (void)model::read_model(path); },
                       {"1000 layers need", "the memory limit is 4.0 GiB"});
}

TEST_F(ModelBadInput, ConfigurationFileOpenedAsAModel) {
  const auto path = dir_ / "c.json";
  std::ofstream(path) << R"({"embed_dim": 8, "num_heads": 2})";
  test::expect_invalid([&] { (void)model::read_model(path); }, {"\"format\" is missing"});
  EXPECT_FALSE(model::is_model_index(read_text(path)));
  EXPECT_TRUE(model::is_model_index(read_text(kModels / "encoder.json")));
}

// fuzz_model's finding: a number too large for a double (1e400) in a malformed index threw
// nlohmann's out_of_range out of the reader, where every other bad JSON is InvalidInput.
TEST_F(ModelBadInput, ANumberTooLargeIsNotValidJson) {
  const auto path = dir_ / "c.json";
  std::ofstream(path) << R"({"format": "mhaviz-model", "version": 1, "tokens": ["a",1e400 "b"]})";
  test::expect_invalid([&] { (void)model::read_model(path); }, {"c.json: not valid JSON"});
  EXPECT_FALSE(model::is_model_index(read_text(path)));
}

TEST_F(ModelBadInput, AMemberOfNoLayer) {
  const auto path = write_model(
      [](nlohmann::json&) {}, [](io::TensorMap& t) { t["9/query"] = Tensor(ElemType::f32, {1}); });
  test::expect_invalid([&] { (void)model::read_model(path); }, {"\"9/query\" belongs to no layer"});
}

}  // namespace
}  // namespace mhaviz
