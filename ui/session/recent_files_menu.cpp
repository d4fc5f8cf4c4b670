#include "session/recent_files_menu.hpp"

#include <QDir>
#include <QMenu>

#include "session/recent_files.hpp"

namespace mhaviz::ui {

RecentFilesMenu::RecentFilesMenu(QObject* parent) : QObject(parent), m_files(loadRecentFiles()) {}

void RecentFilesMenu::remember(const QString& path) {
  m_files = addRecentFile(m_files, path);
  storeRecentFiles(m_files);
  rebuild();
}

QMenu* RecentFilesMenu::menu(const QString& title, QWidget* parent) {
  if (m_menu == nullptr) {
    m_menu = new QMenu(title, parent);
    rebuild();
  }
  return m_menu;
}

void RecentFilesMenu::rebuild() {
  if (m_menu == nullptr) return;
  m_menu->clear();
  for (const QString& path : m_files) {
    m_menu->addAction(QDir::toNativeSeparators(path), this, [this, path] { choose(path); });
  }
  m_menu->setEnabled(!m_files.isEmpty());
}

void RecentFilesMenu::choose(const QString& path) {
  QStringList removed;
  const QStringList kept = pruneMissingFiles(m_files, &removed);
  if (!removed.isEmpty()) {
    m_files = kept;
    storeRecentFiles(m_files);
    rebuild();
    emit missingRemoved(removed);
    if (removed.contains(path)) return;
  }
  emit openRequested(path);
}

}  // namespace mhaviz::ui
