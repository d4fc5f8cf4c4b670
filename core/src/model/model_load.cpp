// Loading a model file: the index, the memory check, then each layer's tensors.

#include <string>
#include <utility>

#include "image_index.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/model/model.hpp"
#include "mhaviz/core/spec/params.hpp"
#include "weights_index.hpp"

namespace mhaviz::model {

namespace fs = std::filesystem;

namespace {

/// The members of layer `position` ("3/query" -> "query"), moved out of `all`.
io::TensorMap take_layer(io::TensorMap& all, std::size_t position) {
  const std::string prefix = std::to_string(position) + "/";
  io::TensorMap out;
  for (auto it = all.lower_bound(prefix); it != all.end() && it->first.starts_with(prefix);) {
    out.emplace(it->first.substr(prefix.size()), std::move(it->second));
    it = all.erase(it);
  }
  return out;
}

Tensor take(io::TensorMap& tensors, const std::string& name) {
  Tensor t = std::move(tensors.at(name));
  tensors.erase(name);
  return t;
}

Layer build_layer(const LayerInfo& info, std::size_t position, io::TensorMap tensors,
                  const std::string& file) {
  const std::string where = file + ": " + layer_title(info, position);
  const std::string refix =
      "; re-capture the model with mhaviz_capture.capture_model() (docs/capture-and-models.md)";
  const auto need = [&](const std::string& name, const std::string& why) {
    if (!tensors.contains(name)) {
      throw InvalidInput(where + ": member \"" + std::to_string(position) + "/" + name +
                         "\" is missing (" + why + ")" + refix);
    }
  };
  for (const char* name : {"query", "key", "value"}) need(name, "a forward argument");
  for (const std::string_view key : kStateDictKeys) {
    if (expected_param_shape(info.config, key))
      need(std::string(key), "the configuration's state_dict has it");
  }
  need("attn_output", "PyTorch's output, to check the layer against");
  Layer layer;
  layer.info = info;
  layer.torch_output = take(tensors, "attn_output");
  if (tensors.contains("attn_output_weights"))
    layer.torch_weights = take(tensors, "attn_output_weights");
  try {
    layer.problem = make_problem(info.config, tensors, where);
    validate(layer.problem.config, layer.problem.params, layer.problem.inputs);
  } catch (const InvalidInput& e) {
    const std::string text = e.what();
    throw InvalidInput(text.starts_with(where) ? text : where + ": " + text);
  }
  return layer;
}

}  // namespace

Model read_model(const fs::path& index_path, std::uint64_t memory_limit) {
  Model model;
  model.index = read_model_index(index_path);
  const std::string file = io::display_name(index_path);
  const std::uint64_t need = estimate_model_memory(model.index);
  if (need > memory_limit) {
    throw InvalidInput(file + ": its " + std::to_string(model.index.layers.size()) +
                       " layers need " + format_bytes(need) + "; the memory limit is " +
                       format_bytes(memory_limit) +
                       ". Capture fewer layers or shorter inputs, or raise the memory limit.");
  }
  std::error_code ec;
  if (!fs::exists(model.index.tensors, ec)) {
    throw InvalidInput(file + ": the tensors file it names, " +
                       io::display_name(model.index.tensors) +
                       ", is not there; keep the index and its tensors file in one folder "
                       "(or fix the index's \"tensors\" key)");
  }
  const auto size = fs::file_size(model.index.tensors, ec);
  if (!ec && size > memory_limit) {
    throw InvalidInput(io::display_name(model.index.tensors) + " is " + format_bytes(size) +
                       "; the memory limit is " + format_bytes(memory_limit) +
                       ". Capture fewer layers or shorter inputs, or raise the memory limit.");
  }
  io::TensorMap all = io::read_tensor_file(model.index.tensors);
  if (model.index.image) model.image = take_image(all, model.index, file);
  if (model.index.weights_only) {
    build_weights_layers(model, std::move(all), file);
    return model;
  }
  model.layers.reserve(model.index.layers.size());
  for (std::size_t i = 0; i < model.index.layers.size(); ++i) {
    model.layers.push_back(build_layer(model.index.layers[i], i, take_layer(all, i), file));
  }
  if (!all.empty()) {
    throw InvalidInput(io::display_name(model.index.tensors) + ": member \"" + all.begin()->first +
                       "\" belongs to no layer of " + file +
                       " (members are named \"<layer>/<name>\" for layers 0 to " +
                       std::to_string(model.index.layers.size() - 1) +
                       "); is the index the one written with this tensors file?");
  }
  return model;
}

}  // namespace mhaviz::model
