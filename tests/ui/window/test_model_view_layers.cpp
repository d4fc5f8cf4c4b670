// A layer of the model view in the window's docks (QtTest, offscreen): a click makes it the
// session and the docks follow (parameters read-only, token views with the model's labels), the
// docks describe the model on screen (not in the Compare workspace, which hides it), and
// presentation mode hides the bar above a layer. (The pages' own handling of layers:
// tests/ui/model.)

#include "test_model_view.hpp"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QtTest>
#include <vector>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "mhaviz/core/model/model.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "render/head_measures_view.hpp"
#include "render/heatmap_grid.hpp"
#include "session/session_files.hpp"
#include "teach/teaching_tools.hpp"
#include "tokens/head_view.hpp"
#include "tokens/text_view.hpp"
#include "window/dock_subject.hpp"
#include "window/main_window.hpp"
#include "window/parameter_panel.hpp"
#include "window/workspace_arrangements.hpp"
#include "window/workspaces.hpp"

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
  w.window.pages()->backButton()->click();
  QVERIFY(w.window.pages()->showingModel());
}

/// Opens the reversing model and waits for its maps and for the session made of layer 0 (the
/// computation's result).
void openModelAndWait(testing::PromptedWindow& w) {
  w.answer = UnsavedAnswer::discard;
  openAndWait(w, modelPath("reverse"));
  QTRY_VERIFY_WITH_TIMEOUT(!w.window.pages()->modelView()->mapRect(1, 3).isEmpty(), kTimeout);
  QVERIFY(w.idle());
  QVERIFY(w.document()->computed().result != nullptr);
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
  auto* panel = w.window.parameterDock();
  panel->raise();  // in the Model workspace, a tab behind the head measures
  auto* fields = w.window.panel()->fieldArea();
  QVERIFY(!fields->isEnabled());
  auto* open = w.window.dockSubject()->openButton(panel);
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

// Double-clicking layer 1 / head 3 gives the document layer 1 and the view of its head 3 at
// once. The grid waits for layer 1's result: it never draws the result it holds (layer 0's,
// the session made when the model opened) under the new view, a picture of the wrong layer
// that also cost the double click 19 ms of its GUI stall (12 x 12 x 512).
void TestModelView::aLayerOpenedIsNotDrawnFromThePreviousLayer() {
  testing::PromptedWindow w;
  openModelAndWait(w);
  if (QTest::currentTestFailed()) return;
  ModelView* view = w.window.pages()->modelView();
  HeatmapGrid* grid = w.window.grid();
  const ResultPtr before = w.document()->computed().result;
  // What the grid holds after each change of view (connected after the window's own slots).
  QList<std::pair<const mhaviz::ForwardResult*, int>> drawn;
  connect(w.document(), &Document::changed, grid, [&](Document::Changes what) {
    if (what & Document::Change::view) drawn.append({grid->result().get(), grid->view().soloHead});
  });
  QTest::mouseDClick(view->canvas(), Qt::LeftButton, {}, view->mapRect(1, 3).center());
  QVERIFY(!w.window.pages()->showingModel());
  QVERIFY(w.idle());
  QVERIFY(w.document()->computed().result != before);
  QTRY_COMPARE_WITH_TIMEOUT(grid->result(), w.document()->computed().result, kTimeout);
  QCOMPARE(grid->view().soloHead, 3);
  QVERIFY(!drawn.isEmpty());
  for (const auto& [result, soloHead] : std::as_const(drawn)) {
    QVERIFY2(!(result == before.get() && soloHead == 3),
             "layer 0's result was drawn under the view of layer 1's head 3");
  }
}

// The same double click, its computation cancelled at once (Esc, before its result comes): the
// grid, which let go of layer 0's maps while it waited, draws them again marked out of date
// ("the picture shows earlier settings"), as after any cancelled change. Never an empty centre.
void TestModelView::aLayerCancelledLeavesThePreviousPictureNotABlank() {
  testing::PromptedWindow w;
  openModelAndWait(w);
  if (QTest::currentTestFailed()) return;
  ModelView* view = w.window.pages()->modelView();
  HeatmapGrid* grid = w.window.grid();
  const ResultPtr before = w.document()->computed().result;
  QTest::mouseDClick(view->canvas(), Qt::LeftButton, {}, view->mapRect(1, 3).center());
  QVERIFY(!w.window.pages()->showingModel());
  QVERIFY(w.document()->computed().busy);
  w.computation()->cancel();  // its result, even if already made, is not delivered
  QVERIFY(w.idle());
  QCOMPARE(w.document()->computed().result, before);
  QVERIFY(w.document()->computed().outOfDate);
  QCOMPARE(grid->result(), before);
  QCOMPARE(grid->view().soloHead, 3);
  QVERIFY(grid->isVisible());
}

// A double click as a windowing system sends it: press, release, press (the double click),
// release. The last release reaches the model view after the double click has shown the layer's
// full view, when the model view's maps lie elsewhere (the page and its workspace changed): it
// selected whatever map lay under the pointer there, head 1 instead of head 3, and the full view
// showed that head. The release that ends a double click selects nothing.
void TestModelView::theReleaseEndingADoubleClickSelectsNothing() {
  testing::PromptedWindow w;
  openModelAndWait(w);
  if (QTest::currentTestFailed()) return;
  ModelView* view = w.window.pages()->modelView();
  QWidget* canvas = view->canvas();
  const QPoint at = view->mapRect(1, 3).center();
  const QPoint onScreen = canvas->mapToGlobal(at);  // where the pointer stays
  QTest::mouseClick(canvas, Qt::LeftButton, {}, at);
  QTest::mouseDClick(canvas, Qt::LeftButton, {}, at);  // press and double click
  QVERIFY(!w.window.pages()->showingModel());
  QVERIFY(canvas->mapFromGlobal(onScreen) != at);  // the Parameters dock moved the pages
  QTest::mouseRelease(canvas, Qt::LeftButton, {}, canvas->mapFromGlobal(onScreen));
  QVERIFY(w.idle());
  QCOMPARE(view->selected(), std::make_pair(1, 3));
  QCOMPARE(w.document()->view().soloHead, 3);
  QVERIFY(!w.window.pages()->showingModel());
  QTRY_COMPARE_WITH_TIMEOUT(w.window.grid()->result(), w.document()->computed().result, kTimeout);
  QCOMPARE(w.window.grid()->view().soloHead, 3);
}

void TestModelView::docksDescribeTheModelOnScreen() {
  testing::PromptedWindow w;
  openLayerAndReturn(w);  // reverse.json (L = S = 8), layer 1, head 3, back
  if (QTest::currentTestFailed()) return;
  HeadMeasuresView* measures = w.window.headMeasures();
  QTRY_VERIFY_WITH_TIMEOUT(!w.document()->computed().measuring && !measures->sections().empty(),
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
  auto* tgtLen = w.window.panel()->controls().tgtLen;
  QVERIFY(tgtLen != nullptr);
  QCOMPARE(tgtLen->value(), int(copy.layers[0].problem.config.tgt_len));
  QVERIFY(w.document()->config() == copy.layers[0].problem.config);
  QVERIFY(sameTensor(w.document()->tensors()->at("in_proj_weight"),
                     *copy.layers[0].problem.params.in_proj_weight));
  QTRY_VERIFY_WITH_TIMEOUT(!w.document()->computed().measuring && !measures->sections().empty(),
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

// The Compare workspace hides the model view (A | B | B - A is its centre; B is the session):
// the docks said "the model view is on screen" there and kept the layer's parameters read-only,
// so B could not be made without "Open this layer to edit". There they describe the layer and
// edit it; back in Model they are read-only again.
void TestModelView::theCompareWorkspaceEditsTheLayerSelected() {
  testing::PromptedWindow w;
  openModelAndWait(w);
  if (QTest::currentTestFailed()) return;
  ModelView* view = w.window.pages()->modelView();
  QTest::mouseClick(view->canvas(), Qt::LeftButton, {}, view->mapRect(1, 3).center());
  QVERIFY(w.idle());
  auto* panel = w.window.parameterDock();
  auto* fields = w.window.panel()->fieldArea();
  auto* subject = w.window.dockSubject()->line(panel);
  QVERIFY(!fields->isEnabled());
  QVERIFY(subject->text().startsWith(QStringLiteral("Selected in the model view")));
  Workspaces* workspaces = w.window.workspaces();
  workspaces->setCurrent(kCompare);
  QTRY_VERIFY(workspaces->isSettled());
  QVERIFY(w.window.pages()->showingModel());  // still its page, hidden
  QVERIFY(!w.window.pages()->modelOnScreen());
  QVERIFY(fields->isEnabled());
  QCOMPARE(subject->text(),
           QStringLiteral("These docks show layer 1 (encoder.layers.1.self_attn) of reverse.json, "
                          "head 3."));
  workspaces->setCurrent(kModel);
  QTRY_VERIFY(workspaces->isSettled());
  QVERIFY(w.window.pages()->modelOnScreen());
  QVERIFY(!fields->isEnabled());
  QVERIFY(subject->text().startsWith(QStringLiteral("Selected in the model view")));
}

// The Model workspace before any model is opened: the docks said "the model view is on screen;
// these docks still show the session open before it", of a model that is not there. They say
// that no model is open, until one is.
void TestModelView::theDocksSayWhenNoModelIsOpen() {
  testing::PromptedWindow w;
  Workspaces* workspaces = w.window.workspaces();
  workspaces->setCurrent(kModel);
  QTRY_VERIFY(workspaces->isSettled());
  QVERIFY(w.window.pages()->modelOnScreen());
  auto* subject = w.window.dockSubject()->line(w.window.parameterDock());
  QCOMPARE(subject->text(),
           QStringLiteral("No model is open; these docks show the session of the full view."));
  QVERIFY(!subject->isHidden());
  openModelAndWait(w);
  if (QTest::currentTestFailed()) return;
  QVERIFY2(subject->text().startsWith(QStringLiteral("Selected in the model view: layer 0")),
           qPrintable(subject->text()));
}

void TestModelView::presentationModeHidesTheBarAndBringsItBack() {
  testing::PromptedWindow w;
  openLayerAndReturn(w);
  if (QTest::currentTestFailed()) return;
  w.window.pages()->showLayerView();
  auto* bar = w.window.pages()->layerBar();
  QVERIFY(bar->isVisible());
  w.window.teaching()->setPresentation(true);
  QVERIFY2(!bar->isVisible(), "the bar stays above presentation mode");
  w.window.teaching()->setPresentation(false);
  QVERIFY(bar->isVisible());
}
