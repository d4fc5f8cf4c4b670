#include "gen_json.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "mhaviz/core/errors.hpp"
#include "mhaviz/core/io/suggest.hpp"

namespace mhaviz::io::detail {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;
using namespace mhaviz::gen;  // NOLINT: the spec types and their enums

constexpr double kInf = std::numeric_limits<double>::infinity();

/// A value at a key path ("attn_mask.cells[2]") of a source, for messages.
struct At {
  std::string_view source;
  std::string path;

  [[nodiscard]] At operator[](std::size_t index) const {
    return {source, path + "[" + std::to_string(index) + "]"};
  }
  [[nodiscard]] At dot(std::string_view key) const {
    return {source, path + "." + std::string(key)};
  }
  [[noreturn]] void fail(std::string_view expected, const json& v) const {
    throw InvalidInput(std::string(source) + ": key \"" + path + "\" must be " +
                       std::string(expected) + ", got " + describe_json(v));
  }
};

std::int64_t get_int(const json& v, const At& at) {
  if (v.is_number_unsigned()) {
    if (v.get<std::uint64_t>() >
        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      at.fail("an integer in range", v);
    }
    return static_cast<std::int64_t>(v.get<std::uint64_t>());
  }
  if (v.is_number_integer()) return v.get<std::int64_t>();
  at.fail("an integer", v);
}

double get_number(const json& v, const At& at) {
  if (!v.is_number()) at.fail("a number", v);
  return v.get<double>();
}

bool get_bool(const json& v, const At& at) {
  if (!v.is_boolean()) at.fail("true or false", v);
  return v.get<bool>();
}

/// A mask value: a number or the string "-inf" (JSON has no infinity).
double get_mask_value(const json& v, const At& at) {
  if (v.is_string() && v.get<std::string>() == "-inf") return -kInf;
  if (v.is_string() && v.get<std::string>() == "inf") return kInf;  // refused by validation
  if (!v.is_number()) at.fail(R"(a number or "-inf")", v);
  return v.get<double>();
}

ordered_json mask_value_json(double v) {
  if (std::isinf(v)) return v < 0 ? ordered_json("-inf") : ordered_json("inf");
  return ordered_json(v);
}

const json& array_at(const json& v, const At& at) {
  if (!v.is_array()) at.fail("an array", v);
  return v;
}

std::vector<std::int64_t> get_int_list(const json& v, const At& at) {
  std::vector<std::int64_t> out;
  const json& a = array_at(v, at);
  for (std::size_t k = 0; k < a.size(); ++k) out.push_back(get_int(a[k], at[k]));
  return out;
}

/// One of an enum's names; the message lists them all.
template <typename Enum, std::size_t Count>
Enum get_enum(const json& v, const At& at, const std::array<Enum, Count>& values) {
  std::string names;
  for (const Enum e : values)
    names += (names.empty() ? "one of \"" : ", \"") + std::string(to_string(e)) + "\"";
  if (v.is_string()) {
    for (const Enum e : values) {
      if (to_string(e) == v.get<std::string>()) return e;
    }
  }
  at.fail(names, v);
}

/// Reads an object whose keys each have a reader; an unknown key names the closest one.
using Reader = std::function<void(const json&, const At&)>;
void read_object(const json& v, const At& at, const std::map<std::string_view, Reader>& readers) {
  if (!v.is_object()) at.fail("an object", v);
  for (const auto& [key, value] : v.items()) {
    const auto it = readers.find(key);
    if (it == readers.end()) {
      std::vector<std::string_view> names;
      for (const auto& r : readers) names.push_back(r.first);
      std::string message =
          std::string(at.source) + ": unknown key \"" + at.path + "." + key + "\"";
      if (const auto best = closest_name(key, names)) {
        message += " (did you mean \"" + at.path + "." + std::string(*best) + "\"?)";
      } else {
        message += "; the keys of \"" + at.path + "\" are";
        for (std::size_t k = 0; k < names.size(); ++k) {
          message += (k == 0 ? " " : ", ") + std::string(names[k]);
        }
      }
      throw InvalidInput(message);
    }
    it->second(value, at.dot(key));
  }
}

constexpr std::array<MaskDType, 2> kMaskDTypes = {MaskDType::boolean, MaskDType::floating};
constexpr std::array<MaskShape, 2> kMaskShapes = {MaskShape::two_d, MaskShape::three_d};
constexpr std::array<GraphBias, 2> kGraphBiases = {GraphBias::distance, GraphBias::table};

MaskCell get_cell(const json& v, const At& at) {
  MaskCell cell;
  if (v.is_array()) {
    if (v.size() != 2 && v.size() != 3) at.fail("[i, j] or [i, j, value]", v);
    cell.i = get_int(v[0], at[0]);
    cell.j = get_int(v[1], at[1]);
    if (v.size() == 3) cell.value = get_mask_value(v[2], at[2]);
    return cell;
  }
  if (!v.is_object())
    at.fail(R"([i, j], [i, j, value] or {"i": .., "j": .., "b": .., "value": ..})", v);
  bool has_i = false;
  bool has_j = false;
  read_object(v, at,
              {{"i",
                [&](const json& x, const At& a) {
                  cell.i = get_int(x, a);
                  has_i = true;
                }},
               {"j",
                [&](const json& x, const At& a) {
                  cell.j = get_int(x, a);
                  has_j = true;
                }},
               {"b", [&](const json& x, const At& a) { cell.b = get_int(x, a); }},
               {"value", [&](const json& x, const At& a) {
                  if (x.is_null()) {
                    cell.value.reset();
                  } else {
                    cell.value = get_mask_value(x, a);
                  }
                }}});
  if (!has_i || !has_j) {
    throw InvalidInput(std::string(at.source) + ": key \"" + at.path +
                       "\" needs both \"i\" (query) and \"j\" (key)");
  }
  return cell;
}

ordered_json cell_json(const MaskCell& cell) {
  if (cell.b == -1) {
    ordered_json a = ordered_json::array({cell.i, cell.j});
    if (cell.value) a.push_back(mask_value_json(*cell.value));
    return a;
  }
  ordered_json o = {{"b", cell.b}, {"i", cell.i}, {"j", cell.j}};
  if (cell.value) o["value"] = mask_value_json(*cell.value);
  return o;
}

/// "grid": (L, S) or (blocks, L, S) nested arrays of true/false, numbers or "-inf". Zero and
/// false cells are left out; true is "masked"; other numbers become cells with that value
/// (bool masks: masked).
void read_grid(const json& v, const At& at, MaskDType dtype, std::vector<MaskCell>& cells) {
  const auto row_cells = [&](const json& row, const At& a, std::int64_t b, std::int64_t i) {
    const json& r = array_at(row, a);
    for (std::size_t j = 0; j < r.size(); ++j) {
      MaskCell cell{i, static_cast<std::int64_t>(j), b, std::nullopt};
      if (r[j].is_boolean()) {
        if (!r[j].get<bool>()) continue;
      } else {
        const double x = get_mask_value(r[j], a[j]);
        if (x == 0.0) continue;
        if (dtype == MaskDType::floating) cell.value = x;
      }
      cells.push_back(cell);
    }
  };
  const json& grid = array_at(v, at);
  const bool three_d =
      !grid.empty() && grid[0].is_array() && !grid[0].empty() && grid[0][0].is_array();
  for (std::size_t a = 0; a < grid.size(); ++a) {
    if (three_d) {
      const json& block = array_at(grid[a], at[a]);
      for (std::size_t i = 0; i < block.size(); ++i) {
        row_cells(block[i], at[a][i], static_cast<std::int64_t>(a), static_cast<std::int64_t>(i));
      }
    } else {
      row_cells(grid[a], at[a], -1, static_cast<std::int64_t>(a));
    }
  }
}

std::optional<std::uint64_t> get_optional_seed(const json& v, const At& at) {
  if (v.is_null()) return std::nullopt;
  if (!v.is_number_unsigned()) at.fail("a non-negative integer or null", v);
  return v.get<std::uint64_t>();
}

}  // namespace

void read_attn_mask(const json& value, Config& config, std::string_view source) {
  const At at{source, "attn_mask"};
  AttnMaskSpec m;
  const json* grid = nullptr;
  At grid_at = at.dot("grid");
  read_object(
      value, at,
      {{"kind", [&](const json& v, const At& a) { m.kind = get_enum(v, a, kMaskKinds); }},
       {"dtype", [&](const json& v, const At& a) { m.dtype = get_enum(v, a, kMaskDTypes); }},
       {"shape", [&](const json& v, const At& a) { m.shape = get_enum(v, a, kMaskShapes); }},
       {"masked_value", [&](const json& v, const At& a) { m.masked_value = get_mask_value(v, a); }},
       {"width", [&](const json& v, const At& a) { m.width = get_int(v, a); }},
       {"segments", [&](const json& v, const At& a) { m.segments = get_int_list(v, a); }},
       {"probability", [&](const json& v, const At& a) { m.probability = get_number(v, a); }},
       {"seed", [&](const json& v, const At& a) { m.seed = get_optional_seed(v, a); }},
       {"causal", [&](const json& v, const At& a) { m.causal = get_bool(v, a); }},
       {"cells",
        [&](const json& v, const At& a) {
          const json& list = array_at(v, a);
          for (std::size_t k = 0; k < list.size(); ++k) m.cells.push_back(get_cell(list[k], a[k]));
        }},
       {"grid",
        [&](const json& v, const At& a) {
          grid = &v;
          grid_at = a;
        }},
       {"edges",
        [&](const json& v, const At& a) {
          const json& list = array_at(v, a);
          for (std::size_t k = 0; k < list.size(); ++k) {
            const std::vector<std::int64_t> e = get_int_list(list[k], a[k]);
            if (e.size() != 2) a[k].fail("a pair of node numbers [u, v]", list[k]);
            m.edges.push_back({e[0], e[1]});
          }
        }},
       {"edge_probability",
        [&](const json& v, const At& a) { m.edge_probability = get_number(v, a); }},
       {"graph_bias",
        [&](const json& v, const At& a) { m.graph_bias = get_enum(v, a, kGraphBiases); }},
       {"max_distance", [&](const json& v, const At& a) { m.max_distance = get_int(v, a); }},
       {"table_scale", [&](const json& v, const At& a) { m.table_scale = get_number(v, a); }}});
  // The grid is read last: how its numbers are taken depends on "dtype".
  if (grid != nullptr) read_grid(*grid, grid_at, m.dtype, m.cells);
  config.attn_mask_spec = std::move(m);
}

ordered_json write_attn_mask(const Config& config) {
  const AttnMaskSpec& m = config.attn_mask_spec;
  const AttnMaskSpec d;
  const MaskKind k = m.kind;
  ordered_json o = {{"kind", std::string(to_string(m.kind))},
                    {"dtype", std::string(to_string(m.dtype))},
                    {"shape", std::string(to_string(m.shape))}};
  // Settings that the kind uses, and any other that differs from its default (exact round trip).
  const bool graph = k == MaskKind::graph;
  if (m.dtype == MaskDType::floating || m.masked_value != d.masked_value) {
    o["masked_value"] = mask_value_json(m.masked_value);
  }
  if (k == MaskKind::window || k == MaskKind::band || m.width != d.width) o["width"] = m.width;
  if (k == MaskKind::block || m.segments != d.segments) o["segments"] = m.segments;
  if (k == MaskKind::random || m.probability != d.probability) o["probability"] = m.probability;
  if (k == MaskKind::random || graph || m.seed) {
    o["seed"] = m.seed ? ordered_json(*m.seed) : ordered_json(nullptr);
  }
  if (is_bias_kind(k) || m.causal) o["causal"] = m.causal;
  if (k == MaskKind::custom || !m.cells.empty()) {
    ordered_json cells = ordered_json::array();
    for (const MaskCell& cell : m.cells) cells.push_back(cell_json(cell));
    o["cells"] = cells;
  }
  if (graph || !m.edges.empty()) {
    ordered_json edges = ordered_json::array();
    for (const auto& e : m.edges) edges.push_back({e[0], e[1]});
    o["edges"] = edges;
  }
  if (graph || m.edge_probability != d.edge_probability) o["edge_probability"] = m.edge_probability;
  if (graph || m.graph_bias != d.graph_bias) o["graph_bias"] = std::string(to_string(m.graph_bias));
  if (graph || m.max_distance != d.max_distance) o["max_distance"] = m.max_distance;
  if (graph || m.table_scale != d.table_scale) o["table_scale"] = m.table_scale;
  return o;
}

void read_key_padding(const json& value, Config& config, std::string_view source) {
  const At at{source, "key_padding_mask"};
  KeyPaddingSpec p;
  bool has_kind = false;
  bool has_lengths = false;
  bool has_keys = false;
  read_object(
      value, at,
      {{"kind",
        [&](const json& v, const At& a) {
          p.kind = get_enum(v, a, kPaddingKinds);
          has_kind = true;
        }},
       {"valid_lengths",
        [&](const json& v, const At& a) {
          p.valid_lengths = get_int_list(v, a);
          has_lengths = true;
        }},
       {"padded_keys",
        [&](const json& v, const At& a) {
          const json& list = array_at(v, a);
          for (std::size_t n = 0; n < list.size(); ++n) {
            p.padded_keys.push_back(get_int_list(list[n], a[n]));
          }
          has_keys = true;
        }},
       {"dtype", [&](const json& v, const At& a) { p.dtype = get_enum(v, a, kMaskDTypes); }},
       {"masked_value",
        [&](const json& v, const At& a) { p.masked_value = get_mask_value(v, a); }}});
  if (!has_kind) {
    if (has_lengths && has_keys) {
      throw InvalidInput(std::string(source) +
                         ": key \"key_padding_mask\" has both \"valid_lengths\" and "
                         "\"padded_keys\"; add \"kind\": \"lengths\" or \"keys\" to choose one");
    }
    if (has_lengths) p.kind = PaddingKind::lengths;
    if (has_keys) p.kind = PaddingKind::keys;
  }
  config.key_padding_spec = std::move(p);
}

ordered_json write_key_padding(const Config& config) {
  const KeyPaddingSpec& p = config.key_padding_spec;
  const KeyPaddingSpec d;
  ordered_json o = {{"kind", std::string(to_string(p.kind))},
                    {"dtype", std::string(to_string(p.dtype))}};
  if (p.kind == PaddingKind::lengths || !p.valid_lengths.empty()) {
    o["valid_lengths"] = p.valid_lengths;
  }
  if (p.kind == PaddingKind::keys || !p.padded_keys.empty()) o["padded_keys"] = p.padded_keys;
  if (p.dtype == MaskDType::floating || p.masked_value != d.masked_value) {
    o["masked_value"] = mask_value_json(p.masked_value);
  }
  return o;
}

void read_inputs(const json& value, Config& config, std::string_view source) {
  InputSpec s;
  read_object(
      value, At{source, "inputs"},
      {{"kind", [&](const json& v, const At& a) { s.kind = get_enum(v, a, kInputKinds); }},
       {"scale", [&](const json& v, const At& a) { s.scale = get_number(v, a); }},
       {"content_scale", [&](const json& v, const At& a) { s.content_scale = get_number(v, a); }},
       {"self_attention", [&](const json& v, const At& a) { s.self_attention = get_bool(v, a); }}});
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
  read_object(value, At{source, "weights"},
              {{"kind", [&](const json& v, const At& a) { w.kind = get_enum(v, a, kWeightKinds); }},
               {"scale", [&](const json& v, const At& a) { w.scale = get_number(v, a); }}});
  config.weight_spec = w;
}

ordered_json write_weights(const Config& config) {
  return {{"kind", std::string(to_string(config.weight_spec.kind))},
          {"scale", config.weight_spec.scale}};
}

void read_labels(const json& value, std::vector<std::string>& labels, std::string_view source,
                 std::string_view key) {
  const At at{source, std::string(key)};
  const json& list = array_at(value, at);
  labels.clear();
  for (std::size_t k = 0; k < list.size(); ++k) {
    if (!list[k].is_string()) at[k].fail("a string (one label per position)", list[k]);
    labels.push_back(list[k].get<std::string>());
  }
}

std::string describe_json(const nlohmann::json& v) {
  using nlohmann::json;
  switch (v.type()) {
    case json::value_t::string:
      return "string " + v.dump();
    case json::value_t::boolean:
      return "boolean " + v.dump();
    case json::value_t::null:
      return "null";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "integer " + v.dump();
    case json::value_t::number_float:
      return "number " + v.dump();
    case json::value_t::array:
      return "an array";
    case json::value_t::object:
      return "an object";
    default:
      return v.type_name();
  }
}

}  // namespace mhaviz::io::detail
