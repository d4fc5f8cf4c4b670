#pragma once
// The layout audit (issue 40; layout_audit.hpp and picture_audit.hpp say what it checks): every
// workspace at 1280x720, 1600x1000 and 1920x1080, in English and Simplified Chinese, light and
// dark, on representative states, the text the grids draw themselves, each workspace's main
// picture given the room the workspace promises; and every exported picture (grid, one head,
// head view, text view, compare's B - A) at DPI scale 1, 2 and 3 and as SVG.
//
// The states (chosen for what they put on screen, not every combination of everything, to keep
// the run short): 8 heads with add_bias_kv + add_zero_attn and token labels, A pinned and B
// changed (Explore, Tokens, Compare, Teach: every dock of theirs filled: head measures, head
// and text views, A | B | B - A, walk-through); 16 heads (Explore and Teach, the grid's most
// maps); the bundled reversing model (Model: the layers x heads grid, its head measures and
// head view of the selected layer). The light/dark pass changes only the palette, so it runs at
// the middle size; the three sizes run in both languages.
//
// The class is declared here; its tests are defined in test_layout_audit_workspaces.cpp (with
// QTEST_MAIN), the audit of one window state in test_layout_audit_window.cpp.

#include <QDockWidget>
#include <QList>
#include <QMainWindow>
#include <QObject>
#include <QSize>
#include <QString>
#include <QStringList>

#include "prompted_window.hpp"
#include "window/main_window.hpp"

namespace mhaviz::ui::testing::layout {

inline constexpr int kTimeout = 60000;

inline const QList<QSize> kSizes = {QSize(1280, 720), QSize(1600, 1000), QSize(1920, 1080)};

}  // namespace mhaviz::ui::testing::layout

class TestLayoutAudit : public QObject {
  Q_OBJECT

 private slots:
  // test_layout_audit_workspaces.cpp
  void initTestCase();
  void cleanupTestCase();
  void theAuditFindsWhatItIsFor();
  void thePictureAuditFindsWhatItIsFor();
  void everyWorkspaceAtEverySize_data();
  void everyWorkspaceAtEverySize();
  void everyExportedPicture_data();
  void everyExportedPicture();

 private:
  // AUDIT_REPORT=FILE: every problem found, one a line, appended to FILE (QTest's message is
  // cut short).
  static void report(const QStringList& problems);
  static bool onScreenTab(const QMainWindow& window, const QDockWidget* dock);
  static void setConfig(mhaviz::ui::testing::PromptedWindow& w, const char* json);
  void auditAtEverySize(mhaviz::ui::testing::PromptedWindow& w, int workspace,
                        const QString& state);
  // Shows `workspace` at `size` with its default arrangement, lets the layout and the pictures
  // settle, and records what the audit finds, with where.
  void audit(mhaviz::ui::testing::PromptedWindow& w, int workspace, const QSize& size,
             const QString& state);
  // The head measures draw their own text: each inside the view, none cut; the view as tall as
  // its bars and texts need (its scroll area scrolls); the dock shows at least the heading and
  // every head's bar of the first measure.
  static QStringList measuresProblems(const mhaviz::ui::MainWindow& window, const QString& where);
  QStringList m_problems;
};
