// Attention flow (Abnar & Zuidema 2020) over the self-attention layers of a model
// (docs/capture-and-models.md): a maximum flow through the layer graph per (output token,
// input token) pair.

#include <cmath>
#include <cstdio>
#include <mutex>
#include <string>

#include "max_flow.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/base/parallel.hpp"
#include "mhaviz/core/model/model.hpp"
#include "residual_attention.hpp"

namespace mhaviz::model {

double flow_work(std::size_t layers, std::int64_t tokens) {
  const auto s = static_cast<double>(tokens);
  return static_cast<double>(layers) * s * s * s * s;
}

std::int64_t flow_token_limit(std::size_t layers) {
  std::int64_t s = 1;
  while (flow_work(layers, s + 1) <= kMaxFlowWork) ++s;
  return s;
}

namespace {

std::string scientific(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", v);
  return text;
}

void check_size(std::size_t layers, std::int64_t S, const char* what) {
  if (flow_work(layers, S) <= kMaxFlowWork) return;
  const std::string n = std::to_string(layers);
  const std::string s = std::to_string(S);
  throw InvalidInput(
      std::string(what) + ": attention flow over " + n + " layer" + (layers == 1 ? "" : "s") +
      " of " + s + " tokens solves " + s + "² = " + std::to_string(S * S) +
      " maximum-flow problems over " + n + " × " + s + "² edges each (layers × tokens⁴ = " +
      scientific(flow_work(layers, S)) + "); mhaviz computes it up to " + scientific(kMaxFlowWork) +
      ", which is " + std::to_string(flow_token_limit(layers)) + " tokens for " + n + " layer" +
      (layers == 1 ? "" : "s") +
      ". Use attention rollout instead (one matrix product per layer), or capture a shorter "
      "input.");
}

}  // namespace

AttentionFlow attention_flow(const Model& model, std::span<const Tensor> weights,
                             std::int64_t batch, std::int64_t step, const char* what,
                             const RunControl& control) {
  ResidualAttention a = residual_attention(model, weights, batch, step, "attention flow");
  const std::int64_t S = a.tokens;
  const std::size_t n = a.layers.size();
  check_size(n, S, what);
  // Node (l, t) = l * S + t: layer 0 holds the input tokens, layer n the outputs of the last
  // used layer; token i of layer l draws on token j of layer l - 1 with capacity Â_l[i][j].
  const auto S32 = static_cast<std::int32_t>(S);
  FlowNetwork network(static_cast<std::int32_t>(n + 1) * S32);
  for (std::size_t l = 1; l <= n; ++l) {
    const std::vector<double>& m = a.matrix[l - 1];
    const auto top = static_cast<std::int32_t>(l) * S32;
    for (std::int32_t i = 0; i < S32; ++i) {
      for (std::int32_t j = 0; j < S32; ++j) {
        network.add_edge(top + i, top - S32 + j, m[static_cast<std::size_t>(i * S32 + j)]);
      }
    }
  }
  network.finish();

  AttentionFlow out;
  out.batch = batch;
  out.tokens = S;
  out.layers = std::move(a.layers);
  out.extra_share = std::move(a.extra_share);
  out.edges = network.edges();
  const auto su = static_cast<std::size_t>(S);
  out.value.assign(su * su, 0.0);
  out.map.assign(su * su, 0.0);
  std::int64_t done = 0;  // rows, under `progress`
  std::mutex progress;
  const auto top = static_cast<std::int32_t>(n) * S32;
  parallel_for(S, thread_count(control.threads, S), [&](std::int64_t i) {
    FlowNetwork::Workspace work;
    double sum = 0.0;
    for (std::int64_t j = 0; j < S; ++j) {
      if (control.cancel != nullptr && control.cancel->load(std::memory_order_relaxed))
        throw Cancelled();
      const double v =
          network.max_flow(top + static_cast<std::int32_t>(i), static_cast<std::int32_t>(j), work);
      out.value[static_cast<std::size_t>(i * S + j)] = v;
      sum += v;
    }
    // Never 0: the residual term gives every token at least 1/2 of itself in every layer.
    for (std::int64_t j = 0; j < S; ++j) {
      const auto k = static_cast<std::size_t>(i * S + j);
      out.map[k] = out.value[k] / sum;
    }
    if (control.progress) {
      const std::lock_guard lock(progress);
      control.progress(++done, S);
    }
  });
  out.per_token = column_means(out.map, su);
  return out;
}

}  // namespace mhaviz::model
