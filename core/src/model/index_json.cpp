// What the readers of a model index share (index_json.hpp).

#include "index_json.hpp"

#include "mhaviz/core/base/errors.hpp"

namespace mhaviz::model {

void fail(const std::string& where, const std::string& what) {
  throw InvalidInput(where + ": " + what);
}

std::vector<std::string> string_list(const nlohmann::json& v, const std::string& where,
                                     const char* key) {
  if (!v.is_array()) fail(where, std::string("key \"") + key + "\" must be a list of strings");
  std::vector<std::string> out;
  for (const nlohmann::json& item : v) {
    if (!item.is_string())
      fail(where, std::string("key \"") + key + "\" must be a list of strings");
    out.push_back(item.get<std::string>());
  }
  return out;
}

}  // namespace mhaviz::model
