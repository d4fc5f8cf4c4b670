// Model files opened in the model view (QtTest, offscreen): a broken file gives an inline message,
// File > Examples lists the bundled models, the empty view offers them and File > Open, a model
// starts at its default view, generation layers are numbered within their step, and a weights-only
// file shows its stored weights (for the token views and the head measures, through the pages'
// signals) and says what is not available.

#include "test_model.hpp"

#include <QAction>
#include <QApplication>
#include <QCommandLinkButton>
#include <QDialog>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "document/document.hpp"
#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/model/model.hpp"
#include "model/model_grid_layout.hpp"
#include "model/model_pages.hpp"
#include "model/model_picture.hpp"
#include "model/model_view.hpp"
#include "session/recent_files.hpp"
#include "session/session_files.hpp"
#include "stages/view_options.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::model_view;
namespace model = mhaviz::model;

namespace {

/// The entry of File > Examples that opens the bundled model `name` (its action's data).
QAction* exampleAction(const QMenu& examples, const QString& name) {
  for (QAction* a : examples.actions()) {
    if (a->data().toString() == name) return a;
  }
  return nullptr;
}

}  // namespace

void TestModel::initTestCase() {
  // Settings and data folders of the tests' own, no recent files from an earlier run.
  QStandardPaths::setTestModeEnabled(true);
  QCoreApplication::setOrganizationName(QStringLiteral("mhaviz-tests"));
  QCoreApplication::setApplicationName(QStringLiteral("mhaviz-model-tests"));
  storeRecentFiles({});
}

void TestModel::aBrokenModelFileGivesAnInlineMessage() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  // An index whose tensors file is not there.
  QFile file(dir.filePath(QStringLiteral("broken.json")));
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write(R"({"format": "mhaviz-model", "version": 1, "tensors": "gone.npz", "layers": [
    {"name": "enc.layers.0.self_attn", "config": {"embed_dim": 8, "num_heads": 2,
     "batch_size": 1, "tgt_len": 3, "src_len": 3}}]})");
  file.close();
  ModelWindow w;
  QVERIFY(w.idle());
  const mhaviz::Config before = w.document.config();
  openAndWait(w, file.fileName());
  ModelView* view = w.view();
  QVERIFY(view->error().contains(QStringLiteral("gone.npz")));
  QVERIFY(view->error().contains(QStringLiteral("is not there")));
  auto* error = view->errorLine();
  QVERIFY(error->isVisible());
  QVERIFY(w.errors.isEmpty());  // inline, no dialog
  QVERIFY(w.document.config() == before);

  // A good model afterwards clears the message.
  QVERIFY(w.files.open(modelPath("copy")));
  QTRY_VERIFY_WITH_TIMEOUT(view->loaded() != nullptr && !view->isBusy(), kTimeout);
  QVERIFY(view->error().isEmpty());
}

void TestModel::examplesListTheBundledModelsWithTheirCaptions() {
  ModelWindow w;
  QMenu examples;  // File > Examples: the window hands its menu to the pages
  w.pages.addExamples(&examples);
  const QList<ModelExample> models = modelExamples();
  QCOMPARE(models.size(), 4);  // reverse, copy, generate, squares (a vision transformer)
  for (const ModelExample& m : models) {
    auto* action = exampleAction(examples, m.name);
    QVERIFY(action != nullptr);
    QVERIFY(!m.caption.isEmpty());
    // Issue 40 defect 11: the caption made "generate" run off the screen; a short title,
    // the caption as the entry's status tip.
    QVERIFY(action->text().contains(m.name));
    QVERIFY2(action->text().size() <= 60, qPrintable(action->text()));
    QCOMPARE(action->statusTip(), m.caption);
  }
  auto* action = exampleAction(examples, QStringLiteral("copy"));
  w.window.show();
  action->trigger();
  ModelView* view = w.view();
  QTRY_VERIFY_WITH_TIMEOUT(view->loaded() != nullptr && !view->picture().isNull(), kTimeout);
  const model::Model m = model::read_model(modelPath("copy").toStdString());
  QCOMPARE(view->loaded()->model.layers.size(), m.layers.size());
  QCOMPARE(view->loaded()->model.index.caption, m.index.caption);
}

// With no model open the model view was an empty white area under a sentence pointing at the
// menus, its view, batch and sink controls enabled over nothing. Now its start page offers File >
// Open and the bundled models, one button each; the controls wait for a model; a model opened
// takes the page's place, and closing it brings the page back.
void TestModel::theEmptyViewOffersAFileAndTheExamples() {
  ModelWindow w;
  w.window.show();
  w.pages.showModelView();
  ModelView* view = w.view();
  QWidget* start = view->startPage();
  QVERIFY(start->isVisibleTo(&w.window));
  QVERIFY(!view->scrollArea()->isVisibleTo(&w.window));
  QVERIFY(!view->modes()->isEnabled());
  const QList<QCommandLinkButton*> buttons = start->findChildren<QCommandLinkButton*>();
  const QList<ModelExample> examples = modelExamples();
  QCOMPARE(buttons.size(), examples.size() + 1);  // File > Open, then each example
  // The first button opens File > Open's dialog (closed here as soon as it is up).
  QSignalSpy openFile(view, &ModelView::openFileRequested);
  QString dialogTitle;
  QTimer closer;
  QObject::connect(&closer, &QTimer::timeout, [&dialogTitle] {
    if (auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget())) {
      dialogTitle = dialog->windowTitle();
      dialog->reject();
    }
  });
  closer.start(20);
  buttons.front()->click();
  closer.stop();
  QCOMPARE(openFile.count(), 1);
  QCOMPARE(dialogTitle, QStringLiteral("Open session, configuration, model or attention weights"));
  for (int i = 0; i < examples.size(); ++i) {
    QCOMPARE(buttons[i + 1]->text(), examples[i].name);
    QCOMPARE(buttons[i + 1]->description(), examples[i].title);
  }
  QCOMPARE(examples[1].name, QStringLiteral("copy"));
  buttons[2]->click();
  QTRY_VERIFY_WITH_TIMEOUT(view->loaded() != nullptr && !view->picture().isNull(), kTimeout);
  QCOMPARE(view->loaded()->model.index.caption, examples[1].caption.toStdString());
  QVERIFY(!start->isVisibleTo(&w.window));
  QVERIFY(view->scrollArea()->isVisibleTo(&w.window));
  QVERIFY(view->modes()->isEnabled());
  QVERIFY(w.idle());
  view->closeModel();
  QVERIFY(start->isVisibleTo(&w.window));
  QVERIFY(!view->scrollArea()->isVisibleTo(&w.window));
}

// Issue 40 defect 7: a model opened starts at its default view (the layers x heads grid, the
// step view for a generation capture): rollout or flow chosen for the model before would hide
// the heads the new model's caption speaks of.
void TestModel::aModelOpenedStartsAtItsDefaultView() {
  ModelWindow w;
  w.answer = UnsavedAnswer::discard;
  openAndWait(w, modelPath("copy"));
  ModelView* view = w.view();
  view->setMode(ModelMode::rollout);
  QTRY_VERIFY_WITH_TIMEOUT(view->mapRect(0, 0).isEmpty() && !view->isBusy(), kTimeout);
  openAndWait(w, modelPath("reverse"));
  QCOMPARE(view->modes()->mode(), ModelMode::grid);
  QTRY_VERIFY_WITH_TIMEOUT(!view->mapRect(1, 3).isEmpty(), kTimeout);
  view->setMode(ModelMode::flow);
  QTRY_VERIFY_WITH_TIMEOUT(view->mapRect(0, 0).isEmpty() && !view->isBusy(), kTimeout);
  openAndWait(w, modelPath("generate"));
  QCOMPARE(view->modes()->mode(), ModelMode::step);
  openAndWait(w, modelPath("copy"));
  QCOMPARE(view->modes()->mode(), ModelMode::grid);
}

// Issue 40 defect 7: a generation capture's layers are numbered as its caption numbers them
// ("layer 0 head 2"): the layer within its step, and the step; not the call's position among
// all the steps' calls ("layer 12").
void TestModel::generationLayersAreNumberedWithinTheirStep() {
  ModelWindow w;
  w.answer = UnsavedAnswer::discard;
  openAndWait(w, modelPath("generate"));
  ModelView* view = w.view();
  const model::ModelIndex& index = view->loaded()->model.index;
  QVERIFY(index.steps > 1);
  const std::size_t calls = index.layers.size() / std::size_t(index.steps);
  QCOMPARE(calls, std::size_t(2));
  for (std::size_t i = 0; i < index.layers.size(); ++i) {
    const std::size_t within = i % calls;
    const std::int64_t step = std::int64_t(i / calls);
    QCOMPARE(index.layers[i].step, step);
    const QString title = view->layerText(int(i));
    const QString want = QStringLiteral("layer %1 (%2, step %3)")
                             .arg(within)
                             .arg(QString::fromStdString(index.layers[i].name))
                             .arg(step);
    QVERIFY2(title.startsWith(want), qPrintable(title + QStringLiteral(" != ") + want));
  }
  const std::size_t last = index.layers.size() - calls;  // layer 0 of the last step
  QCOMPARE(QString::fromStdString(model::layer_title(index, last)),
           QStringLiteral("layer 0 (attn.0, step %1)").arg(index.steps - 1));
  ModelCellHit cell;
  cell.layer = int(last);
  cell.head = 2;
  cell.query = 0;
  cell.key = 0;
  QVERIFY2(view->cellText(cell).startsWith(QStringLiteral("layer 0 (attn.0, step")),
           qPrintable(view->cellText(cell)));
  w.document.setSelection({int(last), 2});
  auto* open = view->openLayerButton();
  QCOMPARE(open->text(), QStringLiteral("&Open layer 0"));
  // The pictures across the layers name them so too: the step's layers 0 and 1 (the rollout
  // of step 0, the only step that reads the prompt with self-attention).
  const model::Model& m = view->loaded()->model;
  const model::Rollout rollout =
      model::attention_rollout(m, view->loaded()->computed.weights, 0, 0);
  const TokenMapHeader header = rolloutHeader(m, rollout, QSize(1200, 800));
  QVERIFY2(header.titleText.contains(QStringLiteral("layers 0, 1,")), qPrintable(header.titleText));
}

// Plain arrays of attention weights (.npz, .safetensors, as mhaviz-cli model --weights reads
// them) opened as a file (File > Open, Open Recent, the command line) open in the model view,
// labelled by position; the session stays, and the next File > Open and Load tensors start in
// the file's folder. An archive of tensors with PyTorch's names is refused inline, naming Load
// tensors, which takes those; the line stays while the model before it is drawn again (it
// vanished at the next drawing).
void TestModel::aFileOfAttentionWeightsOpensInTheModelView() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const mhaviz::io::TensorMap tensors = writeWeightsOnlyModel(dir.path());
  const QString npz = dir.filePath(QStringLiteral("w.npz"));
  ModelWindow w;
  QVERIFY(w.idle());
  const mhaviz::Config before = w.document.config();
  openAndWait(w, npz);
  ModelView* view = w.view();
  QVERIFY2(view->error().isEmpty(), qPrintable(view->error()));
  QVERIFY(w.pages.showingModel());
  QVERIFY(view->loaded() != nullptr && view->loaded()->model.index.weights_only);
  QCOMPARE(view->loaded()->displayName, QStringLiteral("w.npz"));
  QCOMPARE(view->loaded()->computed.weights.size(), std::size_t{2});
  QVERIFY(sameTensor(view->loaded()->computed.weights[1], tensors.at("1/weights")));
  QVERIFY(view->loaded()->model.index.tokens.empty());  // no tokens: positions
  QVERIFY(w.document.config() == before);
  QCOMPARE(w.files.recentFiles().front(), QFileInfo(npz).absoluteFilePath());
  // File > Open's dialog starts in its folder (both started in the home folder).
  QString dialogFolder;
  QTimer closer;
  QObject::connect(&closer, &QTimer::timeout, [&dialogFolder] {
    if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
      dialogFolder = dialog->directory().absolutePath();
      dialog->reject();
    }
  });
  closer.start(20);
  w.files.openDialog();
  QCOMPARE(dialogFolder, QFileInfo(npz).absolutePath());
  dialogFolder.clear();
  w.files.loadTensorsDialog();  // and so does Load tensors'
  closer.stop();
  QCOMPARE(dialogFolder, QFileInfo(npz).absolutePath());

  mhaviz::io::TensorMap named;
  named.emplace("in_proj_weight", mhaviz::Tensor::from({12, 4}, std::vector<float>(48, 0.F)));
  const QString tensorsFile = dir.filePath(QStringLiteral("tensors.npz"));
  mhaviz::io::write_tensor_file(tensorsFile.toStdString(), named);
  QVERIFY(w.files.open(tensorsFile));
  QTRY_VERIFY_WITH_TIMEOUT(!view->error().isEmpty(), kTimeout);
  QVERIFY2(view->error().contains(QStringLiteral("in_proj_weight")) &&
               view->error().contains(QStringLiteral("Load tensors")),
           qPrintable(view->error()));
  // The model before stays drawn, and the line stays when it is drawn again (at a new size).
  QVERIFY(view->loaded() != nullptr);
  const QImage drawn = view->picture();
  w.window.resize(1000, 700);
  QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy() && view->picture().size() != drawn.size(), kTimeout);
  QVERIFY2(view->error().contains(QStringLiteral("Load tensors")), qPrintable(view->error()));
  QVERIFY(w.errors.isEmpty());  // inline, no dialog
  QVERIFY(w.document.config() == before);
}

// A weights-only model file (version 4: stored attention weights and tokens, no parameters or
// inputs): the model view draws its layers, says that nothing is recomputed and states the
// rows that do not sum to 1; a click hands the layer's stored weights to the token views and
// their head measures to the Head measures dock (ModelPages::storedLayerShown and
// storedMeasuresReady) without making it the session; what needs Q, K, V or the parameters
// (opening the layer, cell arithmetic, value norms, ...) is disabled with the reason, never
// blank. (The docks that show them are the window's: tests/ui/window.)
void TestModel::weightsOnlyLayersShowStoredWeightsAndSayWhatIsNotAvailable() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const mhaviz::io::TensorMap tensors = writeWeightsOnlyModel(dir.path());
  const std::int64_t H = 4;  // the file's heads
  const QString indexPath = dir.filePath(QStringLiteral("w.json"));
  QVERIFY(QFile::exists(indexPath));

  // What the pages hand to the token views and to the Head measures dock.
  std::shared_ptr<const mhaviz::ForwardResult> shown;
  ViewOptions shownView;
  std::shared_ptr<const mhaviz::ForwardResult> measured;
  std::shared_ptr<const mhaviz::ResultMeasures> measures;
  ModelWindow w;
  QObject::connect(&w.pages, &ModelPages::storedLayerShown, &w.pages,
                   [&](std::shared_ptr<const mhaviz::ForwardResult> result, const ViewOptions& v) {
                     shown = std::move(result);
                     shownView = v;
                   });
  QObject::connect(&w.pages, &ModelPages::storedMeasuresReady, &w.pages,
                   [&](std::shared_ptr<const mhaviz::ForwardResult> result,
                       std::shared_ptr<const mhaviz::ResultMeasures> m, int) {
                     measured = std::move(result);
                     measures = std::move(m);
                   });
  w.answer = UnsavedAnswer::discard;
  const mhaviz::Config before = w.document.config();
  openAndWait(w, indexPath);
  ModelView* view = w.view();
  QVERIFY2(view->error().isEmpty(), qPrintable(view->error()));
  const QString summary = view->summaryLine()->text();
  QVERIFY2(summary.contains(QStringLiteral("weights-only")), qPrintable(summary));
  QVERIFY2(summary.contains(QStringLiteral("1 of 20 rows do not sum to 1")) &&
               summary.contains(QStringLiteral("not renormalised")),
           qPrintable(summary));
  // Disabled, with the reason.
  auto* open = view->openLayerButton();
  QVERIFY(!open->isEnabled());
  for (const char* needs : {"cell arithmetic", "value norms", "value zeroing", "logit scale",
                            "recomputing a layer", "walk-through"}) {
    QVERIFY2(open->toolTip().contains(QLatin1String(needs)), qPrintable(open->toolTip()));
  }
  const QString hint = view->hintLine()->text();
  QVERIFY2(hint.contains(QStringLiteral("not available")), qPrintable(hint));
  for (int layer = 0; layer < 2; ++layer) {
    QVERIFY(view->layerText(layer).contains(QStringLiteral("stored weights")));
  }
  // The first layer's stored weights, with the file's tokens and its key/value heads.
  QVERIFY(shown != nullptr && shown->H == H);
  QVERIFY(sameTensor(shown->weights, tensors.at("0/weights")));
  QCOMPARE(shownView.keyLabels.front(), QStringLiteral("the"));
  QCOMPARE(shownView.kvHeads, 2);
  QCOMPARE(shownView.soloHead, -1);
  // A click shows layer 1 and head 2; the session is not replaced (nothing to compute).
  QTRY_VERIFY_WITH_TIMEOUT(!view->mapRect(1, 2).isEmpty(), kTimeout);
  QTest::mouseClick(view->canvas(), Qt::LeftButton, {}, view->mapRect(1, 2).center());
  QCOMPARE(view->selected(), std::make_pair(1, 2));
  QVERIFY(sameTensor(shown->weights, tensors.at("1/weights")));
  QCOMPARE(shownView.soloHead, 2);
  QCOMPARE(w.pages.storedLayerText(),
           QStringLiteral("layer 1 (attentions.1) of w.json (stored weights)"));
  // Its head measures follow: 0.6 on one key, the confidence of every head.
  QTRY_VERIFY_WITH_TIMEOUT(measured == shown && measures != nullptr, kTimeout);
  QCOMPARE(measures->head.H, H);
  for (std::int64_t h = 0; h < H; ++h)
    QVERIFY(std::abs(measures->average(0, h).confidence - 0.6) < 1e-6);
  QVERIFY(w.document.config() == before);
  QVERIFY(!w.document.origin().isModelLayer());
  // A double click does not open the layer: the model view stays.
  QTest::mouseDClick(view->canvas(), Qt::LeftButton, {}, view->mapRect(1, 2).center());
  QVERIFY(w.pages.showingModel());
  QVERIFY(!open->isEnabled());
}

QTEST_MAIN(TestModel)
