// The model index (docs/capture-and-models.md): parsing, and what loading it will cost.

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "image_index.hpp"
#include "index_json.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/model/model.hpp"
#include "mhaviz/core/model/weights_only.hpp"
#include "model_steps.hpp"
#include "weights_index.hpp"

namespace mhaviz::model {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const json& member(const json& object, const char* key, const std::string& where, const char* fix) {
  const auto it = object.find(key);
  if (it == object.end()) fail(where, std::string("key \"") + key + "\" is missing; " + fix);
  return *it;
}

bool optional_bool(const json& layer, const char* key, const std::string& where) {
  const auto it = layer.find(key);
  if (it == layer.end()) return false;
  if (!it->is_boolean()) fail(where, std::string("key \"") + key + "\" must be true or false");
  return it->get<bool>();
}

LayerInfo parse_layer(const json& entry, std::size_t position, const std::string& source) {
  const std::string at = source + ": layer " + std::to_string(position);
  if (!entry.is_object()) fail(at, "must be an object with \"name\" and \"config\"");
  LayerInfo info;
  const json& name =
      member(entry, "name", at, "give the module's name, e.g. \"encoder.layers.0.self_attn\"");
  if (!name.is_string()) fail(at, "key \"name\" must be a string");
  info.name = name.get<std::string>();
  const std::string where = source + ": " + layer_title(info, position);
  if (const auto it = entry.find("call"); it != entry.end()) {
    if (!it->is_number_integer() || it->get<std::int64_t>() < 0)
      fail(where, "key \"call\" must be a non-negative integer");
    info.call = it->get<std::int64_t>();
  }
  if (const auto it = entry.find("step"); it != entry.end()) {
    if (!it->is_number_integer() || it->get<std::int64_t>() < 0)
      fail(where, "key \"step\" must be a non-negative integer (the call's generation step)");
    info.step = it->get<std::int64_t>();
  }
  info.self_attention = optional_bool(entry, "self_attention", where);
  info.fused = optional_bool(entry, "fused", where);
  const json& config =
      member(entry, "config", where, "re-capture the model with mhaviz_capture.capture_model()");
  if (!config.is_object()) fail(where, "key \"config\" must be a configuration object");
  info.config = io::parse_config_json(config.dump(), where + " config");
  try {
    validate_config(info.config);
  } catch (const InvalidInput& e) {
    fail(where, e.what());
  }
  return info;
}

/// Bytes of what the tensors file holds for one layer and of its kept weights.
/// Counted in double: absurd sizes saturate instead of wrapping around.
double layer_bytes(const Config& c) {
  const auto n = static_cast<double>(c.batch());
  const auto h = static_cast<double>(c.num_heads);
  const auto l = static_cast<double>(c.tgt_len);
  const auto s = static_cast<double>(c.src_len);
  const double sx = s + static_cast<double>(c.appended_keys());  // S′ (Config::key_columns)
  const auto e = static_cast<double>(c.embed_dim);
  const double kv = static_cast<double>(c.k_dim()) + static_cast<double>(c.v_dim());
  double elems = 4.0 * e * (e + kv) + 4.0 * e;  // the state_dict, at most
  elems += n * (l * e + s * kv);                // q, k, v
  elems += n * h * l * s;                       // the largest attn_mask
  elems += n * s;                               // key_padding_mask
  elems += n * l * e;                           // attn_output
  elems += n * h * l * s;                       // attn_output_weights
  elems += n * h * l * sx;                      // the computed weights the model keeps
  return elems * static_cast<double>(c.element_bytes());
}

}  // namespace

std::string layer_title(const LayerInfo& layer, std::size_t position) {
  const std::string call = layer.call > 0 ? ", call " + std::to_string(layer.call) : "";
  const std::string step = layer.step >= 0 ? ", step " + std::to_string(layer.step) : "";
  return "layer " + std::to_string(position) + " (" + layer.name + call + step + ")";
}

std::size_t layer_number(const ModelIndex& index, std::size_t position) {
  if (position >= index.layers.size()) return position;
  const std::int64_t step = index.layers[position].step;
  if (index.steps <= 0 || step < 0) return position;
  std::size_t first = position;  // the step's first call (its layers come together, in order)
  while (first > 0 && index.layers[first - 1].step == step) --first;
  return position - first;
}

std::string layer_title(const ModelIndex& index, std::size_t position) {
  if (position >= index.layers.size()) return "layer " + std::to_string(position);
  return layer_title(index.layers[position], layer_number(index, position));
}

bool is_model_index(std::string_view text) {
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return false;
  const auto it = doc.find("format");
  return it != doc.end() && it->is_string() && it->get<std::string>() == "mhaviz-model";
}

ModelIndex parse_model_index(std::string_view text, const fs::path& path) {
  const std::string source = io::display_name(path);
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for a number like 1e400
    fail(source, std::string("not valid JSON (") + e.what() + ")");
  }
  if (!doc.is_object())
    fail(source, "a model index must be a JSON object (docs/capture-and-models.md)");
  const json& format = member(doc, "format", source,
                              "a model index starts with \"format\": \"mhaviz-model\"; write it "
                              "with mhaviz_capture.capture_model()");
  if (format != "mhaviz-model") {
    fail(source,
         "key \"format\" must be \"mhaviz-model\" (is this a configuration file? open it "
         "with --config instead)");
  }
  const json& version = member(doc, "version", source, "add \"version\": 1");
  if (version != 1 && version != 2 && version != 3 && version != 4) {
    fail(source, "model file version " + version.dump() +
                     " is not supported; this mhaviz reads versions 1 to 4 (re-capture the "
                     "model with this mhaviz's mhaviz_capture module)");
  }
  ModelIndex index;
  index.path = path;
  index.weights_only = version == 4;
  const json& tensors =
      member(doc, "tensors", source, "name the tensors file, e.g. \"tensors\": \"model.npz\"");
  if (!tensors.is_string() || tensors.get<std::string>().empty())
    fail(source, "key \"tensors\" must be the tensors file's name, e.g. \"model.npz\"");
  index.tensors = path.parent_path() / fs::path(tensors.get<std::string>());
  if (const auto it = doc.find("caption"); it != doc.end()) {
    if (!it->is_string()) fail(source, "key \"caption\" must be a string");
    index.caption = it->get<std::string>();
  }
  if (const auto it = doc.find("tokens"); it != doc.end())
    index.tokens = string_list(*it, source, "tokens");
  const json& layers = member(doc, "layers", source, "list the captured calls under \"layers\"");
  if (!layers.is_array() || layers.empty())
    fail(source, "key \"layers\" must be a non-empty list of layers");
  if (layers.size() > kMaxLayers) {
    fail(source, "lists " + std::to_string(layers.size()) + " layers; mhaviz opens at most " +
                     std::to_string(kMaxLayers) +
                     " (capture a part of the model: pass that submodule to capture_model())");
  }
  if (const auto it = doc.find("steps"); it != doc.end()) {
    if (!it->is_number_integer())
      fail(source, "key \"steps\" must be the number of generation steps, e.g. \"steps\": 4");
    const auto steps = it->get<std::int64_t>();
    if (steps < 1) {
      fail(source, "key \"steps\" is " + std::to_string(steps) +
                       ": a generation capture holds at least one step (one call of the model "
                       "in the generation loop); run the loop inside the with block of "
                       "mhaviz_capture.capture_generation()");
    }
    if (steps > kMaxSteps) {
      fail(source, "key \"steps\" is " + std::to_string(steps) + "; mhaviz opens at most " +
                       std::to_string(kMaxSteps) + " generation steps");
    }
    index.steps = steps;
  }
  index.layers.reserve(layers.size());
  if (index.weights_only) {
    std::int64_t kv_heads = 0;
    if (const auto it = doc.find("num_key_value_heads"); it != doc.end()) {
      if (!it->is_number_integer() || it->get<std::int64_t>() < 1)
        fail(source, "key \"num_key_value_heads\" must be a positive integer");
      kv_heads = it->get<std::int64_t>();
    }
    std::vector<std::string> target_tokens;
    if (const auto it = doc.find("target_tokens"); it != doc.end())
      target_tokens = string_list(*it, source, "target_tokens");
    for (std::size_t i = 0; i < layers.size(); ++i)
      index.layers.push_back(parse_weights_layer(layers[i], i, source, kv_heads));
    check_steps(index, source);
    check_weights_layers(index, target_tokens);
    return index;
  }
  for (std::size_t i = 0; i < layers.size(); ++i)
    index.layers.push_back(parse_layer(layers[i], i, source));
  check_steps(index, source);
  if (version == 3) parse_image_index(doc, source, index);
  return index;
}

ModelIndex read_model_index(const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (!ec && size > kMaxIndexBytes) {
    fail(io::display_name(path), "the index is " + format_bytes(size) +
                                     "; a model index is at "
                                     "most " +
                                     format_bytes(kMaxIndexBytes) +
                                     " (tensors belong in the tensors file it names)");
  }
  const std::vector<std::byte> bytes = io::read_file_bytes(path);
  return parse_model_index(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path);
}

std::uint64_t estimate_model_memory(const ModelIndex& index) {
  double total = 0;
  double peak = 0;
  for (const LayerInfo& layer : index.layers) {
    if (index.weights_only) {
      total += weights_layer_bytes(layer.config);
      continue;
    }
    total += layer_bytes(layer.config);
    peak = std::max(peak, static_cast<double>(estimate_memory(layer.config)));
  }
  const double bytes = total + peak;
  constexpr double kMost = 1.8e19;
  return bytes >= kMost ? static_cast<std::uint64_t>(kMost) : static_cast<std::uint64_t>(bytes);
}

}  // namespace mhaviz::model
