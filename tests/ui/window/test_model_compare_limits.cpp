// What ends or keeps a comparison in the window: a captured model keeps the Compare workspace
// while its layer becomes the session; leaving the comparison, or opening another model, ends it
// and gives the workspaces and docks back (files that do not fit: tests/ui/compare).

#include "test_model_compare.hpp"

#include <QAction>
#include <QDockWidget>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "compare/compare_panel.hpp"
#include "compare/model_compare.hpp"
#include "document/document.hpp"
#include "mhaviz/core/model/model.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "prompted_window.hpp"
#include "window/main_window.hpp"
#include "window/workspace_arrangements.hpp"
#include "window/workspaces.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::model_compare;

// A captured model (its layers recomputed) compared with its own file: no difference, the
// Compare workspace stays while the map chosen becomes the session (its layer's parameters).
void TestModelCompare::aCapturedModelComparedKeepsTheCompareWorkspace() {
  testing::PromptedWindow w;
  w.answer = UnsavedAnswer::discard;
  w.window.resize(1400, 900);
  w.window.show();
  ModelView* view = w.window.pages()->modelView();
  QVERIFY(w.window.pages()->openModelExample(QStringLiteral("reverse")));
  QTRY_VERIFY_WITH_TIMEOUT(view->loaded() != nullptr && !view->picture().isNull(), kTimeout);
  QVERIFY(w.idle());
  ModelCompare* c = w.window.comparePanel()->modelCompare();
  c->compareWith(QString::fromStdString(view->loaded()->model.index.path.string()));
  QVERIFY(settled(c));
  QVERIFY2(!c->hasProblem(), qPrintable(c->message()));
  QCOMPARE(c->difference()->worst, 0.0);
  QCOMPARE(w.window.workspaces()->current(), int(kCompare));
  c->table()->setCurrentIndex(c->table()->model()->index(1, 3));
  QVERIFY(w.idle());
  QVERIFY(settled(c));
  QCOMPARE(w.document()->origin().layer, 1);  // the layer became the session, as a click does
  QCOMPARE(w.window.workspaces()->current(), int(kCompare));
  QVERIFY(c->isActive());
  // Its maps are the layer recomputed (bias-free encoder: 8 x 8 per head).
  QCOMPARE(c->data().a.maps.size(), std::size_t(1));
  QCOMPARE(c->data().a.maps[0].values, c->data().b.maps[0].values);
}

// Leaving the comparison shows compare mode's panel and goes back to the Model workspace;
// opening another model ends a comparison made for the one before.
void TestModelCompare::leavingOrOpeningAnotherModelEndsTheComparison() {
  QTemporaryDir dir;
  const Pair p = pairOfRuns();
  const QString a = writeModel(dir, QStringLiteral("a"), p.a, kWords);
  const QString b = writeModel(dir, QStringLiteral("b"), p.b, kWords);
  testing::PromptedWindow w;
  w.answer = UnsavedAnswer::discard;
  openAndWait(w, b);
  QCOMPARE(w.window.workspaces()->current(), int(kModel));
  ModelCompare* c = w.window.comparePanel()->modelCompare();
  c->compareWith(a);
  QVERIFY(settled(c));
  // The whole width: the docks of the session's parameters step aside meanwhile.
  QVERIFY(!w.window.parameterDock()->isVisible());
  QVERIFY(!w.window.maskDock()->isVisible());
  QAction* leave = menu(w.window).leave;
  QVERIFY(leave->isEnabled());
  leave->trigger();
  QVERIFY(!c->isActive());
  QVERIFY(c->difference() == nullptr);
  auto* pages = qobject_cast<QStackedWidget*>(w.window.comparePanel()->dock()->widget());
  QCOMPARE(pages->currentWidget(), static_cast<QWidget*>(w.window.comparePanel()));
  QCOMPARE(w.window.workspaces()->current(), int(kModel));
  QVERIFY(!leave->isEnabled());
  // Compare, chosen again, has its parameters back; so has it after a comparison left while
  // another workspace was shown.
  w.window.workspaces()->setCurrent(kCompare);
  QVERIFY(w.window.parameterDock()->isVisible());
  c->compareWith(a);
  QVERIFY(settled(c));
  QVERIFY(!w.window.parameterDock()->isVisible());
  w.window.workspaces()->setCurrent(kModel);
  leave->trigger();
  QVERIFY(!c->isActive());
  w.window.workspaces()->setCurrent(kCompare);
  QVERIFY(w.window.parameterDock()->isVisible());
  QVERIFY(w.window.comparePanel()->dock()->isVisible());
  w.window.workspaces()->setCurrent(kModel);

  c->compareWith(a);
  QVERIFY(settled(c));
  openAndWait(w, a);  // another model in the model view
  QTRY_VERIFY_WITH_TIMEOUT(!c->isActive(), kTimeout);
  QCOMPARE(pages->currentWidget(), static_cast<QWidget*>(w.window.comparePanel()));
  QVERIFY(menu(w.window).withFile->isEnabled());
  // File > New closes the model: nothing left to compare.
  w.session()->newSession();
  QTRY_VERIFY_WITH_TIMEOUT(!menu(w.window).withFile->isEnabled(), kTimeout);
  QVERIFY(!c->hasOpenModel());
}
