// The limits of a comparison of two model files: files of other lengths, other tokens, plain
// arrays and files that are no model say so inline; leaving the comparison, another model opened
// or none open end it, and the dock shows compare mode's panel again.

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <string>
#include <vector>

#include "compare/compare_panel.hpp"
#include "compare/model_compare.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/model/model.hpp"
#include "model_compare_files.hpp"
#include "render/heatmap_grid.hpp"
#include "test_compare.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::model_compare;
using mhaviz::ui::testing::compare::CompareWindow;

// What cannot be compared says what differs and the fix, in red, with nothing drawn; tokens
// that differ are a note beside the difference; plain arrays are read with B's tokens.
void TestCompareLayer::filesThatDoNotFitSayWhyInline() {
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
  CompareWindow w;
  w.openModel(b);
  ModelCompare* c = w.models();
  const QLabel* message = c->messageLine();

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
  QVERIFY(!c->exportButton()->isEnabled());

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
  QVERIFY(c->exportButton()->isEnabled());

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

// Compare > Leave compare mode ends a comparison (and only it when A is pinned as well: compare
// mode's panel is shown again, A kept); another model opened ends a comparison made for the one
// before; with none open there is nothing to compare.
void TestCompareLayer::anotherModelOrLeavingEndsTheComparison() {
  QTemporaryDir dir;
  const Pair p = pairOfRuns();
  const QString a = writeModel(dir, QStringLiteral("a"), p.a, kWords);
  const QString b = writeModel(dir, QStringLiteral("b"), p.b, kWords);
  CompareWindow w;
  QVERIFY(w.idle());
  ModelCompare* c = w.models();
  QAction* leave = w.menu().leave;
  QAction* withFile = w.menu().withFile;
  QVERIFY(leave != nullptr && withFile != nullptr);
  QVERIFY(!leave->isEnabled());
  w.openModel(b);
  QSignalSpy active(c, &ModelCompare::activeChanged);
  c->compareWith(a);
  QCOMPARE(active.count(), 1);
  QCOMPARE(active.at(0).at(0).toBool(), true);
  QVERIFY(leave->isEnabled());
  QVERIFY(settled(c));
  leave->trigger();
  QVERIFY(!c->isActive());
  QCOMPARE(active.count(), 2);
  QCOMPARE(active.at(1).at(0).toBool(), false);
  QVERIFY(c->difference() == nullptr);
  QCOMPARE(c->gridDiff()->mapCount(), 0);
  QCOMPARE(w.pages()->currentWidget(), static_cast<QWidget*>(w.panel));
  QVERIFY(!leave->isEnabled());

  // A pinned in compare mode meanwhile: leaving ends the comparison, then compare mode.
  w.panel->pin();
  QVERIFY(w.panel->isPinned());
  c->compareWith(a);
  QVERIFY(settled(c));
  QCOMPARE(w.pages()->currentWidget(), static_cast<QWidget*>(c));
  leave->trigger();
  QVERIFY(!c->isActive());
  QVERIFY(w.panel->isPinned());
  QCOMPARE(w.pages()->currentWidget(), static_cast<QWidget*>(w.panel));
  QVERIFY(leave->isEnabled());
  leave->trigger();
  QVERIFY(!w.panel->isPinned());
  QVERIFY(!leave->isEnabled());

  // Another model in the model view: the comparison made for the one before ends.
  c->compareWith(a);
  QVERIFY(settled(c));
  w.openModel(a);
  QVERIFY(!c->isActive());
  QCOMPARE(w.pages()->currentWidget(), static_cast<QWidget*>(w.panel));
  QVERIFY(withFile->isEnabled());
  QVERIFY(c->hasOpenModel());
  // No model open (File > New closes it): nothing left to compare.
  c->setOpenModel({});
  QVERIFY(!withFile->isEnabled());
  QVERIFY(!c->hasOpenModel());
  c->compareWith(a);
  QVERIFY(!c->isActive());
}
