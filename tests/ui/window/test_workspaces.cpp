#include "test_workspaces.hpp"

using namespace mhaviz::ui;
using mhaviz::ui::testing::workspaces::kTimeout;

void TestWorkspaces::startsInExploreWithTabsAlongTheTop() {
  Workspaces* ws = window().workspaces();
  QCOMPARE(ws->count(), 5);
  QCOMPARE(ws->current(), int(kExplore));
  QCOMPARE(ws->currentKey(), QStringLiteral("explore"));
  QTabBar* tabs = ws->tabBar();
  QCOMPARE(tabs->count(), 5);
  QCOMPARE(tabs->tabText(kExplore), QStringLiteral("Explore"));
  QCOMPARE(tabs->tabText(kTeach), QStringLiteral("Teach"));
  QVERIFY(tabs->isVisible());
  // Along the top: the tabs' toolbar in the top area, left of every other toolbar.
  QCOMPARE(window().toolBarArea(ws->toolBar()), Qt::TopToolBarArea);
  for (QToolBar* bar : window().findChildren<QToolBar*>()) {
    if (bar != ws->toolBar() && bar->isVisible()) QVERIFY(bar->x() > ws->toolBar()->x());
  }
  checkExplore();
}

void TestWorkspaces::eachWorkspaceGivesItsPictureTheRoom() {
  Workspaces* ws = window().workspaces();
  ws->setCurrent(kTokens);
  QTRY_VERIFY(window().headViewDock()->isVisible() && window().textViewDock()->isVisible());
  // Side by side, each wider than the grid, which stays (small) in the centre.
  QTRY_VERIFY(window().headViewDock()->width() > window().centralWidget()->width());
  QVERIFY(window().textViewDock()->width() > window().centralWidget()->width() * 3 / 4);
  QCOMPARE(window().headViewDock()->y(), window().textViewDock()->y());
  QVERIFY(window().headViewDock()->x() < window().textViewDock()->x());
  QVERIFY(window().centralWidget()->isVisible());
  QVERIFY(!window().parameterDock()->isVisible());

  ws->setCurrent(kCompare);
  QDockWidget* compare = window().comparePanel()->dock();
  QTRY_VERIFY(compare->isVisible());
  QVERIFY(!window().centralWidget()->isVisible());  // A | B | B - A is the centre
  QTRY_VERIFY(compare->width() > window().width() * 6 / 10);
  QVERIFY(compare->height() > window().height() * 8 / 10);  // not a strip at the bottom
  QVERIFY(window().parameterDock()->isVisible());           // B is changed there
  // Nothing pinned: the panel says how to pin A.
  QVERIFY(window().comparePanel()->message().contains(QStringLiteral("Pin current settings")));

  ws->setCurrent(kModel);
  QTRY_VERIFY(window().pages()->showingModel());
  QVERIFY(window().centralWidget()->isVisible());
  QVERIFY(window().measuresDock()->isVisible() && window().headViewDock()->isVisible());
  QVERIFY(!compare->isVisible());

  ws->setCurrent(kTeach);
  QVERIFY(!window().pages()->showingModel());
  QVERIFY(window().teaching()->walkthrough()->isVisible());
  QVERIFY(window().teaching()->breakdown()->isVisible());
  // One column, the grid the rest: the parameters under the breakdown.
  QVERIFY(window().parameterDock()->isVisible());
  QTRY_VERIFY(window().parameterDock()->x() == window().teaching()->breakdown()->x());
  QVERIFY(window().parameterDock()->y() > window().teaching()->breakdown()->y());
  QVERIFY(!window().headViewDock()->isVisible());
  // The walk-through is below the grid, the breakdown on its right.
  QTRY_VERIFY(window().teaching()->walkthrough()->y() >=
              window().centralWidget()->geometry().bottom());
  QVERIFY(window().teaching()->breakdown()->x() >= window().centralWidget()->geometry().right());

  ws->setCurrent(kExplore);
  checkExplore();
}

void TestWorkspaces::shortcutsMenuAndTabsSwitch() {
  Workspaces* ws = window().workspaces();
  // Ctrl+1 ... Ctrl+5, and no other action of the window has them.
  for (int i = 0; i < ws->count(); ++i) {
    const QKeySequence key(Qt::CTRL | Qt::Key(Qt::Key_1 + i));
    QCOMPARE(ws->action(i)->shortcut(), key);
    for (QAction* a : window().findChildren<QAction*>()) {
      if (a != ws->action(i)) QVERIFY2(a->shortcut() != key, qPrintable(a->text()));
    }
  }
  QTest::keyClick(&window(), Qt::Key_3, Qt::ControlModifier);
  QCOMPARE(ws->current(), int(kCompare));
  QCOMPARE(ws->tabBar()->currentIndex(), int(kCompare));
  QVERIFY(ws->action(kCompare)->isChecked());
  ws->action(kTeach)->trigger();
  QCOMPARE(ws->current(), int(kTeach));
  ws->tabBar()->setCurrentIndex(kTokens);
  QCOMPARE(ws->current(), int(kTokens));
  QVERIFY(ws->action(kTokens)->isChecked());
  QTest::keyClick(&window(), Qt::Key_1, Qt::ControlModifier);
  QCOMPARE(ws->current(), int(kExplore));
}

void TestWorkspaces::eachRemembersItsArrangementAndResetGivesTheDefault() {
  Workspaces* ws = window().workspaces();
  window().measuresDock()->hide();  // the user's change to Explore
  ws->setCurrent(kModel);
  QVERIFY(window().measuresDock()->isVisible());  // Model's own arrangement
  ws->setCurrent(kExplore);
  QVERIFY(!window().measuresDock()->isVisible());
  ws->resetAction()->trigger();
  checkExplore();
  // Kept across windows: closing saves each arrangement and the workspace.
  ws->setCurrent(kTeach);
  window().teaching()->shapeFlow()->raise();
  window().parameterDock()->hide();
  QVERIFY(window().close());
  delete m_w;
  m_w = new testing::PromptedWindow;
  window().resize(1600, 1000);
  window().show();
  QVERIFY(QTest::qWaitForWindowExposed(&window()));
  QCOMPARE(window().workspaces()->current(), int(kTeach));
  QVERIFY(!window().parameterDock()->isVisible());
  QVERIFY(window().teaching()->walkthrough()->isVisible());
}

void TestWorkspaces::pinningAShowsCompareAndLeavingGoesBack() {
  Workspaces* ws = window().workspaces();
  ws->setCurrent(kTeach);
  QWidget* walk = window().teaching()->walkthrough();
  QTRY_VERIFY(ws->isSettled());  // Teach's default sizes given
  const int walkHeight = walk->height();
  ComparePanel* panel = window().comparePanel();
  panel->pin();
  QCOMPARE(ws->current(), int(kCompare));
  QTRY_VERIFY(panel->isUpToDate() && !panel->data().a.maps.empty());
  QVERIFY(panel->dock()->isVisible());
  QVERIFY(!walk->isVisible());
  panel->unpin();
  QCOMPARE(ws->current(), int(kTeach));
  QVERIFY(!panel->dock()->isVisible());
  QTRY_VERIFY2(qAbs(walk->height() - walkHeight) <= 4,
               qPrintable(QStringLiteral("walk-through %1 px high, was %2")
                              .arg(walk->height())
                              .arg(walkHeight)));  // Teach as it was
}

// In Compare A | B | B - A is the centre: a window made wider or narrower widens or narrows it,
// not the Parameters beside it (the defect: 1280 -> 1600 gave the Parameters 194 of the 320 px).
void TestWorkspaces::aResizedWindowResizesTheCompareNotTheParameters() {
  Workspaces* ws = window().workspaces();
  window().resize(1280, 720);
  QTRY_COMPARE(window().size(), QSize(1280, 720));
  ws->setCurrent(kCompare);
  QTRY_VERIFY(ws->isSettled());
  QDockWidget* compare = window().comparePanel()->dock();
  QDockWidget* parameters = window().parameterDock();
  QTRY_VERIFY(compare->isVisible() && parameters->isVisible());
  const int parametersWidth = parameters->width();
  for (const QSize size : {QSize(1600, 1000), QSize(1920, 1080), QSize(1280, 720)}) {
    const int compareWidth = compare->width();
    const int grown = size.width() - window().width();
    window().resize(size);
    QTRY_COMPARE(window().size(), size);
    QTRY_VERIFY2(qAbs(compare->width() - (compareWidth + grown)) <= 4,
                 qPrintable(QStringLiteral("at %1 px: compare %2 px wide, was %3; parameters "
                                           "%4 px, were %5")
                                .arg(size.width())
                                .arg(compare->width())
                                .arg(compareWidth)
                                .arg(parameters->width())
                                .arg(parametersWidth)));
    QVERIFY(qAbs(parameters->width() - parametersWidth) <= 4);
  }
}

void TestWorkspaces::choosingATokenViewShowsTokens() {
  Workspaces* ws = window().workspaces();
  window().textViewDock()->toggleViewAction()->trigger();
  QCOMPARE(ws->current(), int(kTokens));
  QVERIFY(window().textViewDock()->isVisible());
  // Chosen again after the user hid it in Tokens and left: back, and shown.
  window().textViewDock()->hide();
  ws->setCurrent(kExplore);
  window().textViewDock()->toggleViewAction()->trigger();
  QCOMPARE(ws->current(), int(kTokens));
  QVERIFY(window().textViewDock()->isVisible());
}

// Issue 40 defect 8: a hover tooltip does not outlive what it described: the bias_k column's
// is taken down when add_bias_kv goes (the column with it), and none floats over the docks of
// another workspace.
void TestWorkspaces::aTooltipDoesNotOutliveWhatItDescribed() {
  Workspaces* ws = window().workspaces();
  ws->setCurrent(kExplore);
  mhaviz::Config c = m_w->document()->config();
  c.embed_dim = 8;
  c.num_heads = 2;
  c.tgt_len = 4;
  c.src_len = 4;
  c.add_bias_kv = true;
  m_w->document()->changeConfig(c, QStringLiteral("bias_k"));
  QVERIFY(m_w->idle());
  HeatmapGrid* grid = window().grid();
  QTRY_VERIFY(testing::pictureSettled(*grid));
  const auto hoverBiasK = [&] {
    grid->plot()->replot();
    auto* colours = qobject_cast<QCPColorMap*>(grid->plot()->plottable(0));
    const int rows = colours->data()->valueSize();
    const int cols = colours->data()->keySize();
    const QPoint p(static_cast<int>(colours->keyAxis()->coordToPixel(cols - 1)),
                   static_cast<int>(colours->valueAxis()->coordToPixel(rows - 1)));
    QMouseEvent move(QEvent::MouseMove, p, grid->plot()->mapToGlobal(p), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(grid->plot(), &move);
  };
  hoverBiasK();
  QTRY_VERIFY(QToolTip::isVisible());
  QVERIFY2(QToolTip::text().contains(QStringLiteral("bias_k")), qPrintable(QToolTip::text()));
  c.add_bias_kv = false;
  m_w->document()->changeConfig(c, QStringLiteral("no bias_k"));
  QVERIFY(m_w->idle());
  QTRY_VERIFY2(!QToolTip::isVisible(), qPrintable(QToolTip::text()));
  // Shown again, then another workspace: taken down with the arrangement it belonged to.
  c.add_bias_kv = true;
  m_w->document()->changeConfig(c, QStringLiteral("bias_k"));
  QVERIFY(m_w->idle());
  QTRY_VERIFY(testing::pictureSettled(*grid));
  hoverBiasK();
  QTRY_VERIFY(QToolTip::isVisible());
  ws->setCurrent(kModel);
  QTRY_VERIFY2(!QToolTip::isVisible(), qPrintable(QToolTip::text()));
}

void TestWorkspaces::sessionFilesKnowTheWorkspace() {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("s.mhaviz.json"));
  Workspaces* ws = window().workspaces();
  ws->setCurrent(kTokens);
  QCOMPARE(window().document()->workspace(), QStringLiteral("tokens"));  // it names the one shown
  QVERIFY(!window().session()->isModified());  // a workspace is no change to the session
  QVERIFY(window().session()->saveTo(path));
  QCOMPARE(readSession(path).workspace, QStringLiteral("tokens"));
  ws->setCurrent(kTeach);
  QVERIFY(window().session()->open(path));
  QCOMPARE(ws->current(), int(kTokens));
  // Version 1 files (no workspace) keep opening and keep the workspace shown.
  const QByteArray v1 = R"({"format": "mhaviz-session", "version": 1, "config": {}})";
  const Session old = parseSession(v1, QStringLiteral("old.mhaviz.json"));
  QVERIFY(old.workspace.isEmpty());
  ws->setCurrent(kTeach);
  window().session()->applySession(old, QString(), true);
  QCOMPARE(ws->current(), int(kTeach));
  // A newer mhaviz's workspace is ignored; a wrong type is an error.
  Session future = old;
  future.workspace = QStringLiteral("sculpt");
  window().session()->applySession(future, QString(), true);
  QCOMPARE(ws->current(), int(kTeach));
  QCOMPARE(window().document()->workspace(), QStringLiteral("teach"));
  // One set in the document is shown.
  window().document()->setWorkspace(QStringLiteral("model"));
  QCOMPARE(ws->current(), int(kModel));
  QVERIFY(ws->action(kModel)->isChecked());
  bool failed = false;
  try {
    (void)parseSession(R"({"format": "mhaviz-session", "version": 2, "config": {},
                           "workspace": 3})",
                       QStringLiteral("w.mhaviz.json"));
  } catch (const std::exception&) {
    failed = true;
  }
  QVERIFY(failed);
}

void TestWorkspaces::presentationHasTheScreenInEveryWorkspace() {
  Workspaces* ws = window().workspaces();
  ws->setCurrent(kCompare);
  QAction* present = window().teaching()->presentationAction();
  present->trigger();
  QTRY_VERIFY(window().teaching()->inPresentation());
  QVERIFY(window().centralWidget()->isVisible());  // the grid, also from Compare
  QVERIFY(!ws->toolBar()->isEnabled());            // no switching on a slide
  QVERIFY(!ws->action(kExplore)->isEnabled());
  present->trigger();
  QTRY_VERIFY(!window().teaching()->inPresentation());
  QCOMPARE(ws->current(), int(kCompare));
  QTRY_VERIFY(!window().centralWidget()->isVisible());
  QTRY_VERIFY(ws->toolBar()->isVisible() && ws->toolBar()->isEnabled());
  QTRY_VERIFY(window().comparePanel()->dock()->isVisible());
}

void TestWorkspaces::checkExplore() {
  QTRY_VERIFY(window().centralWidget()->isVisible());
  QVERIFY(!window().pages()->showingModel());
  QVERIFY(window().parameterDock()->isVisible());
  QVERIFY(window().measuresDock()->isVisible());
  QVERIFY(!window().headViewDock()->isVisible());
  QVERIFY(!window().comparePanel()->dock()->isVisible());
  QVERIFY(!window().teaching()->walkthrough()->isVisible());
  // The head measures a full-height column right of the grid, the parameters on the left.
  QTRY_VERIFY(window().measuresDock()->x() >= window().centralWidget()->geometry().right());
  QVERIFY(window().parameterDock()->geometry().right() <= window().centralWidget()->x());
  QVERIFY(window().measuresDock()->height() >= window().centralWidget()->height());
}

QTEST_MAIN(TestWorkspaces)
