// Weights-only models: the version-4 index's layer entries, the configuration a layer of weights
// stands for, and the checks of the layers against each other and their tokens
// (mhaviz/core/model/weights_only.hpp, docs/capture-and-models.md).

#include "weights_index.hpp"

#include <string>

#include "index_json.hpp"
#include "mhaviz/core/model/weights_only.hpp"

namespace mhaviz::model {

using nlohmann::json;

namespace {

std::string join_tokens(std::size_t count) {
  return std::to_string(count) + " token" + (count == 1 ? "" : "s");
}

/// "1 token was given", "5 tokens were given".
std::string tokens_given(std::size_t count) {
  return join_tokens(count) + (count == 1 ? " was given" : " were given");
}

}  // namespace

bool is_weights_group(const std::string& group) {
  return group.empty() || group == "encoder" || group == "decoder" || group == "cross";
}

Config weights_config(std::int64_t N, std::int64_t H, std::int64_t L, std::int64_t S,
                      ElemType type) {
  Config c;
  c.num_heads = H;
  c.embed_dim = H;
  c.batch_size = N;
  c.tgt_len = L;
  c.src_len = S;
  c.dropout = 0.0;
  c.training = false;
  c.average_attn_weights = false;
  c.dtype = type == ElemType::f64 ? DType::float64 : DType::float32;
  return c;
}

double weights_layer_bytes(const Config& c) {
  const double cells = static_cast<double>(c.batch()) * static_cast<double>(c.num_heads) *
                       static_cast<double>(c.tgt_len) * static_cast<double>(c.src_len);
  // The file's member as read, and the tensor kept (float32 when the file was float16).
  return 2.0 * cells * static_cast<double>(c.element_bytes());
}

LayerInfo parse_weights_layer(const json& entry, std::size_t position, const std::string& source,
                              std::int64_t kv_heads) {
  const std::string at = source + ": layer " + std::to_string(position);
  if (!entry.is_object()) fail(at, "must be an object with \"name\" and \"shape\"");
  LayerInfo info;
  const auto name = entry.find("name");
  if (name == entry.end() || !name->is_string())
    fail(at, "key \"name\" must be the layer's name, e.g. \"attentions.0\"");
  info.name = name->get<std::string>();
  const std::string where = source + ": " + layer_title(info, position);
  const auto integer = [&](const char* key, std::int64_t least, const char* what) {
    const auto it = entry.find(key);
    if (it == entry.end()) return std::int64_t{-1};
    if (!it->is_number_integer() || it->get<std::int64_t>() < least)
      fail(where, std::string("key \"") + key + "\" must be " + what);
    return it->get<std::int64_t>();
  };
  info.call = std::max<std::int64_t>(0, integer("call", 0, "a non-negative integer"));
  info.step = integer("step", 0, "a non-negative integer (the layer's generation step)");
  info.kv_heads = kv_heads;
  if (const std::int64_t kv = integer("num_key_value_heads", 1, "a positive integer"); kv > 0)
    info.kv_heads = kv;
  if (const auto it = entry.find("group"); it != entry.end()) {
    if (!it->is_string() || !is_weights_group(it->get<std::string>())) {
      fail(where,
           "key \"group\" must be \"encoder\", \"decoder\" or \"cross\" (or left out for one "
           "stack of layers)");
    }
    info.group = it->get<std::string>();
  }
  info.self_attention = info.group != "cross";
  if (const auto it = entry.find("self_attention"); it != entry.end()) {
    if (!it->is_boolean()) fail(where, "key \"self_attention\" must be true or false");
    info.self_attention = it->get<bool>();
  }
  const auto shape = entry.find("shape");
  if (shape == entry.end() || !shape->is_array() || shape->size() != 4) {
    fail(where,
         "key \"shape\" must be the weights' shape [batch, heads, queries, keys]; write the file "
         "with mhaviz_capture.save_attentions()");
  }
  std::int64_t dims[4];
  for (std::size_t d = 0; d < 4; ++d) {
    const json& v = (*shape)[d];
    if (!v.is_number_integer() || v.get<std::int64_t>() < 1 || v.get<std::int64_t>() > (1LL << 31))
      fail(where, "key \"shape\" must hold four positive integers [batch, heads, queries, keys]");
    dims[d] = v.get<std::int64_t>();
  }
  info.config = weights_config(dims[0], dims[1], dims[2], dims[3], ElemType::f32);
  if (const auto it = entry.find("dtype"); it != entry.end()) {
    if (*it == "float64") {
      info.config.dtype = DType::float64;
    } else if (*it != "float32") {
      fail(where, "key \"dtype\" must be \"float32\" or \"float64\"");
    }
  }
  if (const auto it = entry.find("query_tokens"); it != entry.end())
    info.config.query_labels = string_list(*it, where, "query_tokens");
  if (const auto it = entry.find("key_tokens"); it != entry.end())
    info.config.key_labels = string_list(*it, where, "key_tokens");
  return info;
}

void check_weights_layers(ModelIndex& index, const std::vector<std::string>& target_tokens) {
  const std::string source = index.path.empty() ? "weights" : index.path.filename().string();
  std::vector<std::size_t> first_of_group;  // per layer: the first layer of its group and step
  for (std::size_t i = 0; i < index.layers.size(); ++i) {
    LayerInfo& info = index.layers[i];
    Config& c = info.config;
    const std::string where = source + ": " + layer_title(info, i);
    if (info.kv_heads > 0 && (info.kv_heads > c.num_heads || c.num_heads % info.kv_heads != 0)) {
      fail(where, "num_key_value_heads=" + std::to_string(info.kv_heads) +
                      " does not divide its " + std::to_string(c.num_heads) +
                      " heads; grouped-query attention shares each key/value head among "
                      "heads / num_key_value_heads query heads (give the model's "
                      "num_key_value_heads, or leave it out)");
    }
    // Ragged layers: a group's layers (of one step) have the same heads and batch.
    for (std::size_t j = 0; j < i; ++j) {
      const LayerInfo& other = index.layers[j];
      if (other.group != info.group || other.step != info.step) continue;
      if (other.config.num_heads != c.num_heads || other.config.batch() != c.batch()) {
        fail(where, "has " + std::to_string(c.num_heads) + " heads and batch " +
                        std::to_string(c.batch()) + ", but " + layer_title(other, j) +
                        " of the same stack has " + std::to_string(other.config.num_heads) +
                        " heads and batch " + std::to_string(other.config.batch()) +
                        ": ragged layers (pass the attentions of one model and one input)");
      }
      break;
    }
    const bool decoder_side = info.group == "decoder" || info.group == "cross";
    const std::vector<std::string>& queries =
        decoder_side && !target_tokens.empty() ? target_tokens : index.tokens;
    const std::vector<std::string>& keys =
        info.group == "decoder" && !target_tokens.empty() ? target_tokens : index.tokens;
    // The layer's own labels must fit it.
    const auto own = [&](const std::vector<std::string>& labels, std::int64_t length,
                         const char* side, const char* one) {
      if (!labels.empty() && std::int64_t(labels.size()) != length) {
        fail(where, std::string("has ") + std::to_string(length) + " " + side + " but " +
                        join_tokens(labels.size()) + " of its own; give one label per " + one);
      }
    };
    own(c.query_labels, c.tgt_len, "queries", "query");
    own(c.key_labels, c.src_len, "keys", "key");
    if (index.steps > 0) {
      // A generation: the tokens label the whole sequence; a step's keys are its first S
      // positions, its queries the last L of them.
      if (keys.empty() || !c.key_labels.empty()) continue;
      if (c.src_len > std::int64_t(keys.size())) {
        fail(where, "sees " + std::to_string(c.src_len) + " keys but " + tokens_given(keys.size()) +
                        "; in a generation the tokens label the whole sequence, "
                        "prompt and generated tokens");
      }
      c.key_labels.assign(keys.begin(), keys.begin() + c.src_len);
      if (c.query_labels.empty() && c.tgt_len <= c.src_len)
        c.query_labels.assign(c.key_labels.end() - c.tgt_len, c.key_labels.end());
      continue;
    }
    // One pass: each length is the number of tokens of its side.
    const auto fill = [&](std::vector<std::string>& labels, std::int64_t length,
                          const std::vector<std::string>& tokens, const char* side) {
      if (!labels.empty() || tokens.empty()) return;
      if (length != std::int64_t(tokens.size())) {
        fail(where, std::string("has ") + std::to_string(length) + " " + side + " but " +
                        tokens_given(tokens.size()) +
                        (decoder_side && target_tokens.empty()
                             ? "; give the decoder's tokens too (target_tokens)"
                             : "; give one token per position of the input the weights "
                               "were computed from"));
      }
      labels = tokens;
    };
    fill(c.query_labels, c.tgt_len, queries, "queries");
    fill(c.key_labels, c.src_len, keys, "keys");
  }
}

}  // namespace mhaviz::model
