// Attention flow (Abnar & Zuidema 2020) across a model's self-attention layers
// (mhaviz::model::attention_flow), against tests/fixtures/make_flow_fixtures.py: NumPy's
// residual-adjusted attention and a plain Edmonds-Karp maximum flow, itself checked there
// against brute-force minimum cuts. Also its size limit and cancellation.

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/model/model.hpp"
#include "test_util.hpp"

namespace mhaviz {
namespace {

const std::filesystem::path kFixtures(MHAVIZ_FIXTURE_DIR);
const std::filesystem::path kExamples = std::filesystem::path(MHAVIZ_EXAMPLES_DIR) / "models";

std::filesystem::path index_of(const std::string& name) {
  if (name == "reverse" || name == "copy") return kExamples / (name + ".json");
  return kFixtures / "models" / (name + ".json");
}

class FlowFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(FlowFixture, MatchesEdmondsKarpOfNumPy) {
  const model::Model m = model::read_model(index_of(GetParam()));
  const model::ComputedModel c = model::compute_model(m);
  const io::TensorMap want = io::read_npz(kFixtures / "flow" / (GetParam() + ".npz"));
  const Tensor& value = want.at("value");        // (N, S, S)
  const Tensor& map = want.at("map");            // (N, S, S)
  const Tensor& share = want.at("extra_share");  // (layers, N)
  const std::int64_t N = value.size(0);
  const std::int64_t S = value.size(1);
  for (std::int64_t n = 0; n < N; ++n) {
    const model::AttentionFlow f = model::attention_flow(m, c.weights, n);
    ASSERT_EQ(f.tokens, S);
    ASSERT_EQ(static_cast<std::int64_t>(f.layers.size()), share.size(0));
    for (std::int64_t i = 0; i < S * S; ++i) {
      const auto k = static_cast<std::size_t>(i);
      EXPECT_NEAR(f.value[k], value.value(n * S * S + i), 1e-6) << "batch " << n << " cell " << i;
      EXPECT_NEAR(f.map[k], map.value(n * S * S + i), 1e-6) << "batch " << n << " cell " << i;
    }
    for (std::int64_t q = 0; q < S; ++q) {
      double sum = 0;
      for (std::int64_t k = 0; k < S; ++k) {
        const double v = f.value[static_cast<std::size_t>(q * S + k)];
        EXPECT_GE(v, 0.0);
        EXPECT_LE(v, 1.0 + 1e-12);  // the source's edges hold one unit
        sum += f.map[static_cast<std::size_t>(q * S + k)];
      }
      EXPECT_NEAR(sum, 1.0, 1e-12);
    }
    for (std::size_t l = 0; l < f.layers.size(); ++l) {
      EXPECT_NEAR(f.extra_share[l], share.value(static_cast<std::int64_t>(l) * N + n), 1e-6);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Models, FlowFixture,
                         ::testing::Values("encoder", "decoder", "extras", "reverse", "copy"));

// The same layers as rollout: flow and rollout both drop the appended columns of extras.json
// and report the same share.
TEST(AttentionFlow, UsesRolloutsLayersAndExtraShare) {
  const model::Model m = model::read_model(kFixtures / "models" / "extras.json");
  const model::ComputedModel c = model::compute_model(m);
  const model::Rollout r = model::attention_rollout(m, c.weights, 1);
  const model::AttentionFlow f = model::attention_flow(m, c.weights, 1);
  EXPECT_EQ(f.layers, r.layers);
  ASSERT_EQ(f.extra_share.size(), r.extra_share.size());
  for (std::size_t l = 0; l < f.layers.size(); ++l) EXPECT_EQ(f.extra_share[l], r.extra_share[l]);
  EXPECT_GT(f.edges, 0U);
}

/// A model of `layers` self-attention layers over `tokens` tokens, every weight uniform.
struct Uniform {
  model::Model model;
  std::vector<Tensor> weights;
};

Uniform uniform(std::size_t layers, std::int64_t tokens) {
  Uniform u;
  for (std::size_t l = 0; l < layers; ++l) {
    model::Layer layer;
    layer.info.name = "layers." + std::to_string(l) + ".self_attn";
    layer.info.self_attention = true;
    layer.info.config.embed_dim = 4;
    layer.info.config.num_heads = 1;
    layer.info.config.batch_size = 1;
    layer.info.config.tgt_len = layer.info.config.src_len = tokens;
    u.model.layers.push_back(layer);
    Tensor w(ElemType::f64, {1, 1, tokens, tokens});
    for (auto& v : w.data<double>()) v = 1.0 / static_cast<double>(tokens);
    u.weights.push_back(std::move(w));
  }
  return u;
}

// Two layers of two tokens, each weight 1/2: Â = [[3/4, 1/4], [1/4, 3/4]]. From output token 0
// to input token 0 both paths carry their full 3/4 and 1/4 (flow 1); to input token 1 each path
// is held to 1/4 by one of its edges (flow 1/2). Rollout would give Â² = [[5/8, 3/8], ...].
TEST(AttentionFlow, TwoTokensByHand) {
  const Uniform u = uniform(2, 2);
  const model::AttentionFlow f = model::attention_flow(u.model, u.weights);
  const std::vector<double> value = {1.0, 0.5, 0.5, 1.0};
  const std::vector<double> map = {2.0 / 3, 1.0 / 3, 1.0 / 3, 2.0 / 3};
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_NEAR(f.value[k], value[k], 1e-15) << k;
    EXPECT_NEAR(f.map[k], map[k], 1e-15) << k;
  }
  EXPECT_NEAR(model::attention_rollout(u.model, u.weights).map[0], 5.0 / 8, 1e-15);
}

TEST(AttentionFlow, RefusesAboveTheStatedSizeNamingTheOptionAndTheLimit) {
  EXPECT_EQ(model::flow_work(12, 10), 12.0 * 1e4);
  const std::int64_t most = model::flow_token_limit(12);
  EXPECT_LE(model::flow_work(12, most), model::kMaxFlowWork);
  EXPECT_GT(model::flow_work(12, most + 1), model::kMaxFlowWork);
  const Uniform u = uniform(12, most + 1);
  test::expect_invalid(
      [&] { (void)model::attention_flow(u.model, u.weights, 0, -1, "--flow"); },
      {"--flow: attention flow over 12 layers of " + std::to_string(most + 1) + " tokens",
       "maximum-flow problems", std::to_string(most) + " tokens for 12 layers", "rollout"});
}

TEST(AttentionFlow, StopsWhenCancelled) {
  const Uniform u = uniform(2, 6);
  std::atomic<bool> cancel{true};
  RunControl control;
  control.cancel = &cancel;
  EXPECT_THROW((void)model::attention_flow(u.model, u.weights, 0, -1, "flow", control), Cancelled);
}

TEST(AttentionFlow, ModelWithoutSelfAttention) {
  Uniform u = uniform(1, 3);
  u.model.layers[0].info.self_attention = false;
  test::expect_invalid([&] { (void)model::attention_flow(u.model, u.weights); },
                       {"attention flow follows self-attention layers"});
}

}  // namespace
}  // namespace mhaviz
