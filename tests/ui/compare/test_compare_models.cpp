// What a comparison of two model files shows, the model open in the model view (B) given as the
// window gives it: A | B | B − A of the map that differs most and the table of the core's
// weights_difference; the table's selection, the selection and batch element the model view
// passes on, and the document's colormap followed; Swap changes the difference's sign.

#include <QAction>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "compare/compare_panel.hpp"
#include "compare/model_compare.hpp"
#include "document/document.hpp"
#include "mhaviz/core/model/model.hpp"
#include "mhaviz/core/model/weights_only.hpp"
#include "model_compare_files.hpp"
#include "render/heatmap_grid.hpp"
#include "test_compare.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::model_compare;
using mhaviz::ui::testing::compare::CompareWindow;
namespace model = mhaviz::model;

// B open, A chosen: the maps of the largest difference, the table of every layer and head as
// the core computes it, the comparison in the dock; reading A leaves the GUI thread free.
void TestCompareLayer::comparingTwoWeightsOnlyFilesShowsABAndTheDifference() {
  QTemporaryDir dir;
  const Pair p = pairOfRuns();
  const QString a = writeModel(dir, QStringLiteral("a"), p.a, kWords);
  const QString b = writeModel(dir, QStringLiteral("b"), p.b, kWords);
  CompareWindow w;
  QAction* withFile = w.menu().withFile;
  QVERIFY(withFile != nullptr);
  QVERIFY2(!withFile->isEnabled(), "no model is open: nothing to compare");
  ModelCompare* c = w.models();
  QSignalSpy chosen(c, &ModelCompare::mapChosen);
  w.openModel(b);
  QVERIFY(withFile->isEnabled());
  QVERIFY(c->hasOpenModel());
  QVERIFY(!c->isActive());
  // The hint follows the model open (it said "Open a model first" before).
  QVERIFY2(c->message().contains(QStringLiteral("compares the model open in the model view")),
           qPrintable(c->message()));

  c->compareWith(a);
  // Read on a background thread: compareWith returned before A was read.
  QVERIFY(c->isActive());
  QVERIFY(c->isBusy());
  QVERIFY(c->difference() == nullptr);
  QVERIFY2(c->message().contains(QStringLiteral("Reading a.json")), qPrintable(c->message()));
  QVERIFY(settled(c));
  QVERIFY2(!c->hasProblem(), qPrintable(c->message()));
  QCOMPARE(w.pages()->currentWidget(), static_cast<QWidget*>(c));

  // The table holds the core's difference of the two files.
  const model::Model ma = model::read_model(a.toStdString());
  const model::Model mb = model::read_model(b.toStdString());
  const model::WeightsDifference want = model::weights_difference(
      ma, model::compute_model(ma).weights, mb, model::compute_model(mb).weights, 0, "A");
  QVERIFY(c->difference() != nullptr);
  QCOMPARE(c->difference()->largest, want.largest);
  QCOMPARE(c->difference()->mean, want.mean);
  QTableView* table = c->table();
  QCOMPARE(table->model()->rowCount(), int(kLayers));
  QCOMPARE(table->model()->columnCount(), int(kHeads));
  QCOMPARE(table->model()->index(1, 2).data().toString(), QStringLiteral("0.25"));
  QCOMPARE(table->model()->index(0, 0).data().toString(), QStringLiteral("0"));
  QCOMPARE(table->model()->index(2, 0).data().toString(), QStringLiteral("0"));  // batch 1's
  QVERIFY(table->model()->index(1, 2).data(Qt::FontRole).value<QFont>().bold());
  QVERIFY2(c->message().contains(QStringLiteral(
               "Largest |B \u2212 A| 0.25, at layer 1 (attentions.1), head 2 (batch element 0)")),
           qPrintable(c->message()));
  QVERIFY2(!c->message().contains(QStringLiteral("Note")), qPrintable(c->message()));

  // It starts at the map that differs most, selected in the table and passed on (for the model
  // view to select it too).
  QCOMPARE(c->selected(), std::make_pair(1, 2));
  QCOMPARE(chosen.count(), 1);
  QCOMPARE(chosen.at(0).at(0).toInt(), 1);
  QCOMPARE(chosen.at(0).at(1).toInt(), 2);
  QCOMPARE(table->currentIndex().row(), 1);
  QCOMPARE(table->currentIndex().column(), 2);
  const CompareData& data = c->data();
  QVERIFY(data.ok());
  QCOMPARE(data.a.maps.size(), std::size_t(1));
  QVERIFY(sameMap(data.a.maps[0].values, p.a[1], 0, 2));
  QVERIFY(sameMap(data.b.maps[0].values, p.b[1], 0, 2));
  QVERIFY(sameMap(data.diff.maps[0].values, p.b[1], 0, 2, 1.0, &p.a[1]));
  QCOMPARE(c->gridDiff()->mapCount(), 1);
  QVERIFY(c->gridA()->mapCount() == 1 && c->gridB()->mapCount() == 1);
  const QString titleA = c->titleA()->text();
  const QString titleB = c->titleB()->text();
  QCOMPARE(titleA, QStringLiteral("A: a.json"));
  QCOMPARE(titleB, QStringLiteral("B: b.json (open in the model view)"));
  QCOMPARE(c->whereLine()->text(),
           QStringLiteral("layer 1 (attentions.1), head 2, batch element 0"));
}

// The table, the selection and the batch element (as the model view passes them on): each
// choice compares the map chosen; Swap changes the sign; the colour map follows the document's.
void TestCompareLayer::theComparisonFollowsTheTableTheSelectionAndTheBatch() {
  QTemporaryDir dir;
  const Pair p = pairOfRuns();
  const QString a = writeModel(dir, QStringLiteral("a"), p.a, kWords);
  const QString b = writeModel(dir, QStringLiteral("b"), p.b, kWords);
  CompareWindow w;
  w.openModel(b);
  ModelCompare* c = w.models();
  c->compareWith(a);
  QVERIFY(settled(c));
  QSignalSpy chosen(c, &ModelCompare::mapChosen);

  // A cell of the table: that map, passed on for the model view to select.
  QTableView* table = c->table();
  table->setCurrentIndex(table->model()->index(0, 3));
  QCOMPARE(c->selected(), std::make_pair(0, 3));
  QCOMPARE(chosen.count(), 1);
  QCOMPARE(chosen.at(0).at(0).toInt(), 0);
  QCOMPARE(chosen.at(0).at(1).toInt(), 3);
  QVERIFY(settled(c));
  QVERIFY(sameMap(c->data().a.maps[0].values, p.a[0], 0, 3));
  // A map selected in the model view (a click there): the comparison follows, and passes
  // nothing back.
  w.document.setSelection({2, 1});
  QCOMPARE(c->selected(), std::make_pair(2, 1));
  QCOMPARE(table->currentIndex().row(), 2);
  QCOMPARE(table->currentIndex().column(), 1);
  QCOMPARE(chosen.count(), 1);
  QVERIFY(settled(c));
  QVERIFY(sameMap(c->data().b.maps[0].values, p.b[2], 0, 1));
  // A whole layer (head -1): every head and their average, the row selected.
  w.document.setSelection({2, -1});
  QVERIFY(settled(c));
  QCOMPARE(c->data().a.maps.size(), std::size_t(kHeads + 1));
  QVERIFY(table->selectionModel()->isRowSelected(2, {}));
  // The grids draw copies of A, B and B − A (made on the task's thread), each map's cells.
  const auto drawn = [c] {
    const std::pair<const StageData*, HeatmapGrid*> sides[] = {
        {&c->data().a, c->gridA()}, {&c->data().b, c->gridB()}, {&c->data().diff, c->gridDiff()}};
    for (const auto& [data, grid] : sides) {
      const StageData& shown = grid->stageData();
      if (data->maps.empty() || shown.maps.size() != data->maps.size()) return false;
      for (std::size_t m = 0; m < shown.maps.size(); ++m) {
        if (shown.maps[m].title != data->maps[m].title ||
            shown.maps[m].values != data->maps[m].values)
          return false;
      }
    }
    return true;
  };
  QVERIFY(drawn());

  // Batch element 1: its own difference (layer 2, head 0), the selection kept.
  w.document.setSelection({2, -1, 1});  // (the model view's Batch element control sets it)
  QVERIFY(settled(c));
  QCOMPARE(c->difference()->batch, 1);
  QCOMPARE(table->model()->index(2, 0).data().toString(), QStringLiteral("0.35"));
  QCOMPARE(table->model()->index(1, 2).data().toString(), QStringLiteral("0"));
  QVERIFY2(c->message().contains(QStringLiteral("at layer 2 (attentions.2), head 0 (batch "
                                                "element 1)")),
           qPrintable(c->message()));
  QCOMPARE(c->selected(), std::make_pair(2, -1));
  w.document.setSelection({2, 0, 1});
  QVERIFY(settled(c));
  QVERIFY(sameMap(c->data().diff.maps[0].values, p.b[2], 1, 0, 1.0, &p.a[2]));

  // Swap (the Compare menu's, acting on the comparison): A is the open model, B the file;
  // B - A changes sign.
  w.menu().swap->trigger();
  QVERIFY(settled(c));
  QCOMPARE(c->titleA()->text(), QStringLiteral("A: b.json (open in the model view)"));
  QVERIFY(sameMap(c->data().diff.maps[0].values, p.b[2], 1, 0, -1.0, &p.a[2]));
  QCOMPARE(table->model()->index(2, 0).data().toString(), QStringLiteral("0.35"));
  QVERIFY(!w.panel->isPinned());  // compare mode's A untouched

  // View > Colormap: the maps drawn again in it.
  ViewOptions v = w.document.view();
  v.colormap = Colormap::magma;
  w.document.setView(v);
  QVERIFY(settled(c));
  QCOMPARE(c->gridA()->view().colormap, Colormap::magma);
  QCOMPARE(c->gridDiff()->view().colormap, Colormap::magma);
  QVERIFY(drawn());

  // A map chosen in the table but not selected (the window kept the session, whose unsaved
  // changes the user did not give up): the comparison stays at the map selected, and so does
  // the table.
  QObject::disconnect(c, &ModelCompare::mapChosen, &w.document, nullptr);
  table->setCurrentIndex(table->model()->index(1, 3));
  QCOMPARE(chosen.count(), 2);
  QCOMPARE(c->selected(), std::make_pair(2, 0));
  QCOMPARE(table->currentIndex().row(), 2);
  QCOMPARE(table->currentIndex().column(), 0);
  QVERIFY(settled(c));
  QVERIFY(sameMap(c->data().diff.maps[0].values, p.b[2], 1, 0, -1.0, &p.a[2]));
}
