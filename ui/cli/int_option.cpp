// An integer option of at least some value (int_option.hpp).

#include "cli/int_option.hpp"

#include "cli/usage_error.hpp"

namespace mhaviz::cli {

int intOption(const QCommandLineParser& parser, const QString& option, int fallback, int least) {
  if (!parser.isSet(option)) return fallback;
  bool ok = false;
  const int v = parser.value(option).toInt(&ok);
  if (!ok || v < least) {
    throw UsageError(QStringLiteral("--%1 \"%2\" must be an integer of at least %3")
                         .arg(option, parser.value(option))
                         .arg(least)
                         .toStdString());
  }
  return v;
}

}  // namespace mhaviz::cli
