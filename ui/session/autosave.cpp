#include "session/autosave.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QStandardPaths>
#include <exception>
#include <map>
#include <memory>
#include <utility>

namespace mhaviz::ui {

Autosave::Autosave(QString path, std::function<Session()> snapshot, QObject* parent)
    : QObject(parent), m_path(std::move(path)), m_snapshot(std::move(snapshot)) {
  m_timer.setSingleShot(true);
  m_timer.setInterval(2000);
  connect(&m_timer, &QTimer::timeout, this, [this] { writeNow(); });
}

QString Autosave::defaultPath() {
  return claimPath(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation));
}

QString Autosave::claimPath(const QString& folder) {
  // Locks held for the rest of the process, by folder (the GUI thread is the only caller).
  static std::map<QString, std::pair<QString, std::unique_ptr<QLockFile>>> claimed;
  const QString key = QDir(folder).absolutePath();
  if (auto it = claimed.find(key); it != claimed.end()) return it->second.first;
  QDir().mkpath(key);
  const QDir dir(key);
  constexpr int kSlots = 64;
  for (int n = 0; n < kSlots; ++n) {
    auto lock =
        std::make_unique<QLockFile>(dir.filePath(QStringLiteral("autosave-%1.lock").arg(n)));
    lock->setStaleLockTime(0);  // only a lock whose process is gone is stale, never by age
    if (!lock->tryLock(0)) continue;
    const QString path = dir.filePath(QStringLiteral("autosave-%1.mhaviz.json").arg(n));
    claimed.emplace(key, std::make_pair(path, std::move(lock)));
    return path;
  }
  // 64 running windows (or a folder where no lock can be made): a file of this process's own.
  const QString path = dir.filePath(
      QStringLiteral("autosave-pid%1.mhaviz.json").arg(QCoreApplication::applicationPid()));
  claimed.emplace(key, std::make_pair(path, nullptr));
  return path;
}

void Autosave::changed() { m_timer.start(); }

QString Autosave::writeNow() {
  m_timer.stop();
  try {
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    Session s = m_snapshot();
    // An autosave must not depend on a file the user may move: embed the tensors.
    if (s.tensors) s.embedTensors = true;
    writeSession(s, m_path);
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

void Autosave::clear() {
  m_timer.stop();
  QFile::remove(m_path);
}

std::optional<RecoveryOffer> Autosave::pendingRecovery(const QString& path, QString* error) {
  const QFileInfo info(path);
  if (!info.exists()) return std::nullopt;
  try {
    RecoveryOffer offer{info.lastModified(), readSession(path)};
    return offer;
  } catch (const std::exception& e) {
    if (error != nullptr) *error = QString::fromUtf8(e.what());
    return std::nullopt;
  }
}

}  // namespace mhaviz::ui
