// Generation-settings keys: "attn_mask" and "key_padding_mask" (see gen_json.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gen_json.hpp"
#include "json_key.hpp"
#include "mhaviz/core/base/errors.hpp"

namespace mhaviz::io::detail {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;
using namespace mhaviz::gen;  // NOLINT: the spec types and their enums

constexpr std::array<MaskDType, 2> kMaskDTypes = {MaskDType::boolean, MaskDType::floating};
constexpr std::array<MaskShape, 2> kMaskShapes = {MaskShape::two_d, MaskShape::three_d};
constexpr std::array<GraphBias, 2> kGraphBiases = {GraphBias::distance, GraphBias::table};

MaskCell get_cell(const json& v, const JsonKey& at) {
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
                [&](const json& x, const JsonKey& a) {
                  cell.i = get_int(x, a);
                  has_i = true;
                }},
               {"j",
                [&](const json& x, const JsonKey& a) {
                  cell.j = get_int(x, a);
                  has_j = true;
                }},
               {"b", [&](const json& x, const JsonKey& a) { cell.b = get_int(x, a); }},
               {"value", [&](const json& x, const JsonKey& a) {
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
void read_grid(const json& v, const JsonKey& at, MaskDType dtype, std::vector<MaskCell>& cells) {
  const auto row_cells = [&](const json& row, const JsonKey& a, std::int64_t b, std::int64_t i) {
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

std::optional<std::uint64_t> get_optional_seed(const json& v, const JsonKey& at) {
  if (v.is_null()) return std::nullopt;
  if (!v.is_number_unsigned()) at.fail("a non-negative integer or null", v);
  return v.get<std::uint64_t>();
}

}  // namespace

void read_attn_mask(const json& value, Config& config, std::string_view source) {
  const JsonKey at{source, "attn_mask"};
  AttnMaskSpec m;
  const json* grid = nullptr;
  JsonKey grid_at = at.dot("grid");
  read_object(
      value, at,
      {{"kind", [&](const json& v, const JsonKey& a) { m.kind = get_enum(v, a, kMaskKinds); }},
       {"dtype", [&](const json& v, const JsonKey& a) { m.dtype = get_enum(v, a, kMaskDTypes); }},
       {"shape", [&](const json& v, const JsonKey& a) { m.shape = get_enum(v, a, kMaskShapes); }},
       {"masked_value",
        [&](const json& v, const JsonKey& a) { m.masked_value = get_mask_value(v, a); }},
       {"width", [&](const json& v, const JsonKey& a) { m.width = get_int(v, a); }},
       {"segments", [&](const json& v, const JsonKey& a) { m.segments = get_int_list(v, a); }},
       {"probability", [&](const json& v, const JsonKey& a) { m.probability = get_number(v, a); }},
       {"seed", [&](const json& v, const JsonKey& a) { m.seed = get_optional_seed(v, a); }},
       {"causal", [&](const json& v, const JsonKey& a) { m.causal = get_bool(v, a); }},
       {"cells",
        [&](const json& v, const JsonKey& a) {
          const json& list = array_at(v, a);
          for (std::size_t k = 0; k < list.size(); ++k) m.cells.push_back(get_cell(list[k], a[k]));
        }},
       {"grid",
        [&](const json& v, const JsonKey& a) {
          grid = &v;
          grid_at = a;
        }},
       {"edges",
        [&](const json& v, const JsonKey& a) {
          const json& list = array_at(v, a);
          for (std::size_t k = 0; k < list.size(); ++k) {
            const std::vector<std::int64_t> e = get_int_list(list[k], a[k]);
            if (e.size() != 2) a[k].fail("a pair of node numbers [u, v]", list[k]);
            m.edges.push_back({e[0], e[1]});
          }
        }},
       {"edge_probability",
        [&](const json& v, const JsonKey& a) { m.edge_probability = get_number(v, a); }},
       {"graph_bias",
        [&](const json& v, const JsonKey& a) { m.graph_bias = get_enum(v, a, kGraphBiases); }},
       {"max_distance", [&](const json& v, const JsonKey& a) { m.max_distance = get_int(v, a); }},
       {"table_scale", [&](const json& v, const JsonKey& a) { m.table_scale = get_number(v, a); }},
       {"prefix_length", [&](const json& v, const JsonKey& a) { m.prefix_length = get_int(v, a); }},
       {"document_lengths",
        [&](const json& v, const JsonKey& a) { m.document_lengths = get_int_list(v, a); }},
       {"dilation", [&](const json& v, const JsonKey& a) { m.dilation = get_int(v, a); }},
       {"sink_tokens", [&](const json& v, const JsonKey& a) { m.sink_tokens = get_int(v, a); }}});
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
  if (k == MaskKind::window || k == MaskKind::band || k == MaskKind::dilated ||
      k == MaskKind::sink || m.width != d.width) {
    o["width"] = m.width;
  }
  if (k == MaskKind::block || m.segments != d.segments) o["segments"] = m.segments;
  if (k == MaskKind::random || m.probability != d.probability) o["probability"] = m.probability;
  if (k == MaskKind::random || graph || m.seed) {
    o["seed"] = m.seed ? ordered_json(*m.seed) : ordered_json(nullptr);
  }
  if (is_bias_kind(k) || k == MaskKind::document || k == MaskKind::dilated || m.causal) {
    o["causal"] = m.causal;
  }
  if (k == MaskKind::prefix_lm || m.prefix_length != d.prefix_length) {
    o["prefix_length"] = m.prefix_length;
  }
  if (k == MaskKind::document || !m.document_lengths.empty()) {
    o["document_lengths"] = m.document_lengths;
  }
  if (k == MaskKind::dilated || m.dilation != d.dilation) o["dilation"] = m.dilation;
  if (k == MaskKind::sink || m.sink_tokens != d.sink_tokens) o["sink_tokens"] = m.sink_tokens;
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
  const JsonKey at{source, "key_padding_mask"};
  KeyPaddingSpec p;
  bool has_kind = false;
  bool has_lengths = false;
  bool has_keys = false;
  read_object(
      value, at,
      {{"kind",
        [&](const json& v, const JsonKey& a) {
          p.kind = get_enum(v, a, kPaddingKinds);
          has_kind = true;
        }},
       {"valid_lengths",
        [&](const json& v, const JsonKey& a) {
          p.valid_lengths = get_int_list(v, a);
          has_lengths = true;
        }},
       {"padded_keys",
        [&](const json& v, const JsonKey& a) {
          const json& list = array_at(v, a);
          for (std::size_t n = 0; n < list.size(); ++n) {
            p.padded_keys.push_back(get_int_list(list[n], a[n]));
          }
          has_keys = true;
        }},
       {"dtype", [&](const json& v, const JsonKey& a) { p.dtype = get_enum(v, a, kMaskDTypes); }},
       {"masked_value",
        [&](const json& v, const JsonKey& a) { p.masked_value = get_mask_value(v, a); }}});
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
}  // namespace mhaviz::io::detail
