// Â per self-attention layer (residual_attention.hpp), the input of rollout and flow.

#include "residual_attention.hpp"

#include <cmath>
#include <string>

#include "mhaviz/core/base/errors.hpp"

namespace mhaviz::model {

namespace {

/// The self-attention layers (of `step` in a generation capture, -1: the last), checked to see
/// the same S positions; their S.
std::int64_t used_layers(const Model& model, std::int64_t batch, std::int64_t step,
                         const std::string& what, std::vector<std::size_t>& out) {
  const std::string file = model.index.path.string();
  if (model.index.steps > 0 && step < 0) step = model.index.steps - 1;
  (void)step_layers(model.index, step, what.c_str());  // throws for a step that does not exist
  std::int64_t tokens = 0;
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    const LayerInfo& info = model.layers[i].info;
    if (!info.self_attention || info.step != (model.index.steps > 0 ? step : -1)) continue;
    // An encoder-decoder (weights-only groups): the first group's layers, the encoder's.
    if (!out.empty() && info.group != model.layers[out.front()].info.group) continue;
    const Config& c = info.config;
    if (out.empty()) {
      tokens = c.src_len;
      if (batch < 0 || batch >= c.batch()) {
        throw InvalidInput(what + ": batch element " + std::to_string(batch) +
                           " does not exist; the model's inputs have " + std::to_string(c.batch()) +
                           " (0 to " + std::to_string(c.batch() - 1) + ")");
      }
    } else if (c.src_len != tokens || c.tgt_len != tokens || c.batch() <= batch) {
      throw InvalidInput(file + ": " + what + " needs every self-attention layer to see the same " +
                         std::to_string(tokens) + " positions; " + layer_title(info, i) +
                         " has tgt_len=" + std::to_string(c.tgt_len) + ", src_len=" +
                         std::to_string(c.src_len) + ", batch_size=" + std::to_string(c.batch()));
    }
    if (c.tgt_len != c.src_len) {
      throw InvalidInput(file + ": " + layer_title(info, i) +
                         " is marked self_attention but has tgt_len=" + std::to_string(c.tgt_len) +
                         " != src_len=" + std::to_string(c.src_len));
    }
    out.push_back(i);
  }
  if (out.empty() && model.index.steps > 0) {
    throw InvalidInput(file + ": " + what + " follows self-attention layers, and step " +
                       std::to_string(step) +
                       " has none (a layer counts when its query, key and value were one "
                       "tensor; with a KV cache only the step that reads the prompt, step 0, "
                       "has them)");
  }
  if (out.empty()) {
    throw InvalidInput(file + ": " + what +
                       " follows self-attention layers, and this model has none "
                       "(a layer counts when its query, key and value were one tensor)");
  }
  return tokens;
}

}  // namespace

ResidualAttention residual_attention(const Model& model, std::span<const Tensor> weights,
                                     std::int64_t batch, std::int64_t step, const char* what) {
  ResidualAttention out;
  out.tokens = used_layers(model, batch, step, what, out.layers);
  const std::int64_t S = out.tokens;
  const auto su = static_cast<std::size_t>(S);
  for (const std::size_t li : out.layers) {
    const Tensor& w = weights[li];
    const std::int64_t H = model.layers[li].info.config.num_heads;
    if (w.dim() != 4 || w.size(0) <= batch || w.size(1) != H || w.size(2) != S || w.size(3) < S) {
      throw InvalidInput(std::string(what) + ": " + layer_title(model.layers[li].info, li) +
                         " has not been computed");
    }
    const std::int64_t Sx = w.size(3);
    std::vector<double> a(su * su, 0.0);
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
    out.matrix.push_back(std::move(a));
  }
  return out;
}

std::vector<double> column_means(const std::vector<double>& map, std::size_t S) {
  std::vector<double> out(S, 0.0);
  for (std::size_t q = 0; q < S; ++q) {
    for (std::size_t k = 0; k < S; ++k) out[k] += map[q * S + k] / static_cast<double>(S);
  }
  return out;
}

}  // namespace mhaviz::model
