#pragma once
// The File > Open Recent list: most recent first, at most kMaxRecentFiles, kept in QSettings.

#include <QString>
#include <QStringList>

namespace mhaviz::ui {

inline constexpr int kMaxRecentFiles = 8;

/// `list` with `path` (made absolute) moved or added to the front, trimmed to `max` entries.
QStringList addRecentFile(QStringList list, const QString& path, int max = kMaxRecentFiles);

/// `list` without the files that no longer exist; those are appended to `removed`.
QStringList pruneMissingFiles(const QStringList& list, QStringList* removed);

/// The list stored in QSettings under "session/recentFiles".
QStringList loadRecentFiles();
void storeRecentFiles(const QStringList& list);

}  // namespace mhaviz::ui
