#include "cli/output_path.hpp"

#include "cli/usage_error.hpp"

namespace mhaviz::cli {

void requireSuffix(const QString& option, const QString& path, const QStringList& suffixes) {
  for (const QString& suffix : suffixes) {
    if (path.endsWith(suffix, Qt::CaseInsensitive) && path.size() > suffix.size()) return;
  }
  throw UsageError(QStringLiteral("--%1 \"%2\" must end in %3")
                       .arg(option, path, suffixes.join(QStringLiteral(" or ")))
                       .toStdString());
}

}  // namespace mhaviz::cli
