// mhaviz-flow-bench: attention flow against rollout on the same layers (not a test; run by hand;
// its figures: docs/performance.md). Each layer's weights are a softmax of random logits
// (scale 3, so heads are peaked as trained ones are), one head, one batch element. Prints the
// wall time of rollout and of flow and their ratio, at sizes up to mhaviz's flow limit.

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "mhaviz/core/model/model.hpp"

namespace {

struct Case {
  mhaviz::model::Model model;
  std::vector<mhaviz::Tensor> weights;
};

Case make(std::size_t layers, std::int64_t S, bool causal) {
  std::mt19937_64 rng(42);
  std::normal_distribution<double> logit(0.0, 3.0);
  Case c;
  for (std::size_t l = 0; l < layers; ++l) {
    mhaviz::model::Layer layer;
    layer.info.name = "layers." + std::to_string(l) + ".self_attn";
    layer.info.self_attention = true;
    layer.info.config.embed_dim = 4;
    layer.info.config.num_heads = 1;
    layer.info.config.batch_size = 1;
    layer.info.config.tgt_len = layer.info.config.src_len = S;
    c.model.layers.push_back(layer);
    mhaviz::Tensor w(mhaviz::ElemType::f64, {1, 1, S, S});
    auto data = w.data<double>();
    for (std::int64_t q = 0; q < S; ++q) {
      double sum = 0;
      for (std::int64_t k = 0; k < S; ++k) {
        const double e = causal && k > q ? 0.0 : std::exp(logit(rng));
        data[static_cast<std::size_t>(q * S + k)] = e;
        sum += e;
      }
      for (std::int64_t k = 0; k < S; ++k) data[static_cast<std::size_t>(q * S + k)] /= sum;
    }
    c.weights.push_back(std::move(w));
  }
  return c;
}

template <typename F>
double seconds(F f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main() {
  std::printf("%7s %7s %7s %10s %11s %9s %9s\n", "layers", "tokens", "causal", "work", "rollout s",
              "flow s", "ratio");
  for (const std::size_t layers : {2U, 12U}) {
    const std::int64_t most = mhaviz::model::flow_token_limit(layers);
    for (const std::int64_t S : {std::int64_t{16}, most / 2, most}) {
      for (const bool causal : {false, true}) {
        const Case c = make(layers, S, causal);
        const double r =
            seconds([&] { (void)mhaviz::model::attention_rollout(c.model, c.weights); });
        const double f = seconds([&] { (void)mhaviz::model::attention_flow(c.model, c.weights); });
        std::printf("%7zu %7lld %7s %10.2g %11.4f %9.3f %9.0f\n", layers, static_cast<long long>(S),
                    causal ? "yes" : "no", mhaviz::model::flow_work(layers, S), r, f, f / r);
      }
    }
  }
  return 0;
}
