// Two model files compared in the window (QtTest, offscreen): with a weights-only model open in
// the model view (B), Compare > Compare the model with a file… reads a second file (A) off the
// GUI thread; the Compare workspace then shows A | B | B − A for the map that differs most, and a
// table of each layer's and head's largest |B − A| — the core's weights_difference, value for
// value; the model view's selection and batch element and the table's follow each other; Swap
// changes the difference's sign; files of other lengths, other tokens, plain arrays and files
// that are no model say so inline; leaving the comparison, or opening another model, ends it.

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <string>
#include <vector>

#include "compare/compare_panel.hpp"
#include "compare/model_compare.hpp"
#include "document/document.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/model/model.hpp"
#include "mhaviz/core/model/weights_only.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "prompted_window.hpp"
#include "render/heatmap_grid.hpp"
#include "window/main_window.hpp"
#include "window/workspace_arrangements.hpp"
#include "window/workspaces.hpp"

using namespace mhaviz::ui;
namespace model = mhaviz::model;

namespace {

constexpr int kTimeout = 60000;
constexpr std::int64_t kLayers = 3, kHeads = 4, kBatch = 2, kLength = 5;

/// A layer's weights (kBatch, kHeads, T, T): each row 0.6 on one key, the rest shared.
std::vector<float> layerWeights(std::int64_t layer, std::int64_t T = kLength) {
  std::vector<float> w(static_cast<std::size_t>(kBatch * kHeads * T * T));
  const float rest = 0.4F / static_cast<float>(T - 1);
  for (std::int64_t row = 0; row < kBatch * kHeads * T; ++row) {
    const std::int64_t key = (row + layer) % T;
    for (std::int64_t k = 0; k < T; ++k) w[std::size_t(row * T + k)] = k == key ? 0.6F : rest;
  }
  return w;
}

std::size_t at(std::int64_t n, std::int64_t h, std::int64_t q, std::int64_t k,
               std::int64_t T = kLength) {
  return static_cast<std::size_t>(((n * kHeads + h) * T + q) * T + k);
}

/// Moves `amount` of row (n, h, q)'s weight from key `from` to key `to` (the row still sums to 1).
void move(std::vector<float>& w, std::int64_t n, std::int64_t h, std::int64_t q,
          std::int64_t from, std::int64_t to, float amount) {
  w[at(n, h, q, from)] -= amount;
  w[at(n, h, q, to)] += amount;
}

/// Writes NAME.json (a version-4 weights-only index) and NAME.npz with `layers`; returns the
/// index's path.
QString writeModel(const QTemporaryDir& dir, const QString& name,
                   const std::vector<std::vector<float>>& layers, const QStringList& tokens,
                   std::int64_t T = kLength) {
  mhaviz::io::TensorMap tensors;
  QStringList entries;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    tensors.emplace(std::to_string(l) + "/weights",
                    mhaviz::Tensor::from({kBatch, kHeads, T, T}, std::vector<float>(layers[l])));
    entries << QStringLiteral(R"({"name": "attentions.%1", "shape": [%2, %3, %4, %4]})")
                   .arg(l)
                   .arg(kBatch)
                   .arg(kHeads)
                   .arg(T);
  }
  mhaviz::io::write_tensor_file(dir.filePath(name + QStringLiteral(".npz")).toStdString(), tensors);
  QFile index(dir.filePath(name + QStringLiteral(".json")));
  if (!index.open(QIODevice::WriteOnly)) return {};
  index.write(QStringLiteral(R"({"format": "mhaviz-model", "version": 4, "tensors": "%1.npz",
      "tokens": ["%2"], "num_key_value_heads": 2, "layers": [%3]})")
                  .arg(name, tokens.join(QStringLiteral("\", \"")),
                       entries.join(QStringLiteral(", ")))
                  .toUtf8());
  return index.fileName();
}

const QStringList kWords = {QStringLiteral("the"), QStringLiteral("cat"), QStringLiteral("sat"),
                            QStringLiteral("on"), QStringLiteral("mats")};

/// B's layers and A's: A moves 0.25 in layer 1 head 2 of batch element 0 and 0.35 in layer 2
/// head 0 of batch element 1.
struct Pair {
  std::vector<std::vector<float>> a, b;
};
Pair pairOfRuns() {
  Pair p;
  for (std::int64_t l = 0; l < kLayers; ++l) p.b.push_back(layerWeights(l));
  p.a = p.b;
  move(p.a[1], 0, 2, 3, (3 + 1) % kLength, 2, 0.25F);  // the row's 0.6 key gives 0.25 to key 2
  move(p.a[2], 1, 0, 1, (1 + 2) % kLength, 0, 0.35F);
  return p;
}

/// Opens `path` (File > Open) and waits until the model view has drawn it.
void openAndWait(testing::PromptedWindow& w, const QString& path) {
  w.window.resize(1400, 900);
  w.window.show();
  QVERIFY(w.session()->open(path));
  ModelView* view = w.window.pages()->modelView();
  QTRY_VERIFY_WITH_TIMEOUT(
      !view->isBusy() && (!view->picture().isNull() || !view->error().isEmpty()), kTimeout);
  QVERIFY2(view->error().isEmpty(), qPrintable(view->error()));
}

bool settled(ModelCompare* c) {
  return QTest::qWaitFor(
      [c] {
        QCoreApplication::processEvents();
        return c->isUpToDate();
      },
      kTimeout);
}

QAction* action(MainWindow& window, const char* name) {
  return window.findChild<QAction*>(QString::fromLatin1(name));
}

/// Map 0 of `map` against (n, h) of `w` (kLength x kLength, row-major).
bool sameMap(const std::vector<double>& map, const std::vector<float>& w, std::int64_t n,
             std::int64_t h, double sign = 1.0, const std::vector<float>* minus = nullptr) {
  if (map.size() != std::size_t(kLength * kLength)) return false;
  for (std::int64_t q = 0; q < kLength; ++q) {
    for (std::int64_t k = 0; k < kLength; ++k) {
      double want = w[at(n, h, q, k)];
      if (minus != nullptr) want -= (*minus)[at(n, h, q, k)];
      if (std::abs(map[std::size_t(q * kLength + k)] - sign * want) > 1e-6) return false;
    }
  }
  return true;
}

}  // namespace

class TestModelCompare : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { testing::isolateSettings("mhaviz-model-compare-tests"); }

  // B open, A chosen: the maps of the largest difference, the table of every layer and head as
  // the core computes it, the Compare workspace in front; reading A leaves the GUI thread free.
  void comparingTwoWeightsOnlyFilesShowsABAndTheDifference() {
    QTemporaryDir dir;
    const Pair p = pairOfRuns();
    const QString a = writeModel(dir, QStringLiteral("a"), p.a, kWords);
    const QString b = writeModel(dir, QStringLiteral("b"), p.b, kWords);
    testing::PromptedWindow w;
    w.answer = UnsavedAnswer::discard;
    QAction* withFile = action(w.window, "compareModelFile");
    QVERIFY(withFile != nullptr);
    QVERIFY2(!withFile->isEnabled(), "no model is open: nothing to compare");
    openAndWait(w, b);
    QVERIFY(withFile->isEnabled());
    ModelCompare* c = w.window.comparePanel()->modelCompare();
    QVERIFY(!c->isActive());

    c->compareWith(a);
    // Read on a background thread: compareWith returned before A was read.
    QVERIFY(c->isActive());
    QVERIFY(c->isBusy());
    QVERIFY(c->difference() == nullptr);
    QVERIFY2(c->message().contains(QStringLiteral("Reading a.json")), qPrintable(c->message()));
    QCOMPARE(w.window.workspaces()->current(), int(kCompare));
    QVERIFY(settled(c));
    QVERIFY2(!c->hasProblem(), qPrintable(c->message()));
    auto* pages = w.window.findChild<QStackedWidget*>(QStringLiteral("comparePages"));
    QCOMPARE(pages->currentWidget(), static_cast<QWidget*>(c));
    QVERIFY(w.window.comparePanel()->dock()->isVisible());

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

    // It starts at the map that differs most, selected in the model view and the table too.
    QCOMPARE(c->selected(), std::make_pair(1, 2));
    QCOMPARE(w.window.pages()->modelView()->selected(), std::make_pair(1, 2));
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
    const QString titleA =
        c->findChild<QLabel*>(QStringLiteral("modelCompareTitleA"))->text();
    const QString titleB =
        c->findChild<QLabel*>(QStringLiteral("modelCompareTitleB"))->text();
    QCOMPARE(titleA, QStringLiteral("A: a.json"));
    QCOMPARE(titleB, QStringLiteral("B: b.json (open in the model view)"));
    QCOMPARE(c->findChild<QLabel*>(QStringLiteral("modelCompareWhere"))->text(),
             QStringLiteral("layer 1 (attentions.1), head 2, batch element 0"));
  }

  // The table, the model view and the batch element: each choice compares the map chosen; Swap
  // changes the sign; the colour map follows View > Colormap.
  void theComparisonFollowsTheModelViewTheTableAndTheBatch() {
    QTemporaryDir dir;
    const Pair p = pairOfRuns();
    const QString a = writeModel(dir, QStringLiteral("a"), p.a, kWords);
    const QString b = writeModel(dir, QStringLiteral("b"), p.b, kWords);
    testing::PromptedWindow w;
    w.answer = UnsavedAnswer::discard;
    openAndWait(w, b);
    ModelCompare* c = w.window.comparePanel()->modelCompare();
    c->compareWith(a);
    QVERIFY(settled(c));
    ModelView* view = w.window.pages()->modelView();

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

    // Batch element 1: its own difference (layer 2, head 0), the selection kept.
    auto* batch = view->findChild<QSpinBox*>(QStringLiteral("modelBatch"));
    batch->setValue(1);
    QVERIFY(settled(c));
    QCOMPARE(c->difference()->batch, 1);
    QCOMPARE(table->model()->index(2, 0).data().toString(), QStringLiteral("0.35"));
    QCOMPARE(table->model()->index(1, 2).data().toString(), QStringLiteral("0"));
    QVERIFY2(c->message().contains(QStringLiteral("at layer 2 (attentions.2), head 0 (batch "
                                                  "element 1)")),
             qPrintable(c->message()));
    QCOMPARE(c->selected(), std::make_pair(2, -1));
    w.window.pages()->selectLayer(2, 0);
    QVERIFY(settled(c));
    QVERIFY(sameMap(c->data().diff.maps[0].values, p.b[2], 1, 0, 1.0, &p.a[2]));

    // Swap: A is the open model, B the file; B - A changes sign.
    action(w.window, "compareSwap")->trigger();
    QVERIFY(settled(c));
    QCOMPARE(c->findChild<QLabel*>(QStringLiteral("modelCompareTitleA"))->text(),
             QStringLiteral("A: b.json (open in the model view)"));
    QVERIFY(sameMap(c->data().diff.maps[0].values, p.b[2], 1, 0, -1.0, &p.a[2]));
    QCOMPARE(table->model()->index(2, 0).data().toString(), QStringLiteral("0.35"));

    // View > Colormap: the maps drawn again in it.
    ViewOptions v = w.document()->view();
    v.colormap = Colormap::magma;
    w.document()->setView(v);
    QVERIFY(settled(c));
    QCOMPARE(c->gridA()->view().colormap, Colormap::magma);
  }

  // What cannot be compared says what differs and the fix, in red, with nothing drawn; tokens
  // that differ are a note beside the difference; plain arrays are read with B's tokens.
  void filesThatDoNotFitSayWhyInline() {
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
    shortPlain.emplace("attentions.0", mhaviz::Tensor::from({1, 1, 3, 3}, std::vector<float>(9, 1.0F / 3)));
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
  void aCapturedModelComparedKeepsTheCompareWorkspace() {
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
  void leavingOrOpeningAnotherModelEndsTheComparison() {
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
};

QTEST_MAIN(TestModelCompare)
#include "test_model_compare.moc"
