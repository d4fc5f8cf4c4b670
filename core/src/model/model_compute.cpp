// Checking a computed layer against PyTorch's stored outputs, the sink rates, and attention
// rollout across the self-attention layers (docs/capture-and-models.md defines them).

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/model/model.hpp"
#include "mhaviz/core/model/weights_only.hpp"
#include "residual_attention.hpp"

namespace mhaviz::model {

namespace {

/// Largest |a - b|; NaN in both agrees, NaN (or a different infinity) in one is infinite.
double max_difference(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) return std::numeric_limits<double>::infinity();
  // Typed reads where both are float32 (Tensor::value per element was most of the check).
  const bool f32 = a.type() == ElemType::f32 && b.type() == ElemType::f32;
  const float* fa = f32 ? a.data<float>().data() : nullptr;
  const float* fb = f32 ? b.data<float>().data() : nullptr;
  double worst = 0.0;
  const std::int64_t n = a.numel();
  for (std::int64_t i = 0; i < n; ++i) {
    const double x = f32 ? static_cast<double>(fa[i]) : a.value(i);
    const double y = f32 ? static_cast<double>(fb[i]) : b.value(i);
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
  check.path = result.path.path;
  // Under semantics "1.13" mhaviz models the general path only; a recorded path is 2.x's.
  if (result.config.semantics == Semantics::v2) check.recorded_path = result.config.recorded_path;
  check.ok = check.worst() <= tolerance && check.path_agrees();
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
    if (model.index.weights_only) {  // nothing to recompute or check: the stored weights
      if (control.cancel != nullptr && control.cancel->load(std::memory_order_relaxed))
        throw Cancelled();
      LayerCheck unchecked;
      unchecked.checked = false;
      out.checks.push_back(unchecked);
      out.weights.push_back(*layer.torch_weights);
      out.sinks.push_back(sink_scores(weights_result(layer)));
      continue;
    }
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

Rollout attention_rollout(const Model& model, std::span<const Tensor> weights, std::int64_t batch,
                          std::int64_t step) {
  ResidualAttention a = residual_attention(model, weights, batch, step, "rollout");
  Rollout out;
  out.batch = batch;
  out.tokens = a.tokens;
  out.layers = std::move(a.layers);
  out.extra_share = std::move(a.extra_share);
  const auto su = static_cast<std::size_t>(out.tokens);
  std::vector<double> rollout = std::move(a.matrix.front());
  for (std::size_t l = 1; l < a.matrix.size(); ++l) {
    const std::vector<double>& m = a.matrix[l];
    std::vector<double> next(su * su, 0.0);  // Â_l · R
    for (std::size_t q = 0; q < su; ++q) {
      for (std::size_t j = 0; j < su; ++j) {
        const double f = m[q * su + j];
        if (f == 0.0) continue;
        for (std::size_t k = 0; k < su; ++k) next[q * su + k] += f * rollout[j * su + k];
      }
    }
    rollout = std::move(next);
  }
  out.map = std::move(rollout);
  out.per_token = column_means(out.map, su);
  return out;
}

}  // namespace mhaviz::model
