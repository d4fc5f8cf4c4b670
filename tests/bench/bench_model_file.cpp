#include "bench_model_file.hpp"

#include <cstddef>
#include <span>
#include <string>

#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/plan/problem.hpp"
#include "mhaviz/core/spec/inputs.hpp"
#include "mhaviz/core/spec/params.hpp"

namespace mhaviz::bench {

std::filesystem::path writeBenchModel(const std::filesystem::path& dir, const BenchModel& m) {
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
  std::string tokens;
  for (std::int64_t t = 0; t < m.tokens; ++t) {
    tokens += (t > 0 ? ", \"t" : "\"t") + std::to_string(t) + "\"";
  }
  const std::string index = "{\"format\": \"mhaviz-model\", \"version\": 1, \"tensors\": \"" +
                            m.name + ".npz\",\n\"tokens\": [" + tokens + "],\n\"layers\": [\n" +
                            layers + "\n]}\n";
  std::filesystem::create_directories(dir);
  io::write_tensor_file(dir / (m.name + ".npz"), tensors);
  const std::filesystem::path indexPath = dir / (m.name + ".json");
  io::write_file_atomic(indexPath, std::as_bytes(std::span(index.data(), index.size())));
  return indexPath;
}

}  // namespace mhaviz::bench
