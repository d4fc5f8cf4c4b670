#pragma once
// Reading configuration-file values (internal to the core): one reader for every key, so that
// every message has the same form — it starts with the source name, names the full key path
// ("attn_mask.cells[2]") and says what was expected and what was found.

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace mhaviz::io::detail {

/// A JSON value as a message shows it: `string "2"`, `integer 2`, `boolean true`, `null`.
std::string describe_json(const nlohmann::json& v);

/// Where a value is read: the source ("c.json") and the key path, for messages.
struct JsonKey {
  std::string_view source;
  std::string path;

  [[nodiscard]] JsonKey operator[](std::size_t index) const;
  [[nodiscard]] JsonKey dot(std::string_view key) const;
  /// Throws InvalidInput: `<source>: key "<path>" must be <expected>, got <value>`.
  [[noreturn]] void fail(std::string_view expected, const nlohmann::json& v) const;
  /// Throws InvalidInput: `<source>: key "<path>" must be <expected>; <value> is out of range`.
  [[noreturn]] void out_of_range(std::string_view expected, const nlohmann::json& v) const;
};

std::int64_t get_int(const nlohmann::json& v, const JsonKey& at,
                     std::string_view expected = "an integer");
std::uint64_t get_uint(const nlohmann::json& v, const JsonKey& at,
                       std::string_view expected = "a non-negative integer");
double get_number(const nlohmann::json& v, const JsonKey& at,
                  std::string_view expected = "a number");
bool get_bool(const nlohmann::json& v, const JsonKey& at,
              std::string_view expected = "true or false");
/// A mask value: a number or the string "-inf" (JSON has no infinity).
double get_mask_value(const nlohmann::json& v, const JsonKey& at);
nlohmann::ordered_json mask_value_json(double v);
const nlohmann::json& array_at(const nlohmann::json& v, const JsonKey& at);
std::vector<std::int64_t> get_int_list(const nlohmann::json& v, const JsonKey& at);

/// One of an enum's names; the message lists them all.
template <typename Enum, std::size_t Count>
Enum get_enum(const nlohmann::json& v, const JsonKey& at, const std::array<Enum, Count>& values) {
  std::string names;
  for (const Enum e : values)
    names += (names.empty() ? "one of \"" : ", \"") + std::string(to_string(e)) + "\"";
  if (v.is_string()) {
    for (const Enum e : values) {
      if (to_string(e) == v.template get<std::string>()) return e;
    }
  }
  at.fail(names, v);
}

/// Reads an object whose keys each have a reader; an unknown key names the closest one.
using Reader = std::function<void(const nlohmann::json&, const JsonKey&)>;
void read_object(const nlohmann::json& v, const JsonKey& at,
                 const std::map<std::string_view, Reader>& readers);

}  // namespace mhaviz::io::detail
