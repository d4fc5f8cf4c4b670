// Model files opened in the model view (QtTest, offscreen): a broken file gives an inline message,
// File > Examples lists the bundled models, a model starts at its default view, generation
// layers are numbered within their step and in the window's language, and a weights-only file
// shows its stored weights and says what is not available.

#include "test_model_view.hpp"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>
#include <cmath>
#include <vector>

#include "desktop/language.hpp"
#include "document/document.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/model/model.hpp"
#include "model/model_grid_layout.hpp"
#include "model/model_pages.hpp"
#include "model/model_picture.hpp"
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

void TestModelView::initTestCase() { testing::isolateSettings("mhaviz-model-view-tests"); }

void TestModelView::aBrokenModelFileGivesAnInlineMessage() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  // An index whose tensors file is not there.
  QFile file(dir.filePath(QStringLiteral("broken.json")));
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write(R"({"format": "mhaviz-model", "version": 1, "tensors": "gone.npz", "layers": [
    {"name": "enc.layers.0.self_attn", "config": {"embed_dim": 8, "num_heads": 2,
     "batch_size": 1, "tgt_len": 3, "src_len": 3}}]})");
  file.close();
  testing::PromptedWindow w;
  QVERIFY(w.idle());
  const mhaviz::Config before = w.document()->config();
  openAndWait(w, file.fileName());
  ModelView* view = w.window.pages()->modelView();
  QVERIFY(view->error().contains(QStringLiteral("gone.npz")));
  QVERIFY(view->error().contains(QStringLiteral("is not there")));
  auto* error = view->findChild<QLabel*>(QStringLiteral("modelError"));
  QVERIFY(error->isVisible());
  QVERIFY(w.errors.isEmpty());  // inline, no dialog
  QVERIFY(w.document()->config() == before);

  // A good model afterwards clears the message.
  QVERIFY(w.session()->open(modelPath("copy")));
  QTRY_VERIFY_WITH_TIMEOUT(view->loaded() != nullptr && !view->isBusy(), kTimeout);
  QVERIFY(view->error().isEmpty());
}

void TestModelView::examplesListTheBundledModelsWithTheirCaptions() {
  testing::PromptedWindow w;
  const QList<ModelExample> models = modelExamples();
  QCOMPARE(models.size(), 4);  // reverse, copy, generate, squares (a vision transformer)
  for (const ModelExample& m : models) {
    auto* action = w.window.teaching()->examplesMenu()->findChild<QAction*>(
        QStringLiteral("modelExample_") + m.name);
    QVERIFY(action != nullptr);
    QVERIFY(!m.caption.isEmpty());
    // Issue 40 defect 11: the caption made "generate" run off the screen; a short title,
    // the caption as the entry's status tip.
    QVERIFY(action->text().contains(m.name));
    QVERIFY2(action->text().size() <= 60, qPrintable(action->text()));
    QCOMPARE(action->statusTip(), m.caption);
  }
  auto* action = w.window.findChild<QAction*>(QStringLiteral("modelExample_copy"));
  w.window.show();
  action->trigger();
  ModelView* view = w.window.pages()->modelView();
  QTRY_VERIFY_WITH_TIMEOUT(view->loaded() != nullptr && !view->picture().isNull(), kTimeout);
  const model::Model m = model::read_model(modelPath("copy").toStdString());
  QCOMPARE(view->loaded()->model.layers.size(), m.layers.size());
  QCOMPARE(view->loaded()->model.index.caption, m.index.caption);
}

// Issue 40 defect 7: a model opened starts at its default view (the layers x heads grid, the
// step view for a generation capture): rollout or flow chosen for the model before would hide
// the heads the new model's caption speaks of.
void TestModelView::aModelOpenedStartsAtItsDefaultView() {
  testing::PromptedWindow w;
  w.answer = UnsavedAnswer::discard;
  openAndWait(w, modelPath("copy"));
  ModelView* view = w.window.pages()->modelView();
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
void TestModelView::generationLayersAreNumberedWithinTheirStep() {
  testing::PromptedWindow w;
  w.answer = UnsavedAnswer::discard;
  openAndWait(w, modelPath("generate"));
  ModelView* view = w.window.pages()->modelView();
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
  view->setSelected(int(last), 2);
  auto* open = view->findChild<QPushButton*>(QStringLiteral("modelOpenLayer"));
  QCOMPARE(open->text(), QStringLiteral("&Open layer 0"));
  // The pictures across the layers name them so too: the step's layers 0 and 1 (the rollout
  // of step 0, the only step that reads the prompt with self-attention).
  const model::Model& m = view->loaded()->model;
  const model::Rollout rollout =
      model::attention_rollout(m, view->loaded()->computed.weights, 0, 0);
  const TokenMapHeader header = rolloutHeader(m, rollout, QSize(1200, 800));
  QVERIFY2(header.titleText.contains(QStringLiteral("layers 0, 1,")), qPrintable(header.titleText));
}

// Issue 40 defect 11: in Chinese the layer's name is Chinese around the module path (which
// stays as the model names it): the docks' note said "layer 0 (encoder.layers.0.self_attn)"
// inside Chinese text.
void TestModelView::theLayerNameFollowsTheLanguage() {
  QVERIFY(installTranslations(QLocale(QStringLiteral("zh_CN"))));
  const auto english =
      qScopeGuard([] { installTranslations(QLocale(QLocale::English, QLocale::UnitedStates)); });
  testing::PromptedWindow w;
  w.answer = UnsavedAnswer::discard;
  openAndWait(w, modelPath("copy"));
  ModelView* view = w.window.pages()->modelView();
  QVERIFY(w.idle());
  const QString name = modelLayerName(view->loaded()->model, 1);
  QCOMPARE(name, QStringLiteral("第 1 层（encoder.layers.1.self_attn）"));
  QVERIFY(view->layerText(1).startsWith(name));
  bool noted = false;
  for (const QLabel* note : w.window.findChildren<QLabel*>(QStringLiteral("dockSubject"))) {
    if (note->text().isEmpty()) continue;
    noted = true;
    QVERIFY2(!note->text().contains(QStringLiteral("layer ")), qPrintable(note->text()));
    QVERIFY2(note->text().contains(QStringLiteral("encoder.layers.0.self_attn")),
             qPrintable(note->text()));
  }
  QVERIFY(noted);
  // A generation capture's call, step and number within the step, in Chinese.
  const model::Model gen = model::read_model(modelPath("generate").toStdString());
  QCOMPARE(modelLayerName(gen, int(gen.layers.size()) - 1),
           QStringLiteral("第 1 层（attn.1，第 %1 步）").arg(gen.index.steps - 1));
}

// A weights-only model file (version 4: stored attention weights and tokens, no parameters or
// inputs): the model view draws its layers, says that nothing is recomputed and states the
// rows that do not sum to 1; a click shows the layer's stored weights in the head view and
// the text view without making it the session; what needs Q, K, V or the parameters (opening
// the layer, cell arithmetic, value norms, ...) is disabled with the reason, never blank.
void TestModelView::weightsOnlyLayersShowStoredWeightsAndSayWhatIsNotAvailable() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const std::int64_t H = 4, L = 5;
  mhaviz::io::TensorMap tensors;
  for (int layer = 0; layer < 2; ++layer) {
    std::vector<float> w(static_cast<std::size_t>(H * L * L));
    for (std::size_t row = 0; row < w.size() / L; ++row) {
      const auto key = static_cast<std::size_t>((row + std::size_t(layer)) % L);
      for (std::size_t k = 0; k < std::size_t(L); ++k) w[row * L + k] = k == key ? 0.6F : 0.1F;
    }
    if (layer == 1) w[0] = 0.3F;  // one row sums to 0.7: stated, not renormalised
    tensors.emplace(std::to_string(layer) + "/weights",
                    mhaviz::Tensor::from({1, H, L, L}, std::move(w)));
  }
  mhaviz::io::write_tensor_file((dir.path() + QStringLiteral("/w.npz")).toStdString(), tensors);
  QFile index(dir.filePath(QStringLiteral("w.json")));
  QVERIFY(index.open(QIODevice::WriteOnly));
  index.write(R"({"format": "mhaviz-model", "version": 4, "tensors": "w.npz",
    "tokens": ["the", "cat", "sat", "on", "mats"], "num_key_value_heads": 2,
    "layers": [{"name": "attentions.0", "shape": [1, 4, 5, 5]},
               {"name": "attentions.1", "shape": [1, 4, 5, 5]}]})");
  index.close();

  testing::PromptedWindow w;
  w.answer = UnsavedAnswer::discard;
  const mhaviz::Config before = w.document()->config();
  openAndWait(w, index.fileName());
  ModelView* view = w.window.pages()->modelView();
  QVERIFY2(view->error().isEmpty(), qPrintable(view->error()));
  const QString summary = view->findChild<QLabel*>(QStringLiteral("modelSummary"))->text();
  QVERIFY2(summary.contains(QStringLiteral("weights-only")), qPrintable(summary));
  QVERIFY2(summary.contains(QStringLiteral("1 of 20 rows do not sum to 1")) &&
               summary.contains(QStringLiteral("not renormalised")),
           qPrintable(summary));
  // Disabled, with the reason.
  auto* open = view->findChild<QPushButton*>(QStringLiteral("modelOpenLayer"));
  QVERIFY(!open->isEnabled());
  for (const char* needs : {"cell arithmetic", "value norms", "value zeroing", "logit scale",
                            "recomputing a layer", "walk-through"}) {
    QVERIFY2(open->toolTip().contains(QLatin1String(needs)), qPrintable(open->toolTip()));
  }
  const QString hint = view->findChild<QLabel*>(QStringLiteral("modelHint"))->text();
  QVERIFY2(hint.contains(QStringLiteral("not available")), qPrintable(hint));
  for (int layer = 0; layer < 2; ++layer) {
    QVERIFY(view->layerText(layer).contains(QStringLiteral("stored weights")));
  }
  // The first layer's stored weights in the head view, with the file's tokens.
  HeadView* head = w.window.headView();
  QVERIFY(w.window.headViewDock()->isVisible());  // the Model workspace shows it
  QTRY_VERIFY_WITH_TIMEOUT(head->result() != nullptr && head->result()->H == H, kTimeout);
  QVERIFY(sameTensor(head->result()->weights, tensors.at("0/weights")));
  QCOMPARE(head->view().keyLabels.front(), QStringLiteral("the"));
  // num_key_value_heads = 2: the head chips are grouped by the key/value head they share.
  bool grouped = false;
  for (const QToolButton* chip : head->findChildren<QToolButton*>()) {
    if (chip->text() == QStringLiteral("h3")) {
      grouped =
          chip->toolTip().contains(QStringLiteral("Shares key/value head 1 with heads 2 to 3"));
    }
  }
  QVERIFY(grouped);
  // A click shows layer 1 and head 2 there; the session is not replaced (nothing to compute).
  QTRY_VERIFY_WITH_TIMEOUT(!view->mapRect(1, 2).isEmpty(), kTimeout);
  QTest::mouseClick(view->canvas(), Qt::LeftButton, {}, view->mapRect(1, 2).center());
  QCOMPARE(view->selected(), std::make_pair(1, 2));
  QTRY_VERIFY_WITH_TIMEOUT(sameTensor(head->result()->weights, tensors.at("1/weights")), kTimeout);
  QCOMPARE(head->view().soloHead, 2);
  // The Head measures dock: the stored layer's entropy, confidence and sink share per head;
  // the ablation, which needs the outputs, says it is not available.
  HeadMeasuresView* measures = w.window.headMeasures();
  QTRY_VERIFY_WITH_TIMEOUT(
      !measures->sections().empty() &&
          measures->sections().front().values.size() == std::size_t(H) &&
          measures->sections().back().title.contains(QStringLiteral("not available")),
      kTimeout);
  const std::vector<double>& confidence = measures->sections()[1].values;
  for (const double c : confidence) QVERIFY(std::abs(c - 0.6) < 1e-6);  // 0.6 on one key
  QVERIFY(w.document()->config() == before);
  QVERIFY(!w.document()->origin().isModelLayer());
  const QString subject =
      w.window.findChildren<QLabel*>(QStringLiteral("dockSubject")).front()->text();
  QVERIFY2(subject.contains(QStringLiteral("layer 1 (attentions.1) of w.json (stored weights)")) &&
               subject.contains(QStringLiteral("no parameters or inputs")),
           qPrintable(subject));
  // A double click does not open the layer: the model view stays.
  QTest::mouseDClick(view->canvas(), Qt::LeftButton, {}, view->mapRect(1, 2).center());
  QVERIFY(w.window.pages()->showingModel());
  QVERIFY(!open->isEnabled());
}

QTEST_MAIN(TestModelView)
