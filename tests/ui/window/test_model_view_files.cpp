// Model files in the window (QtTest, offscreen): a model's layer names in the window's language,
// in the model view and the docks' notes; a weights-only file's stored weights in the head view
// and the Head measures dock. (The model view's own tests: tests/ui/model.)

#include "test_model_view.hpp"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMenu>
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
#include "model/model_view.hpp"
#include "render/head_measures_view.hpp"
#include "teach/teaching_tools.hpp"
#include "tokens/head_view.hpp"
#include "window/main_window.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing;
namespace model = mhaviz::model;

void TestModelView::initTestCase() { testing::isolateSettings("mhaviz-model-view-tests"); }

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
// inputs) in the window's docks: the head view shows the layer's stored weights with the file's
// tokens, its head chips grouped by key/value head; a click shows another layer there; the Head
// measures dock gives the stored layer's entropy, confidence and sink share and says the
// ablation is not available; the docks' note names the layer and says what it lacks. (What the
// model view says and what the pages hand to the docks: tests/ui/model.)
void TestModelView::weightsOnlyLayersShowStoredWeightsAndSayWhatIsNotAvailable() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const mhaviz::io::TensorMap tensors = writeWeightsOnlyModel(dir.path());
  const std::int64_t H = 4;  // the file's heads
  const QString indexPath = dir.filePath(QStringLiteral("w.json"));
  QVERIFY(QFile::exists(indexPath));

  testing::PromptedWindow w;
  w.answer = UnsavedAnswer::discard;
  openAndWait(w, indexPath);
  ModelView* view = w.window.pages()->modelView();
  QVERIFY2(view->error().isEmpty(), qPrintable(view->error()));
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
  // A click shows layer 1 and head 2 there.
  QTRY_VERIFY_WITH_TIMEOUT(!view->mapRect(1, 2).isEmpty(), kTimeout);
  QTest::mouseClick(view->canvas(), Qt::LeftButton, {}, view->mapRect(1, 2).center());
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
  const QString subject =
      w.window.findChildren<QLabel*>(QStringLiteral("dockSubject")).front()->text();
  QVERIFY2(subject.contains(QStringLiteral("layer 1 (attentions.1) of w.json (stored weights)")) &&
               subject.contains(QStringLiteral("no parameters or inputs")),
           qPrintable(subject));
}

// The window hands its File > Examples menu to the model pages: every bundled model is there,
// after the configurations, and one chosen opens in the model view.
void TestModelView::fileExamplesHoldTheBundledModels() {
  testing::PromptedWindow w;
  w.window.show();
  QVERIFY(w.idle());
  const QList<QAction*> actions = w.window.teaching()->examplesMenu()->actions();
  const auto entry = [&actions](const QString& name) -> QAction* {
    for (QAction* a : actions) {
      if (a->data().toString() == name) return a;
    }
    return nullptr;
  };
  const QList<ModelExample> models = modelExamples();
  QVERIFY(!models.isEmpty());
  for (const ModelExample& m : models) QVERIFY2(entry(m.name) != nullptr, qPrintable(m.name));
  QVERIFY(actions.indexOf(entry(models.front().name)) > 0);  // after the configurations
  entry(QStringLiteral("copy"))->trigger();
  ModelView* view = w.window.pages()->modelView();
  QTRY_VERIFY_WITH_TIMEOUT(view->loaded() != nullptr && !view->picture().isNull(), kTimeout);
  QCOMPARE(view->loaded()->model.index.caption,
           model::read_model(modelPath("copy").toStdString()).index.caption);
}

QTEST_MAIN(TestModelView)
