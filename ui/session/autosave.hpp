#pragma once
// Autosave: the current session written (atomically, debounced) to
// QStandardPaths::AppDataLocation/autosave.mhaviz.json after every change, removed on a clean
// exit. A file still there at start-up means the previous run crashed or was killed, and is
// offered for recovery. GUI thread only.

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>
#include <optional>

#include "ui/session/session_file.hpp"

namespace mhaviz::ui {

/// An autosave left behind by an earlier run.
struct RecoveryOffer {
  QDateTime written;  // local time of the last autosave
  Session session;
};

class Autosave : public QObject {
  Q_OBJECT

 public:
  /// `snapshot` returns the session to write; called when the debounce timer fires.
  Autosave(QString path, std::function<Session()> snapshot, QObject* parent = nullptr);

  /// AppDataLocation/autosave.mhaviz.json.
  static QString defaultPath();

  [[nodiscard]] QString path() const { return m_path; }
  /// Restarts the debounce timer (default 2 s); the file is written when it fires.
  void changed();
  void setDelay(int milliseconds) { m_timer.setInterval(milliseconds); }
  /// Writes now. Returns an empty string or the error (autosave failures never interrupt work).
  QString writeNow();
  /// Removes the file and stops a pending write (clean exit, or after a save).
  void clear();

  /// The autosave at `path`, if one exists and can be read; else nullopt. A damaged or newer
  /// autosave is reported through `error` (when non-null) and not offered.
  static std::optional<RecoveryOffer> pendingRecovery(const QString& path,
                                                      QString* error = nullptr);

 signals:
  void written(const QString& path);

 private:
  QString m_path;
  std::function<Session()> m_snapshot;
  QTimer m_timer;
};

}  // namespace mhaviz::ui
