#pragma once
// What the readers of a model index share: the failure that names where it happened, and the
// lists of strings (tokens, labels) every version's index holds.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mhaviz::model {

/// Throws InvalidInput "where: what".
[[noreturn]] void fail(const std::string& where, const std::string& what);

/// The strings of `v`, a JSON list; fails naming `key` when it is not a list of strings.
std::vector<std::string> string_list(const nlohmann::json& v, const std::string& where,
                                     const char* key);

}  // namespace mhaviz::model
