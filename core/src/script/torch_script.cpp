#include "mhaviz/core/script/torch_script.hpp"

#include <charconv>
#include <map>
#include <string_view>

#include "mhaviz/core/spec/params.hpp"
#include "torch_script_template.hpp"

namespace mhaviz {

namespace {

std::string pyBool(bool b) { return b ? "True" : "False"; }

std::string pyOptInt(const std::optional<std::int64_t>& v) {
  return v ? std::to_string(*v) : "None";
}

/// Shortest text that reads back as the same double, always with a '.' or an exponent.
std::string pyFloat(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, ec == std::errc() ? end : buf);
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

/// A Python string literal (the names written here are ASCII file and tensor names).
std::string pyString(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

void replaceAll(std::string& text, const std::string& marker, const std::string& value) {
  for (std::size_t at = text.find(marker); at != std::string::npos;
       at = text.find(marker, at + value.size())) {
    text.replace(at, marker.size(), value);
  }
}

}  // namespace

io::TensorMap torch_data(const Problem& problem, const ForwardResult& result) {
  io::TensorMap data;
  for (const std::string_view key : kStateDictKeys) {
    if (const std::optional<Tensor>* p = problem.params.find(key); p != nullptr && p->has_value()) {
      data.emplace(std::string(key), **p);
    }
  }
  const Inputs& in = problem.inputs;
  data.emplace("query", in.query);
  data.emplace("key", in.key);
  data.emplace("value", in.value);
  const std::pair<const char*, const std::optional<Tensor>*> optional[] = {
      {"attn_mask", &in.attn_mask},
      {"key_padding_mask", &in.key_padding_mask},
      {"static_k", &in.static_k},
      {"static_v", &in.static_v}};
  for (const auto& [name, tensor] : optional) {
    if (tensor->has_value()) data.emplace(name, **tensor);
  }
  data.emplace("mhaviz.attn_output", result.attn_output);
  if (result.attn_output_weights) {
    data.emplace("mhaviz.attn_output_weights", *result.attn_output_weights);
  }
  return data;
}

std::string torch_script(const Config& c, const io::TensorMap& data,
                         const std::string& data_file_name, const std::string& script_file_name,
                         const std::string& version) {
  std::string keys;
  for (const std::string_view key : kStateDictKeys) {
    if (data.count(std::string(key)) != 0) keys += (keys.empty() ? "" : ", ") + pyString(key);
  }
  const bool f64 = c.dtype == DType::float64;
  const std::map<std::string, std::string> values = {
      {"@VERSION@", version},
      {"@DATA_NAME@", data_file_name},
      {"@SCRIPT_NAME@", script_file_name},
      {"@DATA_LITERAL@", pyString(data_file_name)},
      {"@DTYPE@", f64 ? "float64" : "float32"},
      {"@EMBED_DIM@", std::to_string(c.embed_dim)},
      {"@NUM_HEADS@", std::to_string(c.num_heads)},
      {"@DROPOUT@", pyFloat(c.dropout)},
      {"@BIAS@", pyBool(c.bias)},
      {"@ADD_BIAS_KV@", pyBool(c.add_bias_kv)},
      {"@ADD_ZERO_ATTN@", pyBool(c.add_zero_attn)},
      {"@KDIM@", pyOptInt(c.kdim)},
      {"@VDIM@", pyOptInt(c.vdim)},
      {"@BATCH_FIRST@", pyBool(c.batch_first)},
      {"@TRAINING@", pyBool(c.training)},
      {"@NEED_WEIGHTS@", pyBool(c.need_weights)},
      {"@AVERAGE_ATTN_WEIGHTS@", pyBool(c.average_attn_weights)},
      {"@IS_CAUSAL@", pyBool(c.is_causal)},
      {"@GRAD_MODE@", std::string(to_string(c.grad_mode))},
      {"@SELF_ATTENTION@", pyBool(c.input_spec.self_attention)},
      {"@SOFTCAP@", c.attn_logit_softcapping ? pyFloat(*c.attn_logit_softcapping) : "None"},
      {"@SEMANTICS@", std::string(to_string(c.semantics))},
      {"@BATCHED@", pyBool(c.batched())},
      {"@TOLERANCE@", f64 ? "rtol=1e-10, atol=1e-10" : "rtol=1e-4, atol=1e-5"},
      {"@STATE_DICT_KEYS@", keys},
  };
  std::string text = detail::kTorchScriptTemplate;
  for (const auto& [marker, value] : values) replaceAll(text, marker, value);
  return text;
}

}  // namespace mhaviz
