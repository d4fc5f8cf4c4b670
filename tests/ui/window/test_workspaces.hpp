#pragma once
// Workspaces (issue 40): Explore, Tokens, Compare, Model and Teach, each its own arrangement of
// the window's docks, chosen by a tab, View > Workspace and Ctrl+1...Ctrl+5, by the window when
// the user opens what a workspace shows, and by session files.
//
// The class is declared here; the tests are defined in test_workspaces.cpp (with QTEST_MAIN) and
// test_workspaces_model.cpp.

#include <qcustomplot.h>
#include <QToolTip>

#include <QAction>
#include <QDockWidget>
#include <QKeySequence>
#include <QSettings>
#include <QSignalSpy>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>

#include "compare/compare_panel.hpp"
#include "document/document.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "prompted_window.hpp"
#include "render/heatmap_grid.hpp"
#include "session/session_file.hpp"
#include "teach/teach_docks.hpp"
#include "teach/teaching_tools.hpp"
#include "tokens/text_view.hpp"
#include "window/workspace_arrangements.hpp"
#include "window/workspaces.hpp"

namespace mhaviz::ui::testing::workspaces {
inline constexpr int kTimeout = 60000;
}  // namespace mhaviz::ui::testing::workspaces

class TestWorkspaces : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { mhaviz::ui::testing::isolateSettings("mhaviz-workspace-tests"); }
  void init() {
    QSettings().clear();  // every test starts from the defaults
    m_w = new mhaviz::ui::testing::PromptedWindow;
    window().resize(1600, 1000);
    window().show();
    QVERIFY(QTest::qWaitForWindowExposed(&window()));
    QVERIFY(m_w->idle());
  }
  void cleanup() {
    delete m_w;
    m_w = nullptr;
  }

  // test_workspaces.cpp: the tabs, switching, arrangements, Compare, Tokens, tooltips,
  // session files, presentation
  void startsInExploreWithTabsAlongTheTop();
  void eachWorkspaceGivesItsPictureTheRoom();
  void shortcutsMenuAndTabsSwitch();
  void eachRemembersItsArrangementAndResetGivesTheDefault();
  void pinningAShowsCompareAndLeavingGoesBack();
  void aResizedWindowResizesTheCompareNotTheParameters();
  void choosingATokenViewShowsTokens();
  void aTooltipDoesNotOutliveWhatItDescribed();
  void sessionFilesKnowTheWorkspace();
  void presentationHasTheScreenInEveryWorkspace();

  // test_workspaces_model.cpp: the Model workspace: a model opened, the text view and the
  // Image view given room
  void theTextViewShownInModelHasRoom_data();
  void theTextViewShownInModelHasRoom();
  void openingAModelShowsModelAndTheFullViewGoesBack();
  void theImageViewComesAndGoesWithTheModelsImage();

 private:
  mhaviz::ui::MainWindow& window() { return m_w->window; }

  /// The Explore workspace: the grid, the parameters left of it, the head measures a
  /// full-height column right of it, no other dock (test_workspaces.cpp).
  void checkExplore();
  /// Opens a bundled model (File > Examples) and waits until it is loaded and drawn
  /// (test_workspaces_model.cpp).
  bool openExample(const QString& name);

  mhaviz::ui::testing::PromptedWindow* m_w = nullptr;
};
