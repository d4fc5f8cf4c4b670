// Weights-only models: checking stored weights, reading a version-4 model file's layers and plain
// arrays from an .npz / .safetensors file, and a layer as a result of the weights stage only
// (mhaviz/core/model/weights_only.hpp, docs/capture-and-models.md).

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/model/weights_only.hpp"
#include "model_steps.hpp"
#include "weights_index.hpp"

namespace mhaviz::model {

namespace fs = std::filesystem;

namespace {

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

std::string place(std::int64_t flat, std::int64_t H, std::int64_t L, std::int64_t S) {
  const std::int64_t k = flat % S, q = (flat / S) % L, h = (flat / S / L) % H, n = flat / S / L / H;
  return "batch " + std::to_string(n) + ", head " + std::to_string(h) + ", query " +
         std::to_string(q) + ", key " + std::to_string(k);
}

std::string row_place(std::int64_t row, std::int64_t H, std::int64_t L) {
  return "batch " + std::to_string(row / L / H) + ", head " + std::to_string((row / L) % H) +
         ", query " + std::to_string(row % L);
}

/// "attentions.10" sorts after "attentions.9": names compared with their digit runs as numbers.
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t ei = i, ej = j;
      while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei]))) ++ei;
      while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej]))) ++ej;
      const std::string na = a.substr(i, ei - i), nb = b.substr(j, ej - j);
      const std::size_t za = na.find_first_not_of('0'), zb = nb.find_first_not_of('0');
      const std::string ta = za == std::string::npos ? "" : na.substr(za);
      const std::string tb = zb == std::string::npos ? "" : nb.substr(zb);
      if (ta.size() != tb.size()) return ta.size() < tb.size();
      if (ta != tb) return ta < tb;
      i = ei;
      j = ej;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

/// The group a member's name puts it in: Hugging Face's output names.
std::string group_of(const std::string& name) {
  for (const char* g : {"encoder", "decoder", "cross"}) {
    if (name.starts_with(g)) return g;
  }
  return "";
}

/// Layer ordering of the groups: encoder, decoder, cross; then members in natural order.
int group_rank(const std::string& group) {
  return group == "encoder" ? 0 : group == "decoder" ? 1 : group == "cross" ? 2 : 0;
}

}  // namespace

Tensor checked_weights(const Tensor& weights, const std::string& where, std::string& warning) {
  warning.clear();
  if (weights.dim() != 3 && weights.dim() != 4) {
    throw InvalidInput(where + ": has rank " + std::to_string(weights.dim()) + " " +
                       shape_str(weights.shape()) +
                       "; a layer's attention weights are (batch, heads, queries, keys) or "
                       "(heads, queries, keys): pass one array per layer, or one stacked array "
                       "(layers, batch, heads, queries, keys)");
  }
  if (weights.type() != ElemType::f32 && weights.type() != ElemType::f64) {
    throw InvalidInput(where + ": holds " + std::string(to_string(weights.type())) +
                       "; attention weights are float32 or float64 (convert with "
                       ".float() / .astype(numpy.float32))");
  }
  for (const std::int64_t d : weights.shape()) {
    if (d < 1) {
      throw InvalidInput(where + ": has shape " + shape_str(weights.shape()) +
                         "; every dimension must be at least 1");
    }
  }
  Tensor w = weights.dim() == 3 ? weights.reshaped({1, weights.size(0), weights.size(1),
                                                    weights.size(2)})
                                : weights;
  const std::int64_t H = w.size(1), L = w.size(2), S = w.size(3);
  const std::int64_t rows = w.numel() / S;
  std::int64_t off = 0;
  double low = std::numeric_limits<double>::infinity();
  double high = -low;
  std::int64_t worst_row = -1;
  double worst = 0.0;
  const bool f32 = w.type() == ElemType::f32;
  const float* pf = f32 ? w.data<float>().data() : nullptr;
  const double* pd = f32 ? nullptr : w.data<double>().data();
  for (std::int64_t r = 0; r < rows; ++r) {
    double sum = 0.0;
    for (std::int64_t k = 0; k < S; ++k) {
      const std::int64_t at = r * S + k;
      const double v = f32 ? static_cast<double>(pf[at]) : pd[at];
      if (!std::isfinite(v)) {
        throw InvalidInput(where + ": weight at " + place(at, H, L, S) + " is " + number(v) +
                           "; attention weights must be finite (a row whose keys were all "
                           "masked is NaN in PyTorch: leave such rows out, or replace them "
                           "with zeros)");
      }
      if (v < 0.0) {
        throw InvalidInput(where + ": weight at " + place(at, H, L, S) + " is " + number(v) +
                           "; attention weights are at least 0 (are these scores or logits, "
                           "before the softmax? pass the weights after it)");
      }
      sum += v;
    }
    if (std::abs(sum - 1.0) > kRowSumTolerance) {
      ++off;
      low = std::min(low, sum);
      high = std::max(high, sum);
      if (std::abs(sum - 1.0) > worst) {
        worst = std::abs(sum - 1.0);
        worst_row = r;
      }
    }
  }
  if (off > 0) {
    warning = where + ": " + std::to_string(off) + " of " + std::to_string(rows) +
              " rows do not sum to 1 (sums from " + number(low) + " to " + number(high) +
              ", furthest at " + row_place(worst_row, H, L) +
              "); shown as stored, not renormalised (weights after dropout, or not a softmax)";
  }
  return w;
}

ForwardResult weights_result(const Layer& layer) {
  ForwardResult r;
  r.config = layer.info.config;
  const Tensor& w = *layer.torch_weights;
  r.N = w.size(0);
  r.H = w.size(1);
  r.L = w.size(2);
  r.S = w.size(3);
  r.Sx = r.S;
  r.E = r.config.embed_dim;
  r.hd = r.config.head_dim();
  r.weights = w;
  // q, k and v without columns: the pass's shapes with nothing in them, so that the result is not
  // taken for a reduced one (whose colours and legend describe blocks of cells).
  r.q = Tensor(w.type(), {r.N, r.H, r.L, 0});
  r.k = Tensor(w.type(), {r.N, r.H, r.Sx, 0});
  r.v = Tensor(w.type(), {r.N, r.H, r.Sx, 0});
  r.merged_mask = Tensor(w.type(), {0, 0, 0, 0});
  for (std::int64_t j = 0; j < r.Sx; ++j) r.columns.push_back({KeyKind::source, j});
  return r;
}

void build_weights_layers(Model& model, io::TensorMap all, const std::string& file) {
  const ModelIndex& index = model.index;
  model.layers.reserve(index.layers.size());
  for (std::size_t i = 0; i < index.layers.size(); ++i) {
    const LayerInfo& info = index.layers[i];
    const std::string member = std::to_string(i) + "/weights";
    const std::string where = file + ": " + layer_title(info, i);
    const auto it = all.find(member);
    if (it == all.end()) {
      throw InvalidInput(where + ": member \"" + member +
                         "\" is missing (the layer's attention weights); write the file with "
                         "mhaviz_capture.save_attentions()");
    }
    std::string warning;
    Tensor w = checked_weights(it->second, where + " " + member, warning);
    all.erase(it);
    const Config& c = info.config;
    if (w.shape() != Shape{c.batch(), c.num_heads, c.tgt_len, c.src_len}) {
      throw InvalidInput(where + ": member \"" + member + "\" has shape " + shape_str(w.shape()) +
                         " but the index says " +
                         shape_str({c.batch(), c.num_heads, c.tgt_len, c.src_len}) +
                         "; is the index the one written with this tensors file?");
    }
    if (!warning.empty()) model.warnings.push_back(warning);
    Layer layer;
    layer.info = info;
    layer.info.config.dtype = w.type() == ElemType::f64 ? DType::float64 : DType::float32;
    layer.problem.config = layer.info.config;
    layer.torch_weights = std::move(w);
    model.layers.push_back(std::move(layer));
  }
  if (!all.empty()) {
    throw InvalidInput(io::display_name(index.tensors) + ": member \"" + all.begin()->first +
                       "\" belongs to no layer of " + file +
                       " (a weights-only file holds \"<layer>/weights\" for layers 0 to " +
                       std::to_string(index.layers.size() - 1) + ")");
  }
}

Model weights_model(io::TensorMap tensors, const WeightsFileOptions& options,
                    const fs::path& source, std::uint64_t memory_limit) {
  const std::string file = io::display_name(source);
  if (tensors.empty()) {
    throw InvalidInput(file + ": holds no arrays; save one array of attention weights per layer "
                              "(np.savez(path, *attentions)) or one stacked array");
  }
  // The members as layers; a stacked member is split along its first dimension.
  struct Entry {
    std::string name;
    std::string group;
    Tensor weights;
  };
  std::vector<std::pair<std::string, Tensor>> members(tensors.begin(), tensors.end());
  tensors.clear();
  std::stable_sort(members.begin(), members.end(), [](const auto& a, const auto& b) {
    const int ga = group_rank(group_of(a.first)), gb = group_rank(group_of(b.first));
    return ga != gb ? ga < gb : natural_less(a.first, b.first);
  });
  std::vector<Entry> entries;
  for (auto& [name, t] : members) {
    const std::string group = group_of(name);
    // Stacked: rank 5, or rank 4 under a bare output name ("attentions", "cross_attentions").
    const bool bare = name == "attentions" || name == group + "_attentions";
    if (t.dim() == 5 || (t.dim() == 4 && bare)) {
      if (t.size(0) > static_cast<std::int64_t>(kMaxLayers)) {
        throw InvalidInput(file + ": member \"" + name + "\" stacks " +
                           std::to_string(t.size(0)) + " layers; mhaviz opens at most " +
                           std::to_string(kMaxLayers));
      }
      Shape one(t.shape().begin() + 1, t.shape().end());
      const std::int64_t count = t.size(0);
      const std::int64_t step = numel(one);
      const std::size_t bytes = static_cast<std::size_t>(step) * elem_size(t.type());
      for (std::int64_t l = 0; l < count; ++l) {
        Tensor part = Tensor::uninitialized(t.type(), one);
        const auto src = t.bytes().subspan(static_cast<std::size_t>(l) * bytes, bytes);
        std::copy(src.begin(), src.end(), part.bytes().begin());
        entries.push_back({name + "." + std::to_string(l), group, std::move(part)});
      }
    } else {
      entries.push_back({name, group, std::move(t)});
    }
    t = Tensor();
  }
  if (entries.size() > kMaxLayers) {
    throw InvalidInput(file + ": holds " + std::to_string(entries.size()) +
                       " layers; mhaviz opens at most " + std::to_string(kMaxLayers) +
                       " (save the layers you want to see)");
  }
  Model model;
  model.index.path = source;
  model.index.tensors = source;
  model.index.weights_only = true;
  model.index.caption = options.caption;
  model.index.tokens = options.tokens;
  double need = 0.0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    Entry& e = entries[i];
    LayerInfo info;
    info.name = e.name;
    info.group = e.group;
    info.self_attention = e.group != "cross";
    info.kv_heads = options.kv_heads;
    std::string warning;
    Tensor w = checked_weights(e.weights, file + ": member \"" + e.name + "\"", warning);
    e.weights = Tensor();
    if (!warning.empty()) model.warnings.push_back(warning);
    info.config = weights_config(w.size(0), w.size(1), w.size(2), w.size(3), w.type());
    need += weights_layer_bytes(info.config);
    if (need > static_cast<double>(memory_limit)) {
      throw InvalidInput(file + ": its layers need more than the memory limit of " +
                         format_bytes(memory_limit) +
                         "; save fewer layers or a shorter input, or raise the memory limit");
    }
    Layer layer;
    layer.info = info;
    layer.torch_weights = std::move(w);
    model.index.layers.push_back(info);
    model.layers.push_back(std::move(layer));
  }
  check_weights_layers(model.index, options.target_tokens);
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    model.layers[i].info = model.index.layers[i];
    model.layers[i].problem.config = model.index.layers[i].config;
  }
  return model;
}

Model read_weights_file(const fs::path& path, const WeightsFileOptions& options,
                        std::uint64_t memory_limit) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (!ec && size > memory_limit) {
    throw InvalidInput(io::display_name(path) + " is " + format_bytes(size) +
                       "; the memory limit is " + format_bytes(memory_limit) +
                       ". Save fewer layers or a shorter input, or raise the memory limit.");
  }
  return weights_model(io::read_tensor_file(path), options, path, memory_limit);
}

bool names_model_index(const fs::path& path) { return io::lowercase_extension(path) == ".json"; }

Model read_any_model(const fs::path& path, const WeightsFileOptions& options,
                     std::uint64_t memory_limit) {
  return names_model_index(path) ? read_model(path, memory_limit)
                                 : read_weights_file(path, options, memory_limit);
}

namespace {

/// Which part of two layers' shapes (N, H, L, S) differs, and what to do about it.
std::string shape_reason(const Tensor& a, const Tensor& b) {
  const std::string fix = "compare models of the same layers, heads and lengths";
  if (a.dim() != 4 || b.dim() != 4) return fix;
  const auto sides = [](const std::string& x, const std::string& y) {
    return "(A: " + x + ", B: " + y + ")";
  };
  if (a.size(0) != b.size(0)) {
    return "the batch elements differ " +
           sides(std::to_string(a.size(0)), std::to_string(b.size(0))) +
           ": save the same batch of inputs; " + fix;
  }
  if (a.size(1) != b.size(1)) {
    return "the heads differ " + sides(std::to_string(a.size(1)), std::to_string(b.size(1))) +
           ": compare two runs of one model; " + fix;
  }
  const auto lengths = [](const Tensor& t) {
    return std::to_string(t.size(2)) + " queries and " + std::to_string(t.size(3)) + " keys";
  };
  return "the inputs differ in length " + sides(lengths(a), lengths(b)) +
         ": compare two inputs of one length (pad or cut them to it); " + fix;
}

/// Adds |b - a| over `cells` values from `base` to `sum` and returns the largest (NaN counts as
/// the largest).
template <typename A, typename B>
double head_difference(const A* a, const B* b, std::int64_t base, std::int64_t cells,
                       double& sum) {
  double most = 0.0;
  double total = 0.0;
  for (std::int64_t i = base; i < base + cells; ++i) {
    const double d = std::abs(static_cast<double>(b[i]) - static_cast<double>(a[i]));
    if (!(d <= most)) most = d;
    total += d;
  }
  sum = total;
  return most;
}

double head_difference(const Tensor& a, const Tensor& b, std::int64_t base, std::int64_t cells,
                       double& sum) {
  const bool af = a.type() == ElemType::f32, bf = b.type() == ElemType::f32;
  const bool ad = a.type() == ElemType::f64, bd = b.type() == ElemType::f64;
  if (af && bf) return head_difference(a.data<float>().data(), b.data<float>().data(), base, cells, sum);
  if (ad && bd) return head_difference(a.data<double>().data(), b.data<double>().data(), base, cells, sum);
  if (af && bd) return head_difference(a.data<float>().data(), b.data<double>().data(), base, cells, sum);
  if (ad && bf) return head_difference(a.data<double>().data(), b.data<float>().data(), base, cells, sum);
  double most = 0.0;
  sum = 0.0;
  for (std::int64_t i = base; i < base + cells; ++i) {
    const double d = std::abs(b.value(i) - a.value(i));
    if (!(d <= most)) most = d;
    sum += d;
  }
  return most;
}

/// The text of a token in a note: quoted, cut after 24 characters.
std::string quoted(const std::string& token) {
  return "\"" + (token.size() > 24 ? token.substr(0, 24) + "..." : token) + "\"";
}

}  // namespace

WeightsDifference weights_difference(const Model& ma, std::span<const Tensor> a, const Model& mb,
                                     std::span<const Tensor> b, std::int64_t batch,
                                     const std::string& what, const std::atomic<bool>* cancel) {
  if (a.size() != b.size()) {
    throw InvalidInput(what + ": it has " + std::to_string(a.size()) + " layers and the model " +
                       "compared with it " + std::to_string(b.size()) +
                       "; compare the attentions of one model (the same layers) on two inputs "
                       "of the same length");
  }
  WeightsDifference out;
  out.batch = batch;
  double worst = -1.0;
  for (std::size_t l = 0; l < a.size(); ++l) {
    if (a[l].shape() != b[l].shape()) {
      throw InvalidInput(what + ": " + layer_title(ma.layers[l].info, l) + " has shape " +
                         shape_str(a[l].shape()) + " and " + layer_title(mb.layers[l].info, l) +
                         " of the model compared with it " + shape_str(b[l].shape()) + "; " +
                         shape_reason(a[l], b[l]));
    }
    const std::int64_t N = a[l].size(0), H = a[l].size(1);
    if (batch < 0 || batch >= N) {
      throw InvalidInput(what + ": batch element " + std::to_string(batch) + " does not exist (" +
                         std::to_string(N) + " batch elements)");
    }
    const std::int64_t cells = a[l].size(2) * a[l].size(3);
    std::vector<double> largest(static_cast<std::size_t>(H)), mean(static_cast<std::size_t>(H));
    for (std::int64_t h = 0; h < H; ++h) {
      if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) throw Cancelled();
      double sum = 0.0;
      const double most = head_difference(a[l], b[l], (batch * H + h) * cells, cells, sum);
      largest[static_cast<std::size_t>(h)] = most;
      mean[static_cast<std::size_t>(h)] = sum / static_cast<double>(cells);
      if (!(most <= worst)) {
        worst = most;
        out.worst_layer = l;
        out.worst_head = h;
      }
    }
    out.largest.push_back(std::move(largest));
    out.mean.push_back(std::move(mean));
  }
  out.worst = std::max(worst, 0.0);
  return out;
}

std::vector<std::string> comparison_notes(const Model& ma, const Model& mb) {
  std::vector<std::string> notes;
  const std::vector<std::string>& ta = ma.index.tokens;
  const std::vector<std::string>& tb = mb.index.tokens;
  if (!ta.empty() && !tb.empty()) {
    const std::size_t both = std::min(ta.size(), tb.size());
    std::size_t differ = 0, first = both;
    for (std::size_t i = 0; i < both; ++i) {
      if (ta[i] == tb[i]) continue;
      ++differ;
      first = std::min(first, i);
    }
    if (differ > 0) {
      notes.push_back("the tokens differ at " + std::to_string(differ) + " of " +
                      std::to_string(both) + " positions (first at position " +
                      std::to_string(first) + ": " + quoted(ta[first]) + " in A, " +
                      quoted(tb[first]) + " in B); the maps are compared position by position");
    }
  } else if (ta.empty() != tb.empty()) {
    notes.push_back(std::string(ta.empty() ? "A" : "B") +
                    " has no tokens (its positions are numbered) and " +
                    (ta.empty() ? "B" : "A") + " has " +
                    std::to_string(std::max(ta.size(), tb.size())) +
                    "; the maps are compared position by position");
  }
  const std::size_t layers = std::min(ma.layers.size(), mb.layers.size());
  std::size_t named = 0, first = layers;
  for (std::size_t l = 0; l < layers; ++l) {
    if (ma.layers[l].info.name == mb.layers[l].info.name &&
        ma.layers[l].info.call == mb.layers[l].info.call) {
      continue;
    }
    ++named;
    first = std::min(first, l);
  }
  if (named > 0) {
    notes.push_back("the layers' names differ at " + std::to_string(named) + " of " +
                    std::to_string(layers) + " layers (first: layer " + std::to_string(first) +
                    " is " + ma.layers[first].info.name + " in A, " +
                    mb.layers[first].info.name + " in B); layers are compared by position");
  }
  return notes;
}

}  // namespace mhaviz::model
