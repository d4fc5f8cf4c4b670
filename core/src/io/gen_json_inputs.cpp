// Generation-settings keys: "inputs", "weights", "query_labels", "key_labels" (see
// gen_json.hpp).
#include <string>
#include <vector>

#include "gen_json.hpp"
#include "json_key.hpp"

namespace mhaviz::io::detail {

using nlohmann::json;
using nlohmann::ordered_json;
using namespace mhaviz::gen;  // NOLINT: the spec types and their enums

void read_inputs(const json& value, Config& config, std::string_view source) {
  InputSpec s;
  read_object(
      value, JsonKey{source, "inputs"},
      {{"kind", [&](const json& v, const JsonKey& a) { s.kind = get_enum(v, a, kInputKinds); }},
       {"scale", [&](const json& v, const JsonKey& a) { s.scale = get_number(v, a); }},
       {"content_scale",
        [&](const json& v, const JsonKey& a) { s.content_scale = get_number(v, a); }},
       {"self_attention",
        [&](const json& v, const JsonKey& a) { s.self_attention = get_bool(v, a); }}});
  config.input_spec = s;
}

ordered_json write_inputs(const Config& config) {
  const InputSpec& s = config.input_spec;
  ordered_json o = {{"kind", std::string(to_string(s.kind))}, {"scale", s.scale}};
  if (s.kind == InputKind::sinusoidal || s.content_scale != InputSpec{}.content_scale) {
    o["content_scale"] = s.content_scale;
  }
  o["self_attention"] = s.self_attention;
  return o;
}

void read_weights(const json& value, Config& config, std::string_view source) {
  WeightSpec w;
  read_object(
      value, JsonKey{source, "weights"},
      {{"kind", [&](const json& v, const JsonKey& a) { w.kind = get_enum(v, a, kWeightKinds); }},
       {"scale", [&](const json& v, const JsonKey& a) { w.scale = get_number(v, a); }}});
  config.weight_spec = w;
}

ordered_json write_weights(const Config& config) {
  return {{"kind", std::string(to_string(config.weight_spec.kind))},
          {"scale", config.weight_spec.scale}};
}

void read_labels(const json& value, std::vector<std::string>& labels, std::string_view source,
                 std::string_view key) {
  const JsonKey at{source, std::string(key)};
  const json& list = array_at(value, at);
  labels.clear();
  for (std::size_t k = 0; k < list.size(); ++k) {
    if (!list[k].is_string()) at[k].fail("a string (one label per position)", list[k]);
    labels.push_back(list[k].get<std::string>());
  }
}
}  // namespace mhaviz::io::detail
