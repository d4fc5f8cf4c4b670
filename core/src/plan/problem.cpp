#include "mhaviz/core/plan/problem.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/gen/inputs.hpp"
#include "mhaviz/core/gen/mask_pattern.hpp"
#include "mhaviz/core/gen/masks.hpp"
#include "mhaviz/core/gen/weights.hpp"
#include "mhaviz/core/io/suggest.hpp"

namespace mhaviz {

namespace {

/// The config settings that fix a tensor's expected shape, as "embed_dim=8, kdim=4".
std::string sizes_for(const Config& c, std::string_view name) {
  const std::string e = "embed_dim=" + std::to_string(c.embed_dim);
  if (name == "query" || name == "key" || name == "value") {
    std::string s = name == "query" ? "tgt_len=" + std::to_string(c.tgt_len)
                                    : "src_len=" + std::to_string(c.src_len);
    if (c.batched()) {
      s += ", batch_size=" + std::to_string(*c.batch_size);
      if (c.batch_first) s += ", batch_first=true";
    } else {
      s += ", batch_size=null (unbatched)";
    }
    if (name == "key") return s + ", kdim=" + std::to_string(c.k_dim());
    if (name == "value") return s + ", vdim=" + std::to_string(c.v_dim());
    return s + ", " + e;
  }
  if (name == "k_proj_weight") return e + ", kdim=" + std::to_string(c.k_dim());
  if (name == "v_proj_weight") return e + ", vdim=" + std::to_string(c.v_dim());
  return e;
}

/// PyTorch's layout of query/key/value for this config.
Shape input_shape(const Config& c, std::string_view name) {
  const std::int64_t len = name == "query" ? c.tgt_len : c.src_len;
  const std::int64_t width =
      name == "query" ? c.embed_dim : (name == "key" ? c.k_dim() : c.v_dim());
  if (!c.batched()) return {len, width};
  if (c.batch_first) return {*c.batch_size, len, width};
  return {len, *c.batch_size, width};
}

/// Why a state_dict key has no place in this config, and what would give it one.
std::string why_absent(const Config& c, std::string_view key) {
  if (key == "in_proj_weight") {
    return "the config uses separate q/k/v_proj_weight because kdim=" + std::to_string(c.k_dim()) +
           ", vdim=" + std::to_string(c.v_dim()) +
           " differ from embed_dim=" + std::to_string(c.embed_dim) +
           "; in_proj_weight is used only when kdim == vdim == embed_dim";
  }
  if (key == "q_proj_weight" || key == "k_proj_weight" || key == "v_proj_weight") {
    return "the config uses the packed in_proj_weight because kdim == vdim == embed_dim (" +
           std::to_string(c.embed_dim) + "); set kdim or vdim to another size to use " +
           std::string(key);
  }
  if (key == "in_proj_bias" || key == "out_proj.bias") {
    return "the config has bias=false; set bias=true to use it";
  }
  if (key == "bias_k" || key == "bias_v") {
    return "the config has add_bias_kv=false; set add_bias_kv=true to use it";
  }
  return "this config has no such parameter";
}

std::string accepted_names() {
  std::string s;
  for (const auto n : kInputTensorNames) s += (s.empty() ? "" : ", ") + std::string(n);
  for (const auto n : kStateDictKeys) s += ", " + std::string(n);
  return s;
}

[[noreturn]] void unknown_name(std::string_view source, const std::string& name) {
  std::vector<std::string_view> names(kInputTensorNames.begin(), kInputTensorNames.end());
  names.insert(names.end(), kStateDictKeys.begin(), kStateDictKeys.end());
  std::string message = std::string(source) + ": unknown tensor \"" + name + "\"";
  if (const auto best = io::closest_name(name, names)) {
    message += " (did you mean \"" + std::string(*best) + "\"?)";
  }
  throw InvalidInput(message + "; accepted names are " + accepted_names());
}

ElemType float_type(DType dtype) { return dtype == DType::float64 ? ElemType::f64 : ElemType::f32; }

/// A floating tensor in the config's dtype; non-floating tensors are refused.
Tensor as_floating(const Tensor& t, const Config& c, std::string_view source,
                   const std::string& name) {
  if (!t.is_floating()) {
    throw InvalidInput(std::string(source) + ": \"" + name +
                       "\" must be a floating-point tensor (float32 or float64), got " +
                       std::string(to_string(t.type())));
  }
  return t.to(float_type(c.dtype));
}

void check_shape(const Tensor& t, const Shape& expected, const Config& c, std::string_view source,
                 const std::string& name) {
  if (t.shape() != expected) {
    throw InvalidInput(std::string(source) + ": \"" + name + "\" has shape " +
                       shape_str(t.shape()) + " but " + sizes_for(c, name) + " needs " +
                       shape_str(expected));
  }
}

}  // namespace

namespace {

Problem problem_of(const Config& config, const io::TensorMap& tensors, std::string_view source_name,
                   bool pattern_masks) {
  validate_config(config);
  gen::check_labels(config);
  // What `tensors` replaces in full is not generated first (a captured model layer brings every
  // parameter and input: generating them was most of reading it); the specs are checked as the
  // generators check them.
  const bool all_params = std::ranges::all_of(kStateDictKeys, [&](std::string_view key) {
    return !expected_param_shape(config, key) || tensors.contains(std::string(key));
  });
  const bool all_inputs =
      tensors.contains("query") && tensors.contains("key") && tensors.contains("value");
  if (all_params) gen::check_weight_spec(config);
  if (all_inputs) gen::check_input_spec(config);
  Problem problem{config, all_params ? Params{} : gen::make_params(config),
                  all_inputs ? Inputs{} : gen::make_inputs(config)};
  Inputs& in = problem.inputs;
  // Generated masks; a mask in `tensors` replaces its generated one (and its settings).
  if (!tensors.contains("attn_mask")) {
    if (pattern_masks || !gen::MaskPattern::of(config)) {
      in.attn_mask = gen::make_attn_mask(config);
    } else {  // checked as make_attn_mask checks it, read row by row by reduced_weights
      gen::check_attn_mask_spec(config);
      gen::check_mask_pattern(config);
    }
  }
  if (!tensors.contains("key_padding_mask"))
    in.key_padding_mask = gen::make_key_padding_mask(config);
  for (const auto& [name, tensor] : tensors) {
    if (name == "query" || name == "key" || name == "value") {
      Tensor t = as_floating(tensor, config, source_name, name);
      check_shape(t, input_shape(config, name), config, source_name, name);
      (name == "query" ? in.query : (name == "key" ? in.key : in.value)) = std::move(t);
    } else if (name == "attn_mask" || name == "key_padding_mask") {
      // Bool and uint8 masks are kept as they are; validate() has PyTorch's dtype messages.
      Tensor t = tensor.is_floating() ? tensor.to(float_type(config.dtype)) : tensor;
      (name == "attn_mask" ? in.attn_mask : in.key_padding_mask) = std::move(t);
    } else if (name == "static_k" || name == "static_v") {
      (name == "static_k" ? in.static_k : in.static_v) =
          as_floating(tensor, config, source_name, name);
    } else if (std::optional<Tensor>* slot = problem.params.find(name)) {
      const std::optional<Shape> expected = expected_param_shape(config, name);
      if (!expected) {
        throw InvalidInput(
            std::string(source_name) + ": \"" + name +
            "\" is not a parameter of this configuration: " + why_absent(config, name));
      }
      Tensor t = as_floating(tensor, config, source_name, name);
      check_shape(t, *expected, config, source_name, name);
      *slot = std::move(t);
    } else {
      unknown_name(source_name, name);
    }
  }
  // "inputs": {"self_attention": true}: key and value ARE the query, one tensor as PyTorch's
  // `query is key is value` (what decides its fast path), also when the tensors come from a
  // file (the capture helper writes the key and value of such a call as copies of the query).
  if (config.input_spec.self_attention && tensors.contains("query")) {
    for (const char* name : {"key", "value"}) {
      const auto it = tensors.find(name);
      if (it == tensors.end()) continue;
      const Tensor& t = (std::string_view(name) == "key") ? in.key : in.value;
      const Tensor& query = in.query;
      const std::span<const std::byte> a = t.bytes(), b = query.bytes();
      if (t.shape() != query.shape() || !std::equal(a.begin(), a.end(), b.begin(), b.end())) {
        throw InvalidInput(std::string(source_name) + ": \"" + name +
                           "\" differs from \"query\", but inputs.self_attention says key and "
                           "value are the query; set inputs.self_attention to false");
      }
    }
    in.key = in.query;
    in.value = in.query;
  }
  return problem;
}

}  // namespace

Problem make_problem(const Config& config, const io::TensorMap& tensors,
                     std::string_view source_name) {
  return problem_of(config, tensors, source_name, true);
}

Problem make_reduced_problem(const Config& config, const io::TensorMap& tensors,
                             std::string_view source_name) {
  return problem_of(config, tensors, source_name, false);
}

std::string nonfinite_warning(const io::TensorMap& tensors, std::string_view source_name) {
  std::string listed;
  for (const auto& [name, tensor] : tensors) {
    if (!tensor.is_floating()) continue;
    const bool mask = name == "attn_mask" || name == "key_padding_mask";
    std::int64_t nans = 0;
    std::int64_t infs = 0;
    for (std::int64_t i = 0; i < tensor.numel(); ++i) {
      const double v = tensor.value(i);
      if (std::isnan(v)) ++nans;
      if (std::isinf(v) && !(mask && v < 0)) ++infs;  // -inf in a mask means "masked"
    }
    if (nans == 0 && infs == 0) continue;
    // Appended piece by piece: GCC 12 gives a false -Wrestrict on `"literal" + std::string&&`.
    if (!listed.empty()) listed += ", ";
    listed += "\"" + name + "\" holds ";
    if (nans > 0) listed += std::to_string(nans) + " NaN";
    if (nans > 0 && infs > 0) listed += " and ";
    if (infs > 0) listed += std::to_string(infs) + " infinite";
    listed += nans + infs == 1 ? " value" : " values";
  }
  if (listed.empty()) return {};
  return std::string(source_name) + ": " + listed +
         "; PyTorch propagates NaN and Inf, so every output they reach is NaN. Replace them "
         "(e.g. torch.nan_to_num) to see numbers.";
}

}  // namespace mhaviz
