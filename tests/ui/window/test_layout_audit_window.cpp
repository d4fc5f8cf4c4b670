// The layout audit's fixture: how one state of the window is audited (at each size, with the
// docks behind and toggled, the grids' and head measures' own text, the picture's room).

#include "test_layout_audit.hpp"

#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QScrollArea>
#include <QTabBar>
#include <QTest>

#include "compare/compare_panel.hpp"
#include "compare/model_compare.hpp"
#include "desktop/language.hpp"
#include "layout_audit.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "picture_audit.hpp"
#include "prompted_window.hpp"
#include "render/head_measures_view.hpp"
#include "render/heatmap_grid.hpp"
#include "teach/teach_docks.hpp"
#include "teach/teaching_tools.hpp"
#include "tokens/head_view.hpp"
#include "tokens/text_view.hpp"
#include "window/workspace_arrangements.hpp"
#include "window/workspaces.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::layout;

void TestLayoutAudit::report(const QStringList& problems) {
  const QString path = qEnvironmentVariable("AUDIT_REPORT");
  if (path.isEmpty()) return;
  QFile file(path);
  if (file.open(QIODevice::Append | QIODevice::Text)) {
    for (const QString& p : problems) file.write((p + QLatin1Char('\n')).toUtf8());
  }
}

bool TestLayoutAudit::onScreenTab(const QMainWindow& window, const QDockWidget* dock) {
  return dock->isVisible() && window.rect().intersects(dock->geometry());
}

void TestLayoutAudit::setConfig(testing::PromptedWindow& w, const char* json) {
  w.document()->changeConfig(mhaviz::io::parse_config_json(json, "audit"), QStringLiteral("audit"));
  QVERIFY(w.idle());
}

void TestLayoutAudit::auditAtEverySize(testing::PromptedWindow& w, int workspace,
                                       const QString& state) {
  for (const QSize& size : kSizes) audit(w, workspace, size, state);
}

void TestLayoutAudit::audit(testing::PromptedWindow& w, int workspace, const QSize& size,
                            const QString& state) {
  QElapsedTimer t;
  t.start();
  MainWindow& window = w.window;
  window.resize(size);
  QTRY_COMPARE(window.size(), size);
  Workspaces* ws = window.workspaces();
  ws->setCurrent(workspace);
  ws->resetLayout();  // each size's own default
  QTRY_VERIFY(ws->isSettled());
  QVERIFY(testing::pictureSettled(*window.grid()));
  QVERIFY(QTest::qWaitFor([&] { return !window.headView()->isDrawing(); }, kTimeout));
  if (qEnvironmentVariableIsSet("AUDIT_GEOMETRY")) {
    for (QDockWidget* d : window.findChildren<QDockWidget*>()) {
      if (d->isVisible())
        qInfo("%s %d,%d %dx%d min %dx%d", qPrintable(d->windowTitle()), d->x(), d->y(), d->width(),
              d->height(), d->minimumSizeHint().width(), d->minimumSizeHint().height());
    }
    QWidget* c = window.centralWidget();
    qInfo("centre %d,%d %dx%d min %dx%d", c->x(), c->y(), c->width(), c->height(),
          c->minimumSizeHint().width(), c->minimumSizeHint().height());
  }
  const QString where = QStringLiteral("%1 at %2x%3, %4, %5: ")
                            .arg(ws->workspace(workspace).name)
                            .arg(size.width())
                            .arg(size.height())
                            .arg(activeLanguage(), state);
  QList<const QWidget*> views = {window.grid(),
                                 window.headView(),
                                 window.textView(),
                                 window.pages()->modelView(),
                                 window.comparePanel(),
                                 window.headMeasures(),
                                 window.comparePanel()->gridB()};
  for (const QString& p : testing::auditLayout(window, views)) m_problems << where + p;
  // AUDIT_SHOTS=DIR: each state's picture, to look at.
  if (const QString shots = qEnvironmentVariable("AUDIT_SHOTS"); !shots.isEmpty()) {
    QString name = where;
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]+")), QStringLiteral("_"));
    window.grab().save(QDir(shots).filePath(name + QStringLiteral(".png")));
  }
  // The grids' own text (titles, ticks, legend), drawn by the plot rather than by widgets.
  for (HeatmapGrid* grid : {window.grid(), window.comparePanel()->gridA(),
                            window.comparePanel()->gridB(), window.comparePanel()->gridDiff()}) {
    if (!grid->isVisible() || !testing::onScreen(grid, window) || grid->mapCount() == 0) continue;
    for (const QString& p : testing::auditPlotTexts(grid->plot(), grid->objectName())) {
      m_problems << where + p;
    }
  }
  // The tabs behind: Masks and inputs, the shape flow, the parameters in Teach.
  for (QDockWidget* behind : QList<QDockWidget*>{window.maskDock(), window.teaching()->shapeFlow(),
                                                 window.parameterDock()}) {
    if (!behind->isVisible()) continue;
    QDockWidget* front = nullptr;  // the tab in front, raised again after
    for (QDockWidget* tab : window.tabifiedDockWidgets(behind)) {
      if (onScreenTab(window, tab)) front = tab;
    }
    if (front == nullptr) continue;
    behind->raise();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::processEvents();  // the events the layout posted (scroll bar ranges)
    for (const QString& p : testing::auditLayout(window, views)) {
      if (!m_problems.contains(where + p)) m_problems << where + p;
    }
    front->raise();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
  }
  m_problems << measuresProblems(window, where);
  // Issue 40 defects 5 and 6: hiding and showing a dock, as a user does (View menu, the
  // toolbar's toggles), leaves every dock its minimum size: the head measures were squeezed to
  // ~55 px after it.
  // A dock the workspace hides (the text view in Model) shown, then hidden again, the same.
  for (QDockWidget* dock : {window.headViewDock(), window.textViewDock(), window.measuresDock()}) {
    if (dock->isVisible() && !testing::onScreen(dock, window)) continue;  // a tab behind
    const bool shown = dock->isVisible();
    // Showing a token view from Explore, Compare or Teach shows Tokens, audited on its own.
    if (!shown && dock != window.measuresDock() && workspace != kModel && workspace != kTokens)
      continue;
    const QString toggled =
        QStringLiteral("after %1 \"%2\": ")
            .arg(shown ? QStringLiteral("hiding and showing") : QStringLiteral("showing"),
                 dock->windowTitle());
    const auto settle = [&] {
      QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
      QCoreApplication::processEvents();
      // A wrong arrangement shows as the window growing past the screen: wait for that, or
      // 50 ms without it.
      (void)QTest::qWaitFor([&] { return window.size() != size; }, 50);
      QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
      QCoreApplication::processEvents();
    };
    dock->toggleViewAction()->trigger();
    settle();
    if (shown) {
      dock->toggleViewAction()->trigger();
      settle();
    }
    QVERIFY(QTest::qWaitFor([&] { return !window.headView()->isDrawing(); }, kTimeout));
    if (qEnvironmentVariableIsSet("AUDIT_GEOMETRY")) {
      for (QDockWidget* d : window.findChildren<QDockWidget*>()) {
        if (d->isVisible())
          qInfo("toggled %s %d,%d %dx%d min %dx%d", qPrintable(d->windowTitle()), d->x(), d->y(),
                d->width(), d->height(), d->minimumSizeHint().width(),
                d->minimumSizeHint().height());
      }
    }
    if (window.size() != size) {
      m_problems << where + toggled +
                        QStringLiteral("the window grew to %1x%2, past the screen's %3x%4")
                            .arg(window.width())
                            .arg(window.height())
                            .arg(size.width())
                            .arg(size.height());
    }
    for (const QString& p : testing::auditLayout(window, views)) {
      m_problems << where + toggled + p;
    }
    for (const QString& p : measuresProblems(window, QString())) m_problems << where + toggled + p;
    if (!shown) {
      dock->toggleViewAction()->trigger();
      settle();
    }
    window.resize(size);
    ws->resetLayout();
    QTRY_VERIFY(ws->isSettled());
  }
  // The tabs all shown.
  QTabBar* tabs = ws->tabBar();
  if (tabs->width() + 1 < tabs->sizeHint().width()) {
    m_problems << where + QStringLiteral("the workspace tabs need %1 px, have %2")
                              .arg(tabs->sizeHint().width())
                              .arg(tabs->width());
  }
  // The workspace's picture has the room it promises.
  const double area = double(size.width()) * size.height();
  const auto shareOf = [area](const QWidget* widget) {
    return widget->isVisible() ? widget->width() * double(widget->height()) / area : 0.0;
  };
  double picture = 0;
  double wanted = 0;
  switch (workspace) {
    case kExplore:
    case kTeach:
      picture = shareOf(window.centralWidget());
      wanted = workspace == kExplore ? 0.40 : 0.35;
      break;
    case kTokens:
      picture = shareOf(window.headViewDock()) + shareOf(window.textViewDock());
      wanted = 0.55;
      break;
    case kCompare:
      picture = shareOf(window.comparePanel()->dock());
      wanted = 0.55;
      break;
    case kModel:
      picture = shareOf(window.centralWidget());
      wanted = 0.45;
      break;
    default:
      break;
  }
  if (picture < wanted) {
    m_problems << where + QStringLiteral("its picture has %1% of the window, less than %2%")
                              .arg(qRound(picture * 100))
                              .arg(qRound(wanted * 100));
  }
}

QStringList TestLayoutAudit::measuresProblems(const MainWindow& window, const QString& where) {
  QStringList problems;
  const HeadMeasuresView* view = window.headMeasures();
  if (!view->isVisible() || !testing::onScreen(view, window)) return problems;
  const HeadMeasuresView::Layout layout = view->layoutAt(view->width());
  if (view->height() + 1 < layout.height) {
    problems << where + QStringLiteral("the head measures are %1 px tall, their content %2")
                            .arg(view->height())
                            .arg(layout.height);
  }
  for (const HeadMeasuresView::TextBox& t : layout.texts) {
    QFont f = view->font();
    f.setBold(t.bold);
    const QRect needed =
        QFontMetrics(f).boundingRect(QRect(0, 0, t.rect.width(), 100000), t.flags, t.text);
    if (t.rect.left() < 0 || t.rect.right() >= view->width() ||
        needed.width() > t.rect.width() + 1 || needed.height() > t.rect.height() + 1) {
      problems << where + QStringLiteral("the head measures' \"%1\" is cut (%2x%3 in %4x%5)")
                              .arg(t.text)
                              .arg(needed.width())
                              .arg(needed.height())
                              .arg(t.rect.width())
                              .arg(t.rect.height());
    }
  }
  const auto* scroll = qobject_cast<const QScrollArea*>(window.measuresDock()->widget());
  const QWidget* port = scroll != nullptr ? scroll->viewport() : view->parentWidget();
  if (port->height() + 1 < layout.firstSection) {
    problems << where + QStringLiteral(
                            "the head measures dock shows %1 px, less than the "
                            "heading and the first measure (%2 px)")
                            .arg(port->height())
                            .arg(layout.firstSection);
  }
  return problems;
}
