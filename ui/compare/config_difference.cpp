#include "compare/config_difference.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mhaviz/core/io/config_json.hpp"

namespace mhaviz::ui {

namespace {

using Json = nlohmann::ordered_json;  // the file's order of keys

Json asJson(const mhaviz::Config& config) {
  return Json::parse(mhaviz::io::config_to_json(config));
}

// A value as the file writes it (whole numbers exactly: seeds beyond 2^53 included), strings
// without quotes, Python's True/False/None, arrays and objects compact.
QString shown(const Json& value) {
  QString text;
  if (value.is_string()) {
    text = QString::fromStdString(value.get<std::string>());
  } else if (value.is_boolean()) {
    text = value.get<bool>() ? QStringLiteral("True") : QStringLiteral("False");
  } else if (value.is_null()) {
    text = QStringLiteral("None");
  } else {
    text = QString::fromStdString(value.dump());
  }
  constexpr int kLongest = 40;
  return text.size() > kLongest ? text.left(kLongest - 1) + QChar(0x2026) : text;
}

}  // namespace

QStringList differingSettings(const mhaviz::Config& mine, const mhaviz::Config& other) {
  const Json a = asJson(mine), b = asJson(other);
  static const QStringList kInHeader = {QStringLiteral("tgt_len"), QStringLiteral("src_len"),
                                        QStringLiteral("batch_size"), QStringLiteral("embed_dim"),
                                        QStringLiteral("num_heads")};
  const Json none;
  const auto value = [&none](const Json& j, const std::string& key) -> const Json& {
    const auto it = j.find(key);
    return it == j.end() ? none : *it;
  };
  // The keys of `mine` in its file's order, then any only `other` has.
  std::vector<std::string> keys;
  for (const auto& [key, v] : a.items()) keys.push_back(key);
  for (const auto& [key, v] : b.items()) {
    if (!a.contains(key)) keys.push_back(key);
  }
  QStringList out;
  for (const std::string& key : keys) {
    const QString name = QString::fromStdString(key);
    if (kInHeader.contains(name) || value(a, key) == value(b, key)) continue;
    out << name + QLatin1Char('=') + shown(value(a, key));
  }
  return out;
}

}  // namespace mhaviz::ui
