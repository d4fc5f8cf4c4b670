#include "session/recent_files.hpp"

#include <QFileInfo>
#include <QSettings>

namespace mhaviz::ui {

namespace {
const QString kKey = QStringLiteral("session/recentFiles");
}

QStringList addRecentFile(QStringList list, const QString& path, int max) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  list.removeAll(absolute);
  list.prepend(absolute);
  while (list.size() > max) list.removeLast();
  return list;
}

QStringList pruneMissingFiles(const QStringList& list, QStringList* removed) {
  QStringList kept;
  for (const QString& path : list) {
    if (QFileInfo::exists(path)) {
      kept << path;
    } else if (removed != nullptr) {
      *removed << path;
    }
  }
  return kept;
}

QStringList loadRecentFiles() { return QSettings().value(kKey).toStringList(); }

void storeRecentFiles(const QStringList& list) { QSettings().setValue(kKey, list); }

}  // namespace mhaviz::ui
