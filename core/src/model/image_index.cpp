// A version-3 model index's image (image_index.hpp).

#include "image_index.hpp"

#include "index_json.hpp"
#include "mhaviz/core/io/file_bytes.hpp"

namespace mhaviz::model {

using nlohmann::json;

namespace {

/// [a, b] of positive integers.
std::pair<std::int64_t, std::int64_t> pair_of(const json& image, const char* key,
                                              const std::string& where, const char* example) {
  const auto it = image.find(key);
  if (it == image.end())
    fail(where, std::string("key \"image\" has no \"") + key + "\"; give it, e.g. " + example);
  if (!it->is_array() || it->size() != 2 || !(*it)[0].is_number_integer() ||
      !(*it)[1].is_number_integer()) {
    fail(where, std::string("key \"image\".\"") + key + "\" must be two integers, e.g. " + example);
  }
  return {(*it)[0].get<std::int64_t>(), (*it)[1].get<std::int64_t>()};
}

std::string dims(const Shape& s) { return shape_str(s); }

}  // namespace

void parse_image_index(const json& doc, const std::string& source, ModelIndex& index) {
  const auto it = doc.find("image");
  if (it == doc.end()) {
    fail(source,
         "model file version 3 describes an image, but key \"image\" is missing; "
         "re-capture with mhaviz_capture.capture_model(model, name, image=...)");
  }
  const json& image = *it;
  if (!image.is_object())
    fail(source, "key \"image\" must be an object with \"size\", \"patch_size\" and \"grid\"");
  ImageGrid g;
  std::tie(g.height, g.width) = pair_of(image, "size", source, "\"size\": [224, 224]");
  std::tie(g.patch_height, g.patch_width) =
      pair_of(image, "patch_size", source, "\"patch_size\": [16, 16]");
  std::tie(g.rows, g.cols) = pair_of(image, "grid", source, "\"grid\": [14, 14]");
  if (const auto c = image.find("channels"); c != image.end()) {
    if (!c->is_number_integer()) fail(source, "key \"image\".\"channels\" must be an integer");
    g.channels = c->get<std::int64_t>();
  }
  if (const auto p = image.find("prefix_tokens"); p != image.end()) {
    if (!p->is_array()) fail(source, "key \"image\".\"prefix_tokens\" must be a list of names");
    for (const json& name : *p) {
      if (!name.is_string())
        fail(source, "key \"image\".\"prefix_tokens\" must be a list of names, e.g. [\"[CLS]\"]");
      g.prefix.push_back(name.get<std::string>());
    }
  }
  if (const auto p = image.find("picture"); p != image.end()) {
    if (!p->is_boolean()) fail(source, "key \"image\".\"picture\" must be true or false");
    g.picture = p->get<bool>();
  }
  check_image_grid(g, source);
  index.image = g;
  const std::vector<std::size_t> layers = image_layers(index);
  std::int64_t batch = -1;
  for (std::size_t i = 0; i < index.layers.size(); ++i) {
    LayerInfo& layer = index.layers[i];
    if (!layer.self_attention) continue;
    const Config& c = layer.config;
    if (c.tgt_len != g.tokens() || c.src_len != g.tokens()) {
      fail(source + ": " + layer_title(layer, i),
           "has " + std::to_string(c.tgt_len) + " tokens, but the image's grid gives " +
               std::to_string(g.prefix.size()) + " prefix + " + std::to_string(g.rows) + "\u00d7" +
               std::to_string(g.cols) + " patches = " + std::to_string(g.tokens()) +
               "; give capture_model the prefix tokens and patch size the model uses");
    }
    if (batch >= 0 && c.batch() != batch) {
      fail(source + ": " + layer_title(layer, i),
           "has " + std::to_string(c.batch()) + " batch elements, the image's layers before it " +
               std::to_string(batch) + "; capture one forward pass of one batch of images");
    }
    batch = c.batch();
    const std::vector<std::string> labels = image_token_labels(g);
    if (layer.config.query_labels.empty()) layer.config.query_labels = labels;
    if (layer.config.key_labels.empty()) layer.config.key_labels = labels;
  }
  if (layers.empty()) {
    fail(source, "no self-attention layer attends over the image (prefix + rows \u00d7 cols = " +
                     std::to_string(g.tokens()) +
                     " tokens); capture the model's encoder, whose layers see the patches");
  }
}

std::vector<std::size_t> image_layers(const ModelIndex& index) {
  std::vector<std::size_t> out;
  if (!index.image) return out;
  for (std::size_t i = 0; i < index.layers.size(); ++i) {
    const LayerInfo& l = index.layers[i];
    if (l.self_attention && l.config.tgt_len == index.image->tokens() &&
        l.config.src_len == index.image->tokens())
      out.push_back(i);
  }
  return out;
}

ModelImage take_image(io::TensorMap& all, const ModelIndex& index, const std::string& file) {
  const ImageGrid& g = *index.image;
  const std::string tensors = io::display_name(index.tensors);
  const std::string refix =
      "; re-capture with mhaviz_capture.capture_model(model, name, image=...) "
      "(docs/capture-and-models.md)";
  const std::int64_t batch = index.layers[image_layers(index).front()].config.batch();
  ModelImage out;
  const auto input = all.find("image/input");
  if (input == all.end()) {
    fail(tensors, "member \"image/input\" is missing (the image tensor the model saw, which " +
                      file + " describes)" + refix);
  }
  out.input = std::move(input->second);
  all.erase(input);
  const Shape want{batch, g.channels, g.height, g.width};
  if (!out.input.is_floating() || out.input.shape() != want) {
    fail(tensors, "member \"image/input\" is " + std::string(to_string(out.input.type())) + " " +
                      dims(out.input.shape()) + "; the image grid and the layers need float " +
                      dims(want) + " (N, C, H, W)" + refix);
  }
  const auto picture = all.find("image/picture");
  if (g.picture && picture == all.end()) {
    fail(tensors,
         "member \"image/picture\" is missing (the index says the file has a picture "
         "for display)" +
             refix);
  }
  if (picture != all.end()) {
    out.picture = std::move(picture->second);
    all.erase(picture);
    const Shape& s = out.picture.shape();
    if (out.picture.type() != ElemType::u8 || s.size() != 4 || s[0] != batch || s[3] != 3 ||
        s[1] < 1 || s[2] < 1 || s[1] > 8192 || s[2] > 8192) {
      fail(tensors, "member \"image/picture\" is " + std::string(to_string(out.picture.type())) +
                        " " + dims(s) + "; a picture for display is uint8 (" +
                        std::to_string(batch) + ", height, width, 3), each side 1 to 8192 pixels" +
                        refix);
    }
  }
  return out;
}

}  // namespace mhaviz::model
