// The limits of a comparison: files of other lengths, other tokens, plain arrays and files that
// are no model say so inline; a captured model keeps the Compare workspace; leaving the
// comparison, or opening another model, ends it.

#include "test_model_compare.hpp"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <string>
#include <vector>

#include "compare/compare_panel.hpp"
#include "compare/model_compare.hpp"
#include "document/document.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/model/model.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "prompted_window.hpp"
#include "render/heatmap_grid.hpp"
#include "window/main_window.hpp"
#include "window/workspace_arrangements.hpp"
#include "window/workspaces.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::model_compare;
namespace model = mhaviz::model;

// What cannot be compared says what differs and the fix, in red, with nothing drawn; tokens
// that differ are a note beside the difference; plain arrays are read with B's tokens.
void TestModelCompare::filesThatDoNotFitSayWhyInline() {
  QTemporaryDir dir;
  const Pair p = pairOfRuns();
  const QString b = writeModel(dir, QStringLiteral("b"), p.b, kWords);
  std::vector<std::vector<float>> longer;
  for (std::int64_t l = 0; l < kLayers; ++l) longer.push_back(layerWeights(l, kLength + 1));
  QStringList six = kWords;
  six << QStringLiteral("today");
  const QString other = writeModel(dir, QStringLiteral("longer"), longer, six, kLength + 1);
  QStringList dogs = kWords;
  dogs[1] = QStringLiteral("dog");
  const QString dog = writeModel(dir, QStringLiteral("dog"), p.a, dogs);
  testing::PromptedWindow w;
  w.answer = UnsavedAnswer::discard;
  openAndWait(w, b);
  ModelCompare* c = w.window.comparePanel()->modelCompare();
  auto* message = c->findChild<QLabel*>(QStringLiteral("modelCompareMessage"));

  // Another length: refused, what differs and the fix named, nothing drawn.
  c->compareWith(other);
  QVERIFY(settled(c));
  QVERIFY(c->hasProblem());
  for (const char* part :
       {"No difference shown: A (longer.json): layer 0 (attentions.0) has shape (2, 4, 6, 6)",
        "(2, 4, 5, 5)", "the inputs differ in length (A: 6 queries and 6 keys, B: 5 queries",
        "compare two inputs of one length"}) {
    QVERIFY2(c->message().contains(QLatin1String(part)), qPrintable(c->message()));
  }
  QVERIFY(message->styleSheet().contains(QStringLiteral("color")));
  QVERIFY(c->difference() == nullptr);
  QCOMPARE(c->table()->model()->rowCount(), 0);
  QVERIFY(!c->table()->isVisible());  // no empty table: the maps have its room
  QCOMPARE(c->gridDiff()->mapCount(), 0);
  QVERIFY2(c->gridDiff()->message().startsWith(QStringLiteral("No B \u2212 A")),
           qPrintable(c->gridDiff()->message()));
  // A's and B's maps of the layer selected, each its own length, show how they differ.
  QCOMPARE(c->data().a.maps.front().rows, int(kLength + 1));
  QCOMPARE(c->data().b.maps.front().rows, int(kLength));
  QVERIFY(c->gridA()->mapCount() > 0 && c->gridB()->mapCount() > 0);
  QVERIFY(!c->findChild<QPushButton*>(QStringLiteral("modelCompareExport"))->isEnabled());

  // Other tokens at the same positions: compared, with a note.
  c->compareWith(dog);
  QVERIFY(settled(c));
  QVERIFY2(!c->hasProblem(), qPrintable(c->message()));
  QVERIFY(message->styleSheet().isEmpty());
  QVERIFY2(c->message().contains(QStringLiteral(
               "Note: the tokens differ at 1 of 5 positions (first at position 1: \"dog\" in A, "
               "\"cat\" in B)")),
           qPrintable(c->message()));
  QCOMPARE(c->gridDiff()->mapCount(), 1);
  QVERIFY(c->table()->isVisible());
  QVERIFY(c->findChild<QPushButton*>(QStringLiteral("modelCompareExport"))->isEnabled());

  // Plain arrays: read with B's tokens (and grouping), compared as a model file.
  mhaviz::io::TensorMap plain;
  for (std::int64_t l = 0; l < kLayers; ++l) {
    plain.emplace("attentions." + std::to_string(l),
                  mhaviz::Tensor::from({kBatch, kHeads, kLength, kLength},
                                       std::vector<float>(p.a[std::size_t(l)])));
  }
  mhaviz::io::write_npz(dir.filePath(QStringLiteral("plain.npz")).toStdString(), plain);
  c->compareWith(dir.filePath(QStringLiteral("plain.npz")));
  QVERIFY(settled(c));
  QVERIFY2(!c->hasProblem(), qPrintable(c->message()));
  QCOMPARE(c->sideA().model->index.tokens, c->sideB().model->index.tokens);
  QCOMPARE(c->sideA().model->layers[0].info.kv_heads, std::int64_t(2));
  QCOMPARE(c->table()->model()->index(1, 2).data().toString(), QStringLiteral("0.25"));
  // ... of another length: B's tokens do not fit it.
  mhaviz::io::TensorMap shortPlain;
  shortPlain.emplace("attentions.0",
                     mhaviz::Tensor::from({1, 1, 3, 3}, std::vector<float>(9, 1.0F / 3)));
  mhaviz::io::write_npz(dir.filePath(QStringLiteral("short.npz")).toStdString(), shortPlain);
  c->compareWith(dir.filePath(QStringLiteral("short.npz")));
  QVERIFY(settled(c));
  QVERIFY2(c->message().startsWith(QStringLiteral("Cannot read short.npz with the tokens of "
                                                  "b.json: ")),
           qPrintable(c->message()));
  // A file that is no model at all.
  QFile junk(dir.filePath(QStringLiteral("junk.json")));
  QVERIFY(junk.open(QIODevice::WriteOnly));
  junk.write("{\"embed_dim\": 8}");
  junk.close();
  c->compareWith(junk.fileName());
  QVERIFY(settled(c));
  QVERIFY2(c->hasProblem() && c->message().startsWith(QStringLiteral("Cannot read junk.json: ")),
           qPrintable(c->message()));
  QCOMPARE(c->table()->model()->rowCount(), 0);
  QCOMPARE(c->gridA()->mapCount(), 0);
  QCOMPARE(c->gridA()->message(), QStringLiteral("A could not be read: see the line above"));
}

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
  QAction* leave = action(w.window, "compareLeave");
  QVERIFY(leave->isEnabled());
  leave->trigger();
  QVERIFY(!c->isActive());
  QVERIFY(c->difference() == nullptr);
  auto* pages = w.window.findChild<QStackedWidget*>(QStringLiteral("comparePages"));
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
  QVERIFY(action(w.window, "compareModelFile")->isEnabled());
  // File > New closes the model: nothing left to compare.
  w.session()->newSession();
  QTRY_VERIFY_WITH_TIMEOUT(!action(w.window, "compareModelFile")->isEnabled(), kTimeout);
  QVERIFY(!c->hasOpenModel());
}
