#pragma once
// Autosave: the current session written (atomically, debounced) to an autosave file in
// QStandardPaths::AppDataLocation after every change, removed on a clean exit. Each running
// mhaviz holds its own file (autosave-N.mhaviz.json, claimed with the lock file autosave-N.lock
// for as long as it runs), so two windows never write over or discard each other's autosave.
// A file whose lock is free at start-up was left by a run that crashed or was killed, and is
// offered for recovery. GUI thread only.

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>
#include <optional>

#include "session/session_file.hpp"

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

  /// This process's autosave file in AppDataLocation: claimPath() of that folder.
  static QString defaultPath();

  /// The autosave file of this process in `folder`: autosave-N.mhaviz.json for the lowest N
  /// whose lock (autosave-N.lock) no running mhaviz holds. The lock is taken and kept until the
  /// process ends, so later calls for the same folder return the same file; a lock left by a
  /// process that no longer runs counts as free.
  static QString claimPath(const QString& folder);

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

 private:
  QString m_path;
  std::function<Session()> m_snapshot;
  QTimer m_timer;
};

}  // namespace mhaviz::ui
