#include "ui/session/autosave.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <exception>
#include <utility>

namespace mhaviz::ui {

Autosave::Autosave(QString path, std::function<Session()> snapshot, QObject* parent)
    : QObject(parent), m_path(std::move(path)), m_snapshot(std::move(snapshot)) {
  m_timer.setSingleShot(true);
  m_timer.setInterval(2000);
  connect(&m_timer, &QTimer::timeout, this, [this] { writeNow(); });
}

QString Autosave::defaultPath() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
      .filePath(QStringLiteral("autosave.mhaviz.json"));
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
  emit written(m_path);
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
