#pragma once
// An integer option of at least some value (--batch, --step, --layer, --width, ...), shared by
// the commands.

#include <QCommandLineParser>
#include <QString>

namespace mhaviz::cli {

/// The value of `--option`, or `fallback` when it is not given. Throws UsageError naming the
/// option and the value for text that is not an integer or an integer below `least`.
int intOption(const QCommandLineParser& parser, const QString& option, int fallback, int least);

}  // namespace mhaviz::cli
