#include "mhaviz/core/io/config_json.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gen_json.hpp"
#include "json_key.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/suggest.hpp"
#include "mhaviz/core/spec/torch_path.hpp"

namespace mhaviz::io {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

/// Where a value is read (source and key) and what its key expects, for messages.
struct KeyContext {
  detail::JsonKey at;
  std::string_view expected;

  [[noreturn]] void wrong_type(const json& v) const { at.fail(expected, v); }
};

std::int64_t get_int64(const json& v, const KeyContext& ctx) {
  return detail::get_int(v, ctx.at, ctx.expected);
}

std::uint64_t get_uint64(const json& v, const KeyContext& ctx) {
  return detail::get_uint(v, ctx.at, ctx.expected);
}

/// One configuration key: its name, the type a message asks for, and how it is read from and
/// written to JSON. New keys (e.g. input and mask generation settings) are one more row.
struct KeyHandler {
  std::string_view key;
  std::string_view expected;
  void (*read)(const json& value, Config& config, const KeyContext& ctx);
  ordered_json (*write)(const Config& config);
};

template <auto Member>
KeyHandler int_key(std::string_view key) {
  return {key, "an integer",
          [](const json& v, Config& c, const KeyContext& ctx) { c.*Member = get_int64(v, ctx); },
          [](const Config& c) { return ordered_json(c.*Member); }};
}

template <auto Member>
KeyHandler optional_int_key(std::string_view key) {
  return {key, "an integer or null",
          [](const json& v, Config& c, const KeyContext& ctx) {
            if (v.is_null()) {
              c.*Member = std::nullopt;
            } else {
              c.*Member = get_int64(v, ctx);
            }
          },
          [](const Config& c) {
            return (c.*Member).has_value() ? ordered_json(*(c.*Member)) : ordered_json(nullptr);
          }};
}

template <auto Member>
KeyHandler seed_key(std::string_view key) {
  return {key, "a non-negative integer",
          [](const json& v, Config& c, const KeyContext& ctx) { c.*Member = get_uint64(v, ctx); },
          [](const Config& c) { return ordered_json(c.*Member); }};
}

template <auto Member>
KeyHandler optional_seed_key(std::string_view key) {
  return {key, "a non-negative integer or null",
          [](const json& v, Config& c, const KeyContext& ctx) {
            if (v.is_null()) {
              c.*Member = std::nullopt;
            } else {
              c.*Member = get_uint64(v, ctx);
            }
          },
          [](const Config& c) {
            return (c.*Member).has_value() ? ordered_json(*(c.*Member)) : ordered_json(nullptr);
          }};
}

template <auto Member>
KeyHandler bool_key(std::string_view key) {
  return {key, "true or false",
          [](const json& v, Config& c, const KeyContext& ctx) {
            if (!v.is_boolean()) ctx.wrong_type(v);
            c.*Member = v.get<bool>();
          },
          [](const Config& c) { return ordered_json(c.*Member); }};
}

template <auto Member>
KeyHandler number_key(std::string_view key) {
  return {key, "a number",
          [](const json& v, Config& c, const KeyContext& ctx) {
            if (!v.is_number()) ctx.wrong_type(v);
            c.*Member = v.get<double>();
          },
          [](const Config& c) { return ordered_json(c.*Member); }};
}

template <auto Member>
KeyHandler optional_number_key(std::string_view key) {
  return {key, "a number or null",
          [](const json& v, Config& c, const KeyContext& ctx) {
            if (v.is_null()) {
              c.*Member = std::nullopt;
            } else {
              if (!v.is_number()) ctx.wrong_type(v);
              c.*Member = v.get<double>();
            }
          },
          [](const Config& c) {
            return (c.*Member).has_value() ? ordered_json(*(c.*Member)) : ordered_json(nullptr);
          }};
}

KeyHandler dtype_key() {
  return {"dtype", R"("float32" or "float64")",
          [](const json& v, Config& c, const KeyContext& ctx) {
            if (!v.is_string()) ctx.wrong_type(v);
            const auto s = v.get<std::string>();
            if (s == "float32") {
              c.dtype = DType::float32;
            } else if (s == "float64") {
              c.dtype = DType::float64;
            } else {
              ctx.wrong_type(v);
            }
          },
          [](const Config& c) { return ordered_json(std::string(to_string(c.dtype))); }};
}

KeyHandler semantics_key() {
  return {"semantics", R"("2.x" or "1.13" (the PyTorch version whose behaviour to follow))",
          [](const json& v, Config& c, const KeyContext& ctx) {
            if (!v.is_string()) ctx.wrong_type(v);
            const auto s = v.get<std::string>();
            if (s == to_string(Semantics::v2)) {
              c.semantics = Semantics::v2;
            } else if (s == to_string(Semantics::v1_13)) {
              c.semantics = Semantics::v1_13;
            } else {
              ctx.wrong_type(v);
            }
          },
          [](const Config& c) { return ordered_json(std::string(to_string(c.semantics))); }};
}

KeyHandler grad_mode_key() {
  return {"grad_mode",
          R"("enabled", "no_grad" or "inference_mode" (PyTorch's grad mode around the call))",
          [](const json& v, Config& c, const KeyContext& ctx) {
            if (!v.is_string()) ctx.wrong_type(v);
            const auto s = v.get<std::string>();
            for (GradMode m : {GradMode::enabled, GradMode::no_grad, GradMode::inference_mode}) {
              if (s == to_string(m)) {
                c.grad_mode = m;
                return;
              }
            }
            ctx.wrong_type(v);
          },
          [](const Config& c) { return ordered_json(std::string(to_string(c.grad_mode))); }};
}

KeyHandler torch_path_key() {
  return {"torch_path",
          R"("general", "sdpa" or "fast" (the path PyTorch 2.x took for a captured call))",
          [](const json& v, Config& c, const KeyContext& ctx) {
            if (v.is_null()) {
              c.recorded_path.reset();
              return;
            }
            if (!v.is_string()) ctx.wrong_type(v);
            const auto s = v.get<std::string>();
            for (TorchPath p : {TorchPath::general, TorchPath::sdpa, TorchPath::fast}) {
              if (s == to_string(p)) {
                c.recorded_path = p;
                return;
              }
            }
            ctx.wrong_type(v);
          },
          [](const Config& c) {
            return c.recorded_path ? ordered_json(std::string(to_string(*c.recorded_path)))
                                   : ordered_json(nullptr);
          }};
}

/// Every key, in Config's field order (the order config_to_json writes).
const std::vector<KeyHandler>& key_table() {
  static const std::vector<KeyHandler> table = {
      int_key<&Config::embed_dim>("embed_dim"),
      int_key<&Config::num_heads>("num_heads"),
      number_key<&Config::dropout>("dropout"),
      bool_key<&Config::bias>("bias"),
      bool_key<&Config::add_bias_kv>("add_bias_kv"),
      bool_key<&Config::add_zero_attn>("add_zero_attn"),
      optional_int_key<&Config::kdim>("kdim"),
      optional_int_key<&Config::vdim>("vdim"),
      bool_key<&Config::batch_first>("batch_first"),
      bool_key<&Config::need_weights>("need_weights"),
      bool_key<&Config::average_attn_weights>("average_attn_weights"),
      bool_key<&Config::is_causal>("is_causal"),
      optional_number_key<&Config::attn_logit_softcapping>("attn_logit_softcapping"),
      bool_key<&Config::training>("training"),
      grad_mode_key(),
      torch_path_key(),
      dtype_key(),
      semantics_key(),
      optional_int_key<&Config::batch_size>("batch_size"),
      int_key<&Config::tgt_len>("tgt_len"),
      int_key<&Config::src_len>("src_len"),
      seed_key<&Config::seed>("seed"),
      optional_seed_key<&Config::input_seed>("input_seed"),
      optional_seed_key<&Config::dropout_seed>("dropout_seed"),
      // Generation settings (gen_json.cpp; messages name nested keys as "attn_mask.kind").
      {"attn_mask", "an object",
       [](const json& v, Config& c, const KeyContext& ctx) {
         detail::read_attn_mask(v, c, ctx.at.source);
       },
       detail::write_attn_mask},
      {"key_padding_mask", "an object",
       [](const json& v, Config& c, const KeyContext& ctx) {
         detail::read_key_padding(v, c, ctx.at.source);
       },
       detail::write_key_padding},
      {"inputs", "an object",
       [](const json& v, Config& c, const KeyContext& ctx) {
         detail::read_inputs(v, c, ctx.at.source);
       },
       detail::write_inputs},
      {"weights", "an object",
       [](const json& v, Config& c, const KeyContext& ctx) {
         detail::read_weights(v, c, ctx.at.source);
       },
       detail::write_weights},
      {"query_labels", "an array of strings",
       [](const json& v, Config& c, const KeyContext& ctx) {
         detail::read_labels(v, c.query_labels, ctx.at.source, "query_labels");
       },
       [](const Config& c) { return ordered_json(c.query_labels); }},
      {"key_labels", "an array of strings",
       [](const json& v, Config& c, const KeyContext& ctx) {
         detail::read_labels(v, c.key_labels, ctx.at.source, "key_labels");
       },
       [](const Config& c) { return ordered_json(c.key_labels); }},
  };
  return table;
}

[[noreturn]] void unknown_key(std::string_view source, const std::string& key) {
  std::vector<std::string_view> names;
  for (const KeyHandler& h : key_table()) names.push_back(h.key);
  std::string message = std::string(source) + ": unknown key \"" + key + "\"";
  if (const auto best = closest_name(key, names)) {
    message += " (did you mean \"" + std::string(*best) + "\"?)";
  } else {
    message += "; the keys are";
    for (std::size_t i = 0; i < names.size(); ++i) {
      message += (i == 0 ? " " : ", ") + std::string(names[i]);
    }
  }
  throw InvalidInput(message);
}

/// nlohmann's "[json.exception.parse_error.101] parse error at line 3, column 5: ..." as
/// "<source>: JSON syntax error at line 3, column 5: ...".
[[noreturn]] void syntax_error(std::string_view source, const json::parse_error& e) {
  std::string what = e.what();
  const std::size_t at = what.find(" at line ");
  std::string detail = at == std::string::npos ? what : what.substr(at + 1);
  throw InvalidInput(std::string(source) + ": JSON syntax error " + detail);
}

/// nlohmann's "[json.exception.out_of_range.406] number overflow parsing '1e400'" (a number
/// no double holds) as "<source>: JSON number out of range: number overflow parsing '1e400'".
[[noreturn]] void number_error(std::string_view source, const json::exception& e) {
  std::string what = e.what();
  const std::size_t tag_end = what.find("] ");
  throw InvalidInput(std::string(source) + ": JSON number out of range: " +
                     (tag_end == std::string::npos ? what : what.substr(tag_end + 2)) +
                     " (numbers must lie within about +-1.8e308)");
}

}  // namespace

Config parse_config_json(std::string_view text, std::string_view source_name) {
  json root;
  // Keys seen in each open object, innermost last, and the last key read at each depth.
  std::vector<std::set<std::string>> seen;
  std::vector<std::string> last_key;
  // The callback catches repeated keys (top-level and nested, e.g. in "attn_mask"), which a
  // JSON object would silently collapse.
  const json::parser_callback_t on_event = [&](int depth, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) seen.emplace_back();
    if (event == json::parse_event_t::object_end && !seen.empty()) seen.pop_back();
    if (event == json::parse_event_t::key && !seen.empty()) {
      const auto key = parsed.get<std::string>();
      const auto d = static_cast<std::size_t>(std::max(depth, 1));
      if (!seen.back().insert(key).second) {
        const std::string where =
            d > 1 && last_key.size() >= d - 1 ? " in \"" + last_key[d - 2] + "\"" : "";
        throw InvalidInput(std::string(source_name) + ": key \"" + key + "\" appears twice" +
                           where);
      }
      last_key.resize(d);
      last_key[d - 1] = key;
    }
    return true;
  };
  try {
    root = json::parse(text.begin(), text.end(), on_event);
  } catch (const json::parse_error& e) {
    syntax_error(source_name, e);
  } catch (const json::exception& e) {
    number_error(source_name, e);
  }
  if (!root.is_object()) {
    throw InvalidInput(std::string(source_name) +
                       ": the configuration must be a JSON object ({\"embed_dim\": 16, ...}), "
                       "got " +
                       detail::describe_json(root));
  }
  if (root.contains("format") && root["format"] == "mhaviz-session") {
    throw InvalidInput(std::string(source_name) +
                       ": this is an mhaviz session (saved by the window), not a configuration; "
                       "open it in the window, or save its \"config\" object as a file of its "
                       "own for --config");
  }
  Config config;
  for (const auto& [key, value] : root.items()) {
    const KeyHandler* handler = nullptr;
    for (const KeyHandler& h : key_table()) {
      if (h.key == key) handler = &h;
    }
    if (handler == nullptr) unknown_key(source_name, key);
    handler->read(value, config,
                  KeyContext{{source_name, std::string(handler->key)}, handler->expected});
  }
  return config;
}

Config read_config_file(const std::filesystem::path& path) {
  const std::vector<std::byte> bytes = read_file_bytes(path);
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return parse_config_json(text, display_name(path));
}

std::string config_to_json(const Config& config) {
  ordered_json out = ordered_json::object();
  for (const KeyHandler& h : key_table()) out[std::string(h.key)] = h.write(config);
  if (!config.recorded_path) out.erase("torch_path");  // written only for a captured call
  return out.dump(2) + "\n";
}

}  // namespace mhaviz::io
