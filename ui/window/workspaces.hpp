#pragma once
// Workspaces: a small set of named arrangements of one main window's docks, one per task, as
// Blender's workspace tabs and Qt Creator's modes have them. Each workspace has a default
// arrangement (a function that places the docks), remembers the arrangement the user gives it
// (QMainWindow::saveState per workspace, kept in QSettings when the window saves its layout),
// and is chosen by a tab along the top of the window, a View > Workspace menu entry with its
// shortcut, or the window itself when the user opens what another workspace shows. The
// workspaces are the window's (window/workspace_arrangements.hpp); this class only switches
// them. The document names the workspace shown (Document::workspace, which the session saves
// and opens): each switch sets it, and a workspace set there is shown. GUI thread only.

#include <QByteArray>
#include <QKeySequence>
#include <QList>
#include <QObject>
#include <QString>
#include <functional>

class QAction;
class QActionGroup;
class QMainWindow;
class QMenu;
class QTabBar;
class QToolBar;

namespace mhaviz::ui {

class Document;

struct Workspace {
  QString key;      // in settings and session files: "explore"
  QString name;     // the tab's text, translated: "Explore"
  QString toolTip;  // what it is for
  QKeySequence shortcut;
  /// What is not part of QMainWindow::saveState: the central widget's page and whether it is
  /// shown. Run on every switch, before the docks are restored.
  std::function<void()> enter;
  /// The default arrangement of the docks (Reset layout, and the first time): where they go.
  std::function<void()> arrange;
  /// Their default sizes, as shares of the window: run after `arrange`, and once more when the
  /// layout has run (docks just placed have no geometry yet, a window not shown no size).
  std::function<void()> sizes;
};

class Workspaces : public QObject {
  Q_OBJECT

 public:
  /// `workspaces` in tab order; the first is the one a fresh profile starts with. The tabs'
  /// toolbar goes before `before` (null: after the window's toolbars). `document` names the
  /// workspace shown.
  Workspaces(QMainWindow* window, Document* document, QList<Workspace> workspaces,
             QToolBar* before = nullptr);
  ~Workspaces() override;

  [[nodiscard]] int count() const { return static_cast<int>(m_list.size()); }
  [[nodiscard]] int current() const { return m_current; }
  [[nodiscard]] QString currentKey() const;
  [[nodiscard]] const Workspace& workspace(int index) const { return m_list.at(index); }
  /// The index of the workspace `key` names; -1 when none (a newer mhaviz's workspace).
  [[nodiscard]] int indexOf(const QString& key) const;
  /// The workspace shown before the current one (the one "back" returns to).
  [[nodiscard]] int previous() const { return m_previous; }

  /// Shows workspace `index`: the arrangement of the one left is kept, and `index`'s own
  /// (or its default) is restored; the document names it. Nothing happens for the current one
  /// or while disabled.
  void setCurrent(int index);
  /// Gives the current workspace its default arrangement back.
  void resetLayout();
  /// The arrangement workspace `index` has (the window's as it is, for the current one; empty:
  /// its default), and the one it gets the next time it is shown (not for the current one).
  [[nodiscard]] QByteArray arrangement(int index) const { return stateOf(index); }
  void setArrangement(int index, const QByteArray& state);
  /// Reads the remembered arrangements and the workspace to start with from QSettings and shows
  /// it (call once, when every dock exists).
  void restore();
  /// Writes every workspace's arrangement and the current one to QSettings.
  void save();

  /// Tabs along the top of the window (a toolbar of their own, not movable, not hidable).
  [[nodiscard]] QToolBar* toolBar() const { return m_toolBar; }
  [[nodiscard]] QTabBar* tabBar() const { return m_tabs; }
  /// View > Workspace: one checkable action per workspace with its shortcut, and Reset layout.
  [[nodiscard]] QAction* action(int index) const { return m_actions.at(index); }
  [[nodiscard]] QAction* resetAction() const { return m_reset; }
  /// View > Workspace, inserted at the top of `view`.
  void addMenu(QMenu* view);
  /// Off while presentation mode has the screen: no switching, the tabs disabled (hidden, they
  /// would not come back in their place when the window's state is restored).
  void setEnabled(bool on);
  /// Runs the current workspace's `enter` again (the centre after presentation mode).
  void reenter();
  /// False while a default arrangement waits for the layout to give it its sizes.
  [[nodiscard]] bool isSettled() const { return !m_sizing; }

 signals:
  void currentChanged(int index);

 private:
  void show(int index, bool useDefault);
  void applySizes();
  [[nodiscard]] QByteArray stateOf(int index) const;

  QMainWindow* m_window;
  Document* m_document;
  QList<Workspace> m_list;
  QList<QByteArray> m_states;  // the remembered arrangement of each (empty: its default)
  int m_current = -1;
  int m_previous = 0;
  bool m_enabled = true;
  bool m_sizing = false;  // the current workspace's default sizes are to be applied again
  QToolBar* m_toolBar;
  QTabBar* m_tabs;
  QActionGroup* m_group;
  QList<QAction*> m_actions;
  QAction* m_reset;
};

}  // namespace mhaviz::ui
