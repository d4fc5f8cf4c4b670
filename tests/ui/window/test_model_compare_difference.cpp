// The comparison of two model files beside the model view: Compare > Compare the model with a
// file… once a model is open; comparing shows the Compare workspace and starts at the map that
// differs most, selected in the model view too; the model view's selection and batch element and
// the table's follow each other.

#include "test_model_compare.hpp"

#include <QAction>
#include <QItemSelectionModel>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "compare/compare_panel.hpp"
#include "compare/model_compare.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "prompted_window.hpp"
#include "window/main_window.hpp"
#include "window/workspace_arrangements.hpp"
#include "window/workspaces.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::model_compare;

void TestModelCompare::initTestCase() { testing::isolateSettings("mhaviz-model-compare-tests"); }

// B open in the model view, A chosen: the Compare workspace in front, the map of the largest
// difference selected in the model view too; then a cell of the table, a map selected in the
// model view and its batch element: each choice compares the map chosen.
void TestModelCompare::theComparisonFollowsTheModelView() {
  QTemporaryDir dir;
  const Pair p = pairOfRuns();
  const QString a = writeModel(dir, QStringLiteral("a"), p.a, kWords);
  const QString b = writeModel(dir, QStringLiteral("b"), p.b, kWords);
  testing::PromptedWindow w;
  w.answer = UnsavedAnswer::discard;
  QAction* withFile = menu(w.window).withFile;
  QVERIFY(withFile != nullptr);
  QVERIFY2(!withFile->isEnabled(), "no model is open: nothing to compare");
  openAndWait(w, b);
  QVERIFY(withFile->isEnabled());
  ModelCompare* c = w.window.comparePanel()->modelCompare();
  c->compareWith(a);
  QCOMPARE(w.window.workspaces()->current(), int(kCompare));
  QVERIFY(settled(c));
  QVERIFY2(!c->hasProblem(), qPrintable(c->message()));
  QVERIFY(w.window.comparePanel()->dock()->isVisible());
  ModelView* view = w.window.pages()->modelView();
  QCOMPARE(c->selected(), std::make_pair(1, 2));
  QCOMPARE(view->selected(), std::make_pair(1, 2));

  // A cell of the table: that map, selected in the model view too.
  QTableView* table = c->table();
  table->setCurrentIndex(table->model()->index(0, 3));
  QCOMPARE(c->selected(), std::make_pair(0, 3));
  QCOMPARE(view->selected(), std::make_pair(0, 3));
  QVERIFY(settled(c));
  QVERIFY(sameMap(c->data().a.maps[0].values, p.a[0], 0, 3));
  // A map selected in the model view (a click there): the comparison follows.
  w.window.pages()->selectLayer(2, 1);
  QCOMPARE(c->selected(), std::make_pair(2, 1));
  QCOMPARE(table->currentIndex().row(), 2);
  QCOMPARE(table->currentIndex().column(), 1);
  QVERIFY(settled(c));
  QVERIFY(sameMap(c->data().b.maps[0].values, p.b[2], 0, 1));
  // A whole layer (head -1): every head and their average, the row selected.
  w.window.pages()->selectLayer(2, -1);
  QVERIFY(settled(c));
  QCOMPARE(c->data().a.maps.size(), std::size_t(kHeads + 1));
  QVERIFY(table->selectionModel()->isRowSelected(2, {}));

  // Batch element 1 in the model view: its own difference (layer 2, head 0), the selection kept.
  view->batchBox()->setValue(1);
  QVERIFY(settled(c));
  QCOMPARE(c->difference()->batch, 1);
  QCOMPARE(table->model()->index(2, 0).data().toString(), QStringLiteral("0.35"));
  QCOMPARE(c->selected(), std::make_pair(2, -1));
  w.window.pages()->selectLayer(2, 0);
  QVERIFY(settled(c));
  QVERIFY(sameMap(c->data().diff.maps[0].values, p.b[2], 1, 0, 1.0, &p.a[2]));
}

QTEST_MAIN(TestModelCompare)
