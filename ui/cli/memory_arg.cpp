#include "cli/memory_arg.hpp"

#include <QRegularExpression>
#include <cmath>

namespace mhaviz::cli {

namespace {

/// Multiplier of a unit suffix, or 0 for an unknown one.
double unitFactor(const QString& unit) {
  const QString u = unit.toLower();
  if (u.isEmpty() || u == "b") return 1.0;
  if (u == "k" || u == "kib") return 1024.0;
  if (u == "m" || u == "mib") return 1024.0 * 1024.0;
  if (u == "g" || u == "gib") return 1024.0 * 1024.0 * 1024.0;
  if (u == "t" || u == "tib") return 1024.0 * 1024.0 * 1024.0 * 1024.0;
  if (u == "kb") return 1e3;
  if (u == "mb") return 1e6;
  if (u == "gb") return 1e9;
  if (u == "tb") return 1e12;
  return 0.0;
}

}  // namespace

std::optional<std::uint64_t> parseByteSize(const QString& text) {
  static const QRegularExpression pattern(
      QStringLiteral(R"(^\s*([0-9]+(?:\.[0-9]*)?(?:[eE][+]?[0-9]+)?)\s*([A-Za-z]*)\s*$)"));
  const QRegularExpressionMatch match = pattern.match(text);
  if (!match.hasMatch()) return std::nullopt;
  bool ok = false;
  const double number = match.captured(1).toDouble(&ok);
  const double factor = unitFactor(match.captured(2));
  if (!ok || factor == 0.0) return std::nullopt;
  const double bytes = std::floor(number * factor);
  // 2^64 is exactly representable; anything at or above it does not fit.
  if (!std::isfinite(bytes) || bytes < 1.0 || bytes >= 18446744073709551616.0) return std::nullopt;
  return static_cast<std::uint64_t>(bytes);
}

}  // namespace mhaviz::cli
