#include "bench_model_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/plan/problem.hpp"
#include "mhaviz/core/spec/inputs.hpp"
#include "mhaviz/core/spec/params.hpp"

namespace mhaviz::bench {

namespace {

/// "\"t0\", \"t1\", …": the labels of `tokens` positions, as JSON strings. Appended piece by
/// piece: GCC 12 warns (-Wstringop-overflow, falsely) on "," + std::string(...).
std::string tokenLabels(std::int64_t tokens) {
  std::string text;
  for (std::int64_t t = 0; t < tokens; ++t) {
    if (t > 0) text.append(", ");
    text.append("\"t").append(std::to_string(t)).append("\"");
  }
  return text;
}

/// Writes DIR/NAME.npz and the index DIR/NAME.json.
std::filesystem::path writeFiles(const std::filesystem::path& dir, const std::string& name,
                                 const io::TensorMap& tensors, const std::string& index) {
  std::filesystem::create_directories(dir);
  io::write_tensor_file(dir / (name + ".npz"), tensors);
  const std::filesystem::path indexPath = dir / (name + ".json");
  io::write_file_atomic(indexPath, std::as_bytes(std::span(index.data(), index.size())));
  return indexPath;
}

/// Version 4: layer i's weights (1, heads, tokens, tokens), each row a softmax of scores that
/// fall off with the distance from the query (a width per head, so the heads differ) plus
/// noise from a fixed-seed xorshift.
std::filesystem::path writeWeightsModel(const std::filesystem::path& dir, const BenchModel& m) {
  io::TensorMap tensors;
  std::string layers;
  std::uint64_t state = 0x9E3779B97F4A7C15ULL ^ (m.seed * 0xD1B54A32D192ED03ULL);
  const auto noise = [&state] {  // uniform in [0, 1)
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<double>(state >> 11) * 0x1.0p-53;
  };
  const std::int64_t T = m.tokens;
  std::vector<double> row(static_cast<std::size_t>(T));
  for (std::int64_t i = 0; i < m.layers; ++i) {
    std::vector<float> w(static_cast<std::size_t>(m.heads * T * T));
    for (std::int64_t h = 0; h < m.heads; ++h) {
      const double width = 1.0 + static_cast<double>((h * 7 + i * 3) % 64);
      for (std::int64_t q = 0; q < T; ++q) {
        double top = -1e300;
        for (std::int64_t k = 0; k < T; ++k) {
          const double s = -std::abs(static_cast<double>(q - k)) / width + 3.0 * noise();
          row[static_cast<std::size_t>(k)] = s;
          top = std::max(top, s);
        }
        double sum = 0;
        for (double& v : row) sum += (v = std::exp(v - top));
        float* out = w.data() + (h * T + q) * T;
        for (std::int64_t k = 0; k < T; ++k)
          out[k] = static_cast<float>(row[static_cast<std::size_t>(k)] / sum);
      }
    }
    tensors[std::to_string(i) + "/weights"] = Tensor::from<float>({1, m.heads, T, T}, std::move(w));
    if (i > 0) layers += ",\n";
    layers += "{\"name\": \"encoder.layers." + std::to_string(i) + ".attn\", \"shape\": [1, " +
              std::to_string(m.heads) + ", " + std::to_string(T) + ", " + std::to_string(T) +
              "], \"dtype\": \"float32\"}";
  }
  const std::string tokens = tokenLabels(T);
  const std::string index = "{\"format\": \"mhaviz-model\", \"version\": 4, \"tensors\": \"" +
                            m.name + ".npz\",\n\"tokens\": [" + tokens + "],\n\"layers\": [\n" +
                            layers + "\n]}\n";
  return writeFiles(dir, m.name, tensors, index);
}

}  // namespace

std::filesystem::path writeBenchModel(const std::filesystem::path& dir, const BenchModel& model) {
  if (model.kind == BenchModelKind::weights) return writeWeightsModel(dir, model);
  BenchModel m = model;
  const bool vision = m.kind == BenchModelKind::vision;
  if (vision) m.tokens = 1 + m.grid * m.grid;  // [CLS], then the patches row by row
  io::TensorMap tensors;
  std::string layers;
  Tensor x;  // the residual stream (L, 1, E): the next layer's query, key and value
  for (std::int64_t i = 0; i < m.layers; ++i) {
    Config c;
    c.embed_dim = m.embed;
    c.num_heads = m.heads;
    c.batch_size = 1;
    c.tgt_len = m.tokens;
    c.src_len = m.tokens;
    c.seed = static_cast<std::uint64_t>(100 + i);  // random weights, PyTorch's init scheme
    Problem p = make_problem(c);
    if (i == 0) x = p.inputs.query;
    p.inputs.query = x;
    p.inputs.key = x;
    p.inputs.value = x;
    // "PyTorch's outputs" are the core's own forward pass here (no torch at bench time), so
    // `mhaviz-cli model --check` agrees by construction.
    const ForwardResult r = forward(c, p.params, p.inputs);
    const std::string k = std::to_string(i) + "/";
    for (const std::string_view key : kStateDictKeys) {
      if (const auto* t = p.params.find(key); t != nullptr && t->has_value()) {
        tensors[k + std::string(key)] = **t;
      }
    }
    tensors[k + "query"] = x;
    tensors[k + "key"] = x;
    tensors[k + "value"] = x;
    tensors[k + "attn_output"] = r.attn_output;
    if (r.attn_output_weights) tensors[k + "attn_output_weights"] = *r.attn_output_weights;
    Tensor next = x;  // x + attention: a residual stream, so that later layers see structure
    const std::span<float> out = next.data<float>();
    const std::span<const float> add = r.attn_output.data<float>();
    for (std::size_t j = 0; j < out.size(); ++j) out[j] += add[j];
    x = next;

    if (i > 0) layers += ",\n";
    layers += "{\"name\": \"encoder.layers." + std::to_string(i) +
              ".self_attn\", \"call\": 0, \"self_attention\": true, \"config\": " +
              io::config_to_json(c) + "}";
  }
  std::string head;
  if (vision) {
    // The image the model saw: (1, 3, side, side), smooth stripes per channel (shown stretched
    // to 0..255: the file has no separate picture). The layers are labelled from the grid.
    const std::int64_t side = m.grid * m.patch;
    std::vector<float> image(static_cast<std::size_t>(3 * side * side));
    for (std::int64_t c = 0; c < 3; ++c)
      for (std::int64_t y = 0; y < side; ++y)
        for (std::int64_t px = 0; px < side; ++px)
          image[static_cast<std::size_t>((c * side + y) * side + px)] = static_cast<float>(
              std::sin(0.03 * static_cast<double>(px) * static_cast<double>(c + 1)) +
              std::cos(0.02 * static_cast<double>(y) * static_cast<double>(3 - c)));
    tensors["image/input"] = Tensor::from<float>({1, 3, side, side}, std::move(image));
    const std::string s = std::to_string(side);
    const std::string g = std::to_string(m.grid);
    const std::string p = std::to_string(m.patch);
    head = "\"version\": 3, \"image\": {\"size\": [" + s + ", " + s + "], \"patch_size\": [" +
           p + ", " + p + "], \"grid\": [" + g + ", " + g +
           "], \"channels\": 3, \"prefix_tokens\": [\"[CLS]\"]},\n";
  } else {
    const std::string tokens = tokenLabels(m.tokens);
    head = "\"version\": 1, \"tokens\": [" + tokens + "],\n";
  }
  const std::string index = "{\"format\": \"mhaviz-model\", " + head + "\"tensors\": \"" + m.name +
                            ".npz\",\n\"layers\": [\n" + layers + "\n]}\n";
  return writeFiles(dir, m.name, tensors, index);
}

}  // namespace mhaviz::bench
