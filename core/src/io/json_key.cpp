#include "json_key.hpp"

#include <cmath>
#include <limits>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/suggest.hpp"

namespace mhaviz::io::detail {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

JsonKey JsonKey::operator[](std::size_t index) const {
  return {source, path + "[" + std::to_string(index) + "]"};
}

JsonKey JsonKey::dot(std::string_view key) const { return {source, path + "." + std::string(key)}; }

void JsonKey::fail(std::string_view expected, const json& v) const {
  throw InvalidInput(std::string(source) + ": key \"" + path + "\" must be " +
                     std::string(expected) + ", got " + describe_json(v));
}

void JsonKey::out_of_range(std::string_view expected, const json& v) const {
  throw InvalidInput(std::string(source) + ": key \"" + path + "\" must be " +
                     std::string(expected) + "; " + v.dump() + " is out of range");
}

std::int64_t get_int(const json& v, const JsonKey& at, std::string_view expected) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      at.out_of_range(expected, v);
    }
    return static_cast<std::int64_t>(u);
  }
  if (v.is_number_integer()) return v.get<std::int64_t>();
  at.fail(expected, v);
}

std::uint64_t get_uint(const json& v, const JsonKey& at, std::string_view expected) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer()) at.out_of_range(expected, v);  // negative
  at.fail(expected, v);
}

double get_number(const json& v, const JsonKey& at, std::string_view expected) {
  if (!v.is_number()) at.fail(expected, v);
  return v.get<double>();
}

bool get_bool(const json& v, const JsonKey& at, std::string_view expected) {
  if (!v.is_boolean()) at.fail(expected, v);
  return v.get<bool>();
}

double get_mask_value(const json& v, const JsonKey& at) {
  if (v.is_string() && v.get<std::string>() == "-inf") return -kInf;
  if (v.is_string() && v.get<std::string>() == "inf") return kInf;  // refused by validation
  if (!v.is_number()) at.fail(R"(a number or "-inf")", v);
  return v.get<double>();
}

ordered_json mask_value_json(double v) {
  if (std::isinf(v)) return v < 0 ? ordered_json("-inf") : ordered_json("inf");
  return ordered_json(v);
}

const json& array_at(const json& v, const JsonKey& at) {
  if (!v.is_array()) at.fail("an array", v);
  return v;
}

std::vector<std::int64_t> get_int_list(const json& v, const JsonKey& at) {
  std::vector<std::int64_t> out;
  const json& a = array_at(v, at);
  for (std::size_t k = 0; k < a.size(); ++k) out.push_back(get_int(a[k], at[k]));
  return out;
}

void read_object(const json& v, const JsonKey& at,
                 const std::map<std::string_view, Reader>& readers) {
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
