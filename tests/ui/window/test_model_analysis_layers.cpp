// The step view of a generation capture in the window: the session, and so the text view, follow
// the step slider. (The model view's analysis itself, over a bare main window: tests/ui/model.)

#include "test_model_analysis.hpp"

#include <QDockWidget>
#include <QSlider>
#include <QtTest>

#include "document/document.hpp"
#include "mhaviz/core/model/model.hpp"
#include "model/model_mode_bar.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "prompted_window.hpp"
#include "tokens/text_view.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::model_analysis;
namespace model = mhaviz::model;

void TestModelAnalysis::initTestCase() { testing::isolateSettings("mhaviz-model-analysis-tests"); }

void TestModelAnalysis::theSessionAndTheTextViewFollowTheStepSlider() {
  testing::PromptedWindow w;
  ModelView* view = openExample(w, "generate");
  QVERIFY(view != nullptr);
  const auto loaded = view->loaded();
  const model::Model& m = loaded->model;
  const Document* document = w.document();
  const auto layersOf = [&](int step) { return model::step_layers(m.index, step); };
  // Opened at its last step: the session is that step's first call.
  const int last = int(m.index.steps - 1);
  QTRY_COMPARE_WITH_TIMEOUT(document->origin().layer, int(layersOf(last)[0]), kTimeout);
  auto* dock = w.window.textViewDock();
  QVERIFY(dock != nullptr);
  dock->show();
  // The second call of the step, head 2, selected; the slider keeps that place and head.
  QVERIFY(layersOf(last).size() >= 2);
  w.window.pages()->selectLayer(int(layersOf(last)[1]), 2);
  auto* slider = view->modes()->stepSlider();
  slider->setFocus();
  for (const int step : {0, 1}) {
    QTest::keyClick(slider, step == 0 ? Qt::Key_Home : Qt::Key_Right);
    QCOMPARE(view->modes()->step(), step);
    QCOMPARE(document->origin().layer, int(layersOf(step)[1]));
    QCOMPARE(document->view().soloHead, 2);
    QCOMPARE(view->selected(), std::make_pair(int(layersOf(step)[1]), 2));
    // The text view shows the newest position's weights of that layer and head.
    const model::StepRows rows = model::step_rows(m, loaded->computed.weights, step);
    const QString query = QStringLiteral("\"%1\"").arg(QString::fromStdString(rows.query));
    QTRY_VERIFY_WITH_TIMEOUT(w.window.textView()->caption().contains(query), kTimeout);
    QVERIFY2(w.window.textView()->caption().contains(QStringLiteral("head 2")),
             qPrintable(w.window.textView()->caption()));
  }
  // Edited, the session stays where it is when the step moves (no edit dropped unasked).
  mhaviz::Config edited = document->config();
  edited.dropout = 0.25;
  w.document()->changeConfig(edited, QStringLiteral("Set dropout"));
  QVERIFY(w.window.session()->isModified());
  const int kept = document->origin().layer;
  QTest::keyClick(slider, Qt::Key_Right);
  QCOMPARE(view->modes()->step(), 2);
  QCOMPARE(document->origin().layer, kept);
}

QTEST_MAIN(TestModelAnalysis)
