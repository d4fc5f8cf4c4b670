#pragma once
// File > Open Recent: the stored list of recent files (recent_files.hpp) and the menu that
// shows it. Choosing an entry asks for it to be opened; entries whose files are gone are pruned
// first and reported. GUI thread only.

#include <QObject>
#include <QString>
#include <QStringList>

class QMenu;
class QWidget;

namespace mhaviz::ui {

class RecentFilesMenu : public QObject {
  Q_OBJECT

 public:
  explicit RecentFilesMenu(QObject* parent);

  [[nodiscard]] QStringList files() const { return m_files; }
  /// Moves `path` to the front of the list, stores the list and updates the menu.
  void remember(const QString& path);
  /// The menu (created once, owned by `parent`), kept up to date with the list.
  QMenu* menu(const QString& title, QWidget* parent);

 signals:
  void openRequested(const QString& path);
  /// Entries removed because their files no longer exist.
  void missingRemoved(const QStringList& removed);

 private:
  void rebuild();
  void choose(const QString& path);

  QStringList m_files;
  QMenu* m_menu = nullptr;
};

}  // namespace mhaviz::ui
