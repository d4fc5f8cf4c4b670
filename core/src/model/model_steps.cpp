// Generation steps: checking them in an index, the calls of a step and the newest position's
// weights (model_steps.hpp, mhaviz/core/model/model.hpp).

#include "model_steps.hpp"

#include <cmath>
#include <string>

#include "index_json.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/file_bytes.hpp"

namespace mhaviz::model {

namespace {

/// The first size in which `c` differs from `first` ("num_heads=4" and "num_heads=2"), or "".
std::pair<std::string, std::string> size_difference(const Config& c, const Config& first) {
  const auto number = [](const char* key, std::int64_t v) {
    return std::string(key) + "=" + std::to_string(v);
  };
  const auto flag = [](const char* key, bool v) {
    return std::string(key) + "=" + (v ? "true" : "false");
  };
  if (c.embed_dim != first.embed_dim)
    return {number("embed_dim", c.embed_dim), number("embed_dim", first.embed_dim)};
  if (c.num_heads != first.num_heads)
    return {number("num_heads", c.num_heads), number("num_heads", first.num_heads)};
  if (c.k_dim() != first.k_dim()) return {number("kdim", c.k_dim()), number("kdim", first.k_dim())};
  if (c.v_dim() != first.v_dim()) return {number("vdim", c.v_dim()), number("vdim", first.v_dim())};
  if (c.bias != first.bias) return {flag("bias", c.bias), flag("bias", first.bias)};
  if (c.add_bias_kv != first.add_bias_kv)
    return {flag("add_bias_kv", c.add_bias_kv), flag("add_bias_kv", first.add_bias_kv)};
  if (c.add_zero_attn != first.add_zero_attn)
    return {flag("add_zero_attn", c.add_zero_attn), flag("add_zero_attn", first.add_zero_attn)};
  if (c.batch() != first.batch())
    return {number("batch_size", c.batch()), number("batch_size", first.batch())};
  if (c.dtype != first.dtype) {
    return {"dtype=" + std::string(to_string(c.dtype)),
            "dtype=" + std::string(to_string(first.dtype))};
  }
  return {};
}

}  // namespace

void check_steps(const ModelIndex& index, const std::string& source) {
  const std::string recapture =
      " (re-capture the loop with mhaviz_capture.capture_generation(); "
      "docs/capture-and-models.md)";
  const auto& layers = index.layers;
  if (index.steps == 0) {
    for (std::size_t i = 0; i < layers.size(); ++i) {
      if (layers[i].step >= 0) {
        fail(source, layer_title(layers[i], i) +
                         " has key \"step\" but the index has no \"steps\"; a generation "
                         "capture says how many steps it holds, e.g. \"steps\": 4");
      }
    }
    return;
  }
  const std::int64_t K = index.steps;
  std::vector<std::vector<std::size_t>> calls(static_cast<std::size_t>(K));
  std::int64_t previous = 0;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const std::int64_t step = layers[i].step;
    const std::string where = source + ": " + layer_title(layers[i], i);
    if (step < 0) {
      fail(where,
           "key \"step\" is missing; in a generation capture (\"steps\": " + std::to_string(K) +
               ") every call names its step, 0 to " + std::to_string(K - 1) + recapture);
    }
    if (step >= K) {
      fail(where, "is in step " + std::to_string(step) + ", but the index has \"steps\": " +
                      std::to_string(K) + " (steps 0 to " + std::to_string(K - 1) + ")");
    }
    if (step < previous) {
      fail(where, "comes after a call of step " + std::to_string(previous) +
                      "; the calls of a step come together and the steps in order" + recapture);
    }
    previous = step;
    calls[static_cast<std::size_t>(step)].push_back(i);
  }
  for (std::int64_t t = 0; t < K; ++t) {
    if (calls[static_cast<std::size_t>(t)].empty()) {
      fail(source, "step " + std::to_string(t) +
                       " has no call; each step holds the attention calls the model made in it, "
                       "and \"steps\" counts the steps" +
                       recapture);
    }
  }
  const std::vector<std::size_t>& first = calls.front();
  for (std::int64_t t = 1; t < K; ++t) {
    const std::vector<std::size_t>& mine = calls[static_cast<std::size_t>(t)];
    const std::string step = "step " + std::to_string(t);
    if (mine.size() != first.size()) {
      fail(source, step + " has " + std::to_string(mine.size()) + " calls and step 0 has " +
                       std::to_string(first.size()) +
                       "; every step of a generation calls the same attention layers" + recapture);
    }
    for (std::size_t p = 0; p < mine.size(); ++p) {
      const LayerInfo& a = layers[mine[p]];
      const LayerInfo& b = layers[first[p]];
      const std::string where = source + ": " + layer_title(a, mine[p]);
      if (a.name != b.name) {
        fail(where, "is call " + std::to_string(p) + " of " + step + ", where step 0 calls " +
                        b.name + "; every step calls the same modules in the same order" +
                        recapture);
      }
      const auto [mine_size, first_size] = size_difference(a.config, b.config);
      if (!mine_size.empty()) {
        fail(where, mine_size + " does not fit the layer, which has " + first_size +
                        " in step 0 (" + layer_title(b, first[p]) +
                        "); a step calls the same module, with the same batch, as every other" +
                        recapture);
      }
    }
  }
}

std::vector<std::size_t> step_layers(const ModelIndex& index, std::int64_t step, const char* what) {
  std::vector<std::size_t> out;
  if (index.steps == 0) {
    if (step != -1) {
      throw InvalidInput(std::string(what) + " " + std::to_string(step) + ": " +
                         io::display_name(index.path) +
                         " has no generation steps (it was captured with capture_model(), "
                         "not capture_generation())");
    }
    for (std::size_t i = 0; i < index.layers.size(); ++i) out.push_back(i);
    return out;
  }
  if (step < 0 || step >= index.steps) {
    throw InvalidInput(std::string(what) + " " + std::to_string(step) + ": " +
                       io::display_name(index.path) + " has " + std::to_string(index.steps) +
                       " generation step" + (index.steps == 1 ? "" : "s") + " (0 to " +
                       std::to_string(index.steps - 1) + ")");
  }
  for (std::size_t i = 0; i < index.layers.size(); ++i) {
    if (index.layers[i].step == step) out.push_back(i);
  }
  return out;
}

double StepRows::Layer::head_mean(std::int64_t k) const {
  double sum = 0.0;
  for (std::int64_t h = 0; h < heads; ++h) {
    const double v = weights[static_cast<std::size_t>(h * columns + k)];
    if (std::isfinite(v)) sum += v;
  }
  return heads > 0 ? sum / static_cast<double>(heads) : 0.0;
}

std::int64_t StepRows::Layer::most_weighted() const {
  std::int64_t best = 0;
  for (std::int64_t k = 1; k < columns; ++k) {
    if (head_mean(k) > head_mean(best)) best = k;
  }
  return best;
}

StepRows step_rows(const Model& model, std::span<const Tensor> weights, std::int64_t step,
                   std::int64_t batch, const char* what) {
  const ModelIndex& index = model.index;
  if (index.steps == 0) {
    throw InvalidInput(io::display_name(index.path) +
                       " has no generation steps: capture the generation loop with "
                       "mhaviz_capture.capture_generation()");
  }
  const std::vector<std::size_t> layers = step_layers(index, step, what);
  StepRows out;
  out.step = step;
  out.batch = batch;
  const Config& first = model.layers[layers.front()].info.config;
  if (batch < 0 || batch >= first.batch()) {
    throw InvalidInput("batch element " + std::to_string(batch) +
                       " does not exist; the model's "
                       "inputs have " +
                       std::to_string(first.batch()) + " (0 to " +
                       std::to_string(first.batch() - 1) + ")");
  }
  out.position = first.src_len - 1;
  const auto at = static_cast<std::size_t>(out.position);
  if (at < index.tokens.size()) {
    out.query = index.tokens[at];
  } else if (!first.key_labels.empty()) {
    out.query = first.key_labels.back();
  }
  if (at + 1 < index.tokens.size()) out.generated = index.tokens[at + 1];
  for (const std::size_t li : layers) {
    const Tensor& w = weights[li];
    const Config& c = model.layers[li].info.config;
    if (w.dim() != 4 || w.size(0) <= batch || w.size(1) != c.num_heads || w.size(2) != c.tgt_len) {
      throw InvalidInput(std::string(what) + ": " + layer_title(model.layers[li].info, li) +
                         " has not been computed");
    }
    StepRows::Layer row;
    row.layer = li;
    row.heads = w.size(1);
    row.keys = c.src_len;
    row.columns = w.size(3);
    row.weights.reserve(static_cast<std::size_t>(row.heads * row.columns));
    for (std::int64_t h = 0; h < row.heads; ++h) {
      const std::int64_t base = ((batch * row.heads + h) * w.size(2) + w.size(2) - 1) * row.columns;
      for (std::int64_t k = 0; k < row.columns; ++k) row.weights.push_back(w.value(base + k));
    }
    out.layers.push_back(std::move(row));
  }
  return out;
}

}  // namespace mhaviz::model
