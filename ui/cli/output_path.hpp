#pragma once
// Checks on output file names given on the command line.

#include <QString>
#include <QStringList>

namespace mhaviz::cli {

/// Throws UsageError unless `path` ends (case-insensitively) in one of `suffixes` (".npz").
void requireSuffix(const QString& option, const QString& path, const QStringList& suffixes);

}  // namespace mhaviz::cli
