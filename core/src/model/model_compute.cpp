// Checking a computed layer against PyTorch's stored outputs, and attention rollout across the
// self-attention layers (docs/capture-and-models.md defines both).

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "mhaviz/core/errors.hpp"
#include "mhaviz/core/model.hpp"

namespace mhaviz::model {

namespace {

/// Largest |a - b|; NaN in both agrees, NaN (or a different infinity) in one is infinite.
double max_difference(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) return std::numeric_limits<double>::infinity();
  double worst = 0.0;
  const std::int64_t n = a.numel();
  for (std::int64_t i = 0; i < n; ++i) {
    const double x = a.value(i);
    const double y = b.value(i);
    if (std::isnan(x) || std::isnan(y)) {
      if (std::isnan(x) != std::isnan(y)) return std::numeric_limits<double>::infinity();
      continue;
    }
    if (x == y) continue;  // equal infinities too
    const double d = std::abs(x - y);
    if (!(d <= worst)) worst = d;  // takes inf and NaN (inf - inf) as worst
  }
  return std::isnan(worst) ? std::numeric_limits<double>::infinity() : worst;
}

}  // namespace

LayerCheck check_layer(const Layer& layer, const ForwardResult& result, double tolerance) {
  LayerCheck check;
  check.output_diff = max_difference(result.attn_output, layer.torch_output);
  if (layer.torch_weights) {
    check.weights_diff = result.attn_output_weights
                             ? max_difference(*result.attn_output_weights, *layer.torch_weights)
                             : std::numeric_limits<double>::infinity();
  }
  check.ok = check.worst() <= tolerance;
  return check;
}

std::size_t ComputedModel::disagreeing() const {
  return static_cast<std::size_t>(
      std::count_if(checks.begin(), checks.end(), [](const LayerCheck& c) { return !c.ok; }));
}

ComputedModel compute_model(const Model& model, double tolerance, const RunControl& control) {
  ComputedModel out;
  out.weights.reserve(model.layers.size());
  out.checks.reserve(model.layers.size());
  for (const Layer& layer : model.layers) {
    const ForwardResult r =
        forward(layer.problem.config, layer.problem.params, layer.problem.inputs, control);
    out.checks.push_back(check_layer(layer, r, tolerance));
    out.weights.push_back(r.weights);
    out.sinks.push_back(sink_scores(r));
  }
  return out;
}

ModelSinkRates sink_rates(const ComputedModel& computed, double eps) {
  check_sink_eps(eps, "sink threshold");
  ModelSinkRates out;
  out.eps = eps;
  for (const SinkScores& s : computed.sinks) {
    out.per_layer.push_back(sink_rate(s, eps));
    out.overall += out.per_layer.back();
  }
  return out;
}

Rollout attention_rollout(const Model& model, std::span<const Tensor> weights, std::int64_t batch) {
  const std::string file = model.index.path.string();
  Rollout out;
  out.batch = batch;
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    const LayerInfo& info = model.layers[i].info;
    if (!info.self_attention) continue;
    const Config& c = info.config;
    if (out.layers.empty()) {
      out.tokens = c.src_len;
      if (batch < 0 || batch >= c.batch()) {
        throw InvalidInput("rollout: batch element " + std::to_string(batch) +
                           " does not exist; the model's inputs have " + std::to_string(c.batch()) +
                           " (0 to " + std::to_string(c.batch() - 1) + ")");
      }
    } else if (c.src_len != out.tokens || c.tgt_len != out.tokens || c.batch() <= batch) {
      throw InvalidInput(file + ": rollout needs every self-attention layer to see the same " +
                         std::to_string(out.tokens) + " positions; " + layer_title(info, i) +
                         " has tgt_len=" + std::to_string(c.tgt_len) + ", src_len=" +
                         std::to_string(c.src_len) + ", batch_size=" + std::to_string(c.batch()));
    }
    if (c.tgt_len != c.src_len) {
      throw InvalidInput(file + ": " + layer_title(info, i) +
                         " is marked self_attention but has tgt_len=" + std::to_string(c.tgt_len) +
                         " != src_len=" + std::to_string(c.src_len));
    }
    out.layers.push_back(i);
  }
  if (out.layers.empty()) {
    throw InvalidInput(file +
                       ": rollout follows self-attention layers, and this model has none "
                       "(a layer counts when its query, key and value were one tensor)");
  }
  const std::int64_t S = out.tokens;
  const auto su = static_cast<std::size_t>(S);
  std::vector<double> rollout;  // empty until the first layer
  std::vector<double> a(su * su);
  for (const std::size_t li : out.layers) {
    const Tensor& w = weights[li];
    const std::int64_t H = model.layers[li].info.config.num_heads;
    if (w.dim() != 4 || w.size(0) <= batch || w.size(1) != H || w.size(2) != S || w.size(3) < S) {
      throw InvalidInput("rollout: " + layer_title(model.layers[li].info, li) +
                         " has not been computed");
    }
    const std::int64_t Sx = w.size(3);
    std::fill(a.begin(), a.end(), 0.0);
    double extra = 0.0;
    for (std::int64_t h = 0; h < H; ++h) {
      const std::int64_t base = ((batch * H + h) * S) * Sx;
      for (std::int64_t q = 0; q < S; ++q) {
        for (std::int64_t k = 0; k < Sx; ++k) {
          double v = w.value(base + q * Sx + k);
          if (!std::isfinite(v)) v = 0.0;
          if (k < S) {
            a[static_cast<std::size_t>(q * S + k)] += v / static_cast<double>(H);
          } else {
            extra += v;
          }
        }
      }
    }
    out.extra_share.push_back(extra / static_cast<double>(H * S));
    for (std::size_t q = 0; q < su; ++q) {
      a[q * su + q] += 1.0;
      double sum = 0.0;
      for (std::size_t k = 0; k < su; ++k) sum += a[q * su + k];
      for (std::size_t k = 0; k < su; ++k) a[q * su + k] /= sum;
    }
    if (rollout.empty()) {
      rollout = a;
      continue;
    }
    std::vector<double> next(su * su, 0.0);  // Â_l · R
    for (std::size_t q = 0; q < su; ++q) {
      for (std::size_t m = 0; m < su; ++m) {
        const double f = a[q * su + m];
        if (f == 0.0) continue;
        for (std::size_t k = 0; k < su; ++k) next[q * su + k] += f * rollout[m * su + k];
      }
    }
    rollout = std::move(next);
  }
  out.map = std::move(rollout);
  out.per_token.assign(su, 0.0);
  for (std::size_t q = 0; q < su; ++q) {
    for (std::size_t k = 0; k < su; ++k) out.per_token[k] += out.map[q * su + k] / double(S);
  }
  return out;
}

}  // namespace mhaviz::model
