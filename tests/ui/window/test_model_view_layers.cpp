// A layer of the model view in the session (QtTest, offscreen): a click makes it the session and
// the docks follow (parameters read-only, token views with the model's labels), a double click
// opens it with the model's weights; opening anything else leaves no trace of the model.

#include "test_model_view.hpp"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>
#include <vector>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/model/model.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "render/head_measures_view.hpp"
#include "session/session_files.hpp"
#include "teach/teaching_tools.hpp"
#include "tokens/head_view.hpp"
#include "tokens/text_view.hpp"
#include "window/main_window.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing;
namespace model = mhaviz::model;

namespace {

/// Opens the reversing model, double-clicks layer 1 / head 3 open and goes back to the model
/// view: the state the defects of issue 28 start from.
void openLayerAndReturn(testing::PromptedWindow& w) {
  w.answer = UnsavedAnswer::discard;
  openAndWait(w, modelPath("reverse"));
  ModelView* view = w.window.pages()->modelView();
  QVERIFY2(view->error().isEmpty(), qPrintable(view->error()));
  QTRY_VERIFY_WITH_TIMEOUT(!view->mapRect(1, 3).isEmpty(), kTimeout);
  QTest::mouseDClick(view->canvas(), Qt::LeftButton, {}, view->mapRect(1, 3).center());
  QVERIFY(!w.window.pages()->showingModel());
  QVERIFY(w.idle());
  QVERIFY(w.document()->tensors() != nullptr);
  w.window.findChild<QPushButton*>(QStringLiteral("backToModel"))->click();
  QVERIFY(w.window.pages()->showingModel());
}

/// Nothing of a model is left: no tensors, no bar, no model view, and the computation is clean.
void checkNoTraceOfTheModel(testing::PromptedWindow& w, const char* after) {
  const QString where = QString::fromLatin1(after);
  QVERIFY2(w.idle(), qPrintable(where));
  QVERIFY2(w.document()->tensors() == nullptr, qPrintable(where + ": the layer's tensors stay"));
  QVERIFY2(w.computation()->error().isEmpty(), qPrintable(where + ": " + w.computation()->error()));
  QVERIFY2(!w.window.pages()->showingModel(), qPrintable(where + ": the model grid stays"));
  QVERIFY2(!w.window.findChild<QWidget*>(QStringLiteral("modelLayerBar"))->isVisible(),
           qPrintable(where + ": the bar \"layer of reverse.json\" stays"));
  QVERIFY2(!w.window.pages()->modelViewAction()->isEnabled(),
           qPrintable(where + ": View > Model view still offers the model"));
  QVERIFY2(w.window.pages()->modelView()->loaded() == nullptr,
           qPrintable(where + ": the model is still held"));
}

}  // namespace

// A click selects a map's layer: it becomes the session (the model view stays), the
// Parameters dock shows it read-only with "Open this layer to edit", and the head view and
// text view show its heads with the model's token labels.
void TestModelView::clickingAMapShowsItsLayerInTheDocks() {
  testing::PromptedWindow w;
  w.answer = UnsavedAnswer::discard;
  openAndWait(w, modelPath("reverse"));
  ModelView* view = w.window.pages()->modelView();
  QTRY_VERIFY_WITH_TIMEOUT(!view->mapRect(1, 3).isEmpty(), kTimeout);
  auto* headDock = w.window.headViewDock();
  QVERIFY(headDock->isVisible());  // the Model workspace shows it
  auto* textDock = w.window.textViewDock();
  textDock->toggleViewAction()->trigger();
  const model::Model m = model::read_model(modelPath("reverse").toStdString());
  QTest::mouseClick(view->canvas(), Qt::LeftButton, {}, view->mapRect(1, 3).center());
  QVERIFY(w.window.pages()->showingModel());
  QVERIFY(w.idle());
  QVERIFY(w.document()->config() == m.layers[1].problem.config);
  QCOMPARE(w.document()->view().soloHead, 3);
  QCOMPARE(view->selected(), std::make_pair(1, 3));
  // Read-only, with the way to edit.
  auto* panel = w.window.findChild<QDockWidget*>(QStringLiteral("parameterDock"));
  panel->raise();  // in the Model workspace, a tab behind the head measures
  auto* fields = panel->findChild<QScrollArea*>(QStringLiteral("panelScroll"))->widget();
  QVERIFY(!fields->isEnabled());
  auto* open = panel->findChild<QPushButton*>(QStringLiteral("openLayerToEdit"));
  QVERIFY(open != nullptr && open->isVisible());
  // The token views: the layer's head 3, the model's labels.
  HeadView* head = w.window.headView();
  QTRY_VERIFY_WITH_TIMEOUT(!head->isDrawing() && !head->lines().lines.empty(), kTimeout);
  QCOMPARE(head->heads(), std::vector<int>{3});
  const auto& labels = m.layers[1].problem.config.query_labels;
  QCOMPARE(head->lines().queries.size(), labels.size());
  for (std::size_t i = 0; i < labels.size(); ++i) {
    QCOMPARE(head->lines().queries[i].label, QString::fromStdString(labels[i]));
    QCOMPARE(head->lines().keys[i].label,
             QString::fromStdString(m.layers[1].problem.config.key_labels[i]));
  }
  TextView* text = w.window.textView();
  QCOMPARE(text->shownMap(), 3);
  QCOMPARE(text->shades().keys[0].label,
           QString::fromStdString(m.layers[1].problem.config.key_labels[0]));
  // Open this layer to edit: the full view, the fields editable.
  open->click();
  QVERIFY(!w.window.pages()->showingModel());
  QVERIFY(fields->isEnabled());
  QVERIFY(!open->isVisible());
}

void TestModelView::doubleClickingAMapOpensThatLayerWithTheModelsWeights() {
  testing::PromptedWindow w;
  w.answer = UnsavedAnswer::discard;
  openAndWait(w, modelPath("reverse"));
  ModelView* view = w.window.pages()->modelView();
  QVERIFY2(view->error().isEmpty(), qPrintable(view->error()));
  const model::Model m = model::read_model(modelPath("reverse").toStdString());
  const model::ComputedModel computed = model::compute_model(m);
  const int layer = 1, head = 3;
  const QRect r = view->mapRect(layer, head);
  QVERIFY(!r.isEmpty());
  QTest::mouseDClick(view->canvas(), Qt::LeftButton, {}, r.center());
  QVERIFY(!w.window.pages()->showingModel());
  QVERIFY(w.idle());

  const mhaviz::Config& config = w.document()->config();
  QCOMPARE(config.embed_dim, m.layers[layer].problem.config.embed_dim);
  QCOMPARE(config.num_heads, m.layers[layer].problem.config.num_heads);
  QCOMPARE(w.document()->view().soloHead, head);
  // The session computes with the layer's own parameters and inputs...
  const auto tensors = w.document()->tensors();
  QVERIFY(tensors != nullptr);
  QVERIFY(
      sameTensor(tensors->at("in_proj_weight"), *m.layers[layer].problem.params.in_proj_weight));
  QVERIFY(
      sameTensor(tensors->at("out_proj.weight"), *m.layers[layer].problem.params.out_proj_weight));
  QVERIFY(sameTensor(tensors->at("query"), m.layers[layer].problem.inputs.query));
  // ...so its weights are the model's layer's, value for value.
  const auto result = w.computation()->result();
  QVERIFY(result != nullptr);
  const mhaviz::Tensor& want = computed.weights[layer];
  QVERIFY(sameTensor(result->weights, want));

  // The bar leads back to the model view.
  auto* back = w.window.findChild<QPushButton*>(QStringLiteral("backToModel"));
  QVERIFY(back != nullptr && back->isVisible());
  back->click();
  QVERIFY(w.window.pages()->showingModel());
}

void TestModelView::openingAnythingLeavesNoTraceOfTheModel_data() {
  QTest::addColumn<QString>("what");
  QTest::newRow("example") << QStringLiteral("example");
  QTest::newRow("new") << QStringLiteral("new");
  QTest::newRow("configuration file") << QStringLiteral("file");
  QTest::newRow("tensors") << QStringLiteral("tensors");
}

void TestModelView::openingAnythingLeavesNoTraceOfTheModel() {
  QFETCH(QString, what);
  testing::PromptedWindow w;
  openLayerAndReturn(w);
  if (QTest::currentTestFailed()) return;
  QTemporaryDir dir;
  if (what == QLatin1String("example")) {
    // The example of issue 28: its in_proj_bias is (48,), the layer's (96,).
    QAction* example = nullptr;
    for (QAction* a : w.window.teaching()->examplesMenu()->actions()) {
      if (a->data().toString() == QLatin1String(":/examples/bias_kv_and_zero_attn.json")) {
        example = a;
      }
    }
    QVERIFY(example != nullptr);
    example->trigger();
    QVERIFY(w.document()->config().add_bias_kv);
  } else if (what == QLatin1String("new")) {
    w.session()->newSession();
  } else if (what == QLatin1String("file")) {
    QFile file(dir.filePath(QStringLiteral("small.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"embed_dim": 8, "num_heads": 2, "batch_size": 1, "tgt_len": 3,
                   "src_len": 3})");
    file.close();
    QVERIFY(w.session()->open(file.fileName()));
    QCOMPARE(w.document()->config().tgt_len, 3);
  } else {
    // Tensors of the user's own: the session is no longer the model's layer.
    mhaviz::io::TensorMap none;
    const QString npz = dir.filePath(QStringLiteral("empty.npz"));
    mhaviz::io::write_tensor_file(npz.toStdString(), none);
    QVERIFY(w.session()->loadTensors(npz));
    QVERIFY(w.document()->tensors() != nullptr && w.document()->tensors()->empty());
    QVERIFY(w.idle());
    QVERIFY(!w.window.pages()->showingModel());
    QVERIFY(!w.window.findChild<QWidget*>(QStringLiteral("modelLayerBar"))->isVisible());
    QVERIFY(w.window.pages()->modelView()->loaded() == nullptr);
    return;
  }
  checkNoTraceOfTheModel(w, qPrintable(what));
}

void TestModelView::docksDescribeTheModelOnScreen() {
  testing::PromptedWindow w;
  openLayerAndReturn(w);  // reverse.json (L = S = 8), layer 1, head 3, back
  if (QTest::currentTestFailed()) return;
  HeadMeasuresView* measures = w.window.headMeasures();
  QTRY_VERIFY_WITH_TIMEOUT(!w.computation()->isMeasuring() && !measures->sections().empty(),
                           kTimeout);
  const std::vector<HeadMeasuresView::Section> reverseMeasures = measures->sections();

  // Another model (copy.json: L = S = 16): the docks describe its first layer.
  QVERIFY(w.session()->open(modelPath("copy")));
  ModelView* view = w.window.pages()->modelView();
  QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy() && view->loaded() != nullptr &&
                               view->loaded()->displayName == QLatin1String("copy.json"),
                           kTimeout);
  QVERIFY(w.idle());
  const model::Model copy = model::read_model(modelPath("copy").toStdString());
  auto* tgtLen = w.window.parameterDock()->findChild<QSpinBox*>(QStringLiteral("tgt_len"));
  QVERIFY(tgtLen != nullptr);
  QCOMPARE(tgtLen->value(), int(copy.layers[0].problem.config.tgt_len));
  QVERIFY(w.document()->config() == copy.layers[0].problem.config);
  QVERIFY(sameTensor(w.document()->tensors()->at("in_proj_weight"),
                     *copy.layers[0].problem.params.in_proj_weight));
  QTRY_VERIFY_WITH_TIMEOUT(!w.computation()->isMeasuring() && !measures->sections().empty(),
                           kTimeout);
  bool same = true;
  for (std::size_t i = 0; i < measures->sections().size() && i < reverseMeasures.size(); ++i) {
    if (measures->sections()[i].values != reverseMeasures[i].values) same = false;
  }
  QVERIFY2(!same, "Head measures repeat reverse.json's values");

  // Each dock says which layer it shows, in the model view and after a click.
  const QList<QLabel*> subjects = w.window.findChildren<QLabel*>(QStringLiteral("dockSubject"));
  QVERIFY(subjects.size() >= 3);  // Parameters, Masks and inputs, Head measures at least
  for (QLabel* subject : subjects) {
    QVERIFY2(subject->text().contains(
                 QStringLiteral("layer 0 (encoder.layers.0.self_attn) of copy.json")),
             qPrintable(subject->text()));
  }
  QVERIFY(!subjects.front()->isHidden());
  QTRY_VERIFY_WITH_TIMEOUT(!view->mapRect(1, 2).isEmpty(), kTimeout);
  QTest::mouseClick(view->canvas(), Qt::LeftButton, {}, view->mapRect(1, 2).center());
  QVERIFY(w.idle());
  for (QLabel* subject : subjects) {
    QVERIFY2(subject->text().contains(
                 QStringLiteral("layer 1 (encoder.layers.1.self_attn) of copy.json, head 2")),
             qPrintable(subject->text()));
  }
  // A session of the user's own: the docks describe the maps on screen and say nothing.
  w.session()->newSession();
  QVERIFY(w.idle());
  for (QLabel* subject : subjects) QVERIFY(subject->isHidden());
}

void TestModelView::theFirstLayerIsOpenedAfterThePicture() {
  // Computing the session's layer (and its head measures) would share the cores with the
  // drawing of the grid: the grid comes first, then the first layer becomes the session (the
  // view is busy until then).
  testing::PromptedWindow w;
  w.window.resize(1300, 900);
  w.window.show();
  ModelView* view = w.window.pages()->modelView();
  bool pictureFirst = false;
  int loaded = 0;
  QObject::connect(view, &ModelView::modelLoaded, view, [&] {
    ++loaded;
    pictureFirst = !view->picture().isNull();
  });
  const mhaviz::Config before = w.document()->config();
  QVERIFY(w.session()->open(modelPath("copy")));
  QTRY_VERIFY_WITH_TIMEOUT(view->loaded() != nullptr && !view->isBusy(), kTimeout);
  QCOMPARE(loaded, 1);
  QVERIFY(pictureFirst);
  QVERIFY(!(w.document()->config() == before));
  QVERIFY(w.document()->config() == view->loaded()->model.layers[0].problem.config);
}

void TestModelView::presentationModeHidesTheBarAndBringsItBack() {
  testing::PromptedWindow w;
  openLayerAndReturn(w);
  if (QTest::currentTestFailed()) return;
  w.window.pages()->showLayerView();
  auto* bar = w.window.findChild<QWidget*>(QStringLiteral("modelLayerBar"));
  QVERIFY(bar->isVisible());
  w.window.teaching()->setPresentation(true);
  QVERIFY2(!bar->isVisible(), "the bar stays above presentation mode");
  w.window.teaching()->setPresentation(false);
  QVERIFY(bar->isVisible());
}
