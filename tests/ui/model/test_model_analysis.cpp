// The model view's analysis across the layers (QtTest, offscreen): the Attention flow view shows
// the core's attention_flow; a generation capture opens in the step view, whose slider moves
// with the keyboard, shows the core's step_rows of each step and takes the session with it; the
// sink rate follows ε and a bad ε is refused beside the field; a model whose image does not fit
// its grid is refused inline; a scrolling grid is drawn once at its final size. Pictures are
// compared with the picture functions fed the core's numbers, pixel for pixel.

#include "test_model.hpp"

#include <QFile>
#include <QLabel>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSlider>
#include <QStringList>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <string>
#include <vector>

#include "document/document.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/model/model.hpp"
#include "model/model_mode_bar.hpp"
#include "model/model_pages.hpp"
#include "model/model_picture.hpp"
#include "model/model_view.hpp"
#include "model/step_picture.hpp"
#include "session/session_files.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::model_view;
namespace model = mhaviz::model;

void TestModel::flowViewShowsTheCoresFlow() {
  ModelWindow w;
  ModelView* view = openExample(w, "copy");
  QVERIFY(view != nullptr);
  QCOMPARE(view->modes()->mode(), ModelMode::grid);
  QCOMPARE(view->modes()->step(), -1);
  view->setMode(ModelMode::flow);
  const auto loaded = view->loaded();
  const model::AttentionFlow flow = model::attention_flow(loaded->model, loaded->computed.weights);
  const auto want = [&](QSize size) {
    return drawFlow(loaded->model, flow, size, Colormap::viridis, colorsOf(view));
  };
  QVERIFY2(shows(view, want), "the view does not show attention_flow's picture");
  QVERIFY2(view->error().isEmpty(), qPrintable(view->error()));
  // The flow is kept: back to the grid and to the flow again draws the same at once.
  view->setMode(ModelMode::grid);
  QTRY_VERIFY_WITH_TIMEOUT(!view->mapRect(0, 0).isEmpty(), kTimeout);
  view->setMode(ModelMode::flow);
  QVERIFY(shows(view, want));
}

void TestModel::generationOpensInTheStepViewAndTheSliderMovesWithTheKeyboard() {
  ModelWindow w;
  ModelView* view = openExample(w, "generate");
  QVERIFY(view != nullptr);
  const auto loaded = view->loaded();
  const model::Model& m = loaded->model;
  QCOMPARE(view->modes()->mode(), ModelMode::step);
  QCOMPARE(view->modes()->step(), int(m.index.steps - 1));
  const auto stepPicture = [&](int step) {
    return [&, step](QSize size) {
      return drawStepRows(m, model::step_rows(m, loaded->computed.weights, step), size,
                          Colormap::viridis, colorsOf(view));
    };
  };
  QVERIFY2(shows(view, stepPicture(int(m.index.steps - 1))), "not the last step's rows");
  auto* slider = view->modes()->stepSlider();
  QVERIFY(slider != nullptr && slider->isVisible());
  slider->setFocus();
  QTest::keyClick(slider, Qt::Key_Home);
  QCOMPARE(view->modes()->step(), 0);
  QVERIFY2(shows(view, stepPicture(0)), "not step 0's rows");
  auto* text = view->modes()->stepLine();
  QVERIFY2(text->text().contains(QStringLiteral("position 8 (6@8) generates 3@9")),
           qPrintable(text->text()));
  QTest::keyClick(slider, Qt::Key_Right);
  QCOMPARE(view->modes()->step(), 1);
  QVERIFY2(shows(view, stepPicture(1)), "not step 1's rows");
  // Rollout of a cached step has no self-attention layer to follow: said inline, model kept.
  view->setMode(ModelMode::rollout);
  QTRY_VERIFY_WITH_TIMEOUT(view->error().contains(QStringLiteral("step 1 has none")), kTimeout);
  QVERIFY(view->loaded() != nullptr);
  QTest::keyClick(slider, Qt::Key_Home);
  QTRY_VERIFY_WITH_TIMEOUT(view->error().isEmpty(), kTimeout);
  const model::Rollout r = model::attention_rollout(m, loaded->computed.weights, 0, 0);
  QVERIFY2(
      shows(view,
            [&](QSize size) { return drawRollout(m, r, size, Colormap::viridis, colorsOf(view)); }),
      "not the rollout of step 0");
}

// Issue 40: the step picture's note named "appended bias_k / zero columns after the gap" for
// models that have none (the generate example).
void TestModel::theStepNoteNamesAppendedColumnsOnlyWhereTheyAre() {
  ModelWindow w;
  ModelView* view = openExample(w, "generate");
  QVERIFY(view != nullptr);
  const auto loaded = view->loaded();
  model::StepRows rows = model::step_rows(loaded->model, loaded->computed.weights, 0);
  QVERIFY(!rows.layers.empty());
  QVERIFY(std::all_of(rows.layers.begin(), rows.layers.end(),
                      [](const auto& l) { return l.columns == l.keys; }));
  QVERIFY2(!stepRowsNote(rows).contains(QStringLiteral("bias_k")), qPrintable(stepRowsNote(rows)));
  rows.layers.back().columns = rows.layers.back().keys + 1;  // a layer with add_zero_attn
  QVERIFY2(stepRowsNote(rows).contains(QStringLiteral("bias_k / zero columns after the gap")),
           qPrintable(stepRowsNote(rows)));
}

// In a generation capture's step view the session follows the step slider: the layer that has,
// in the step shown, the place the selected layer has in its own step, with its head (so that
// the docks show the step on screen); not while the session has unsaved changes. (The text view
// that shows it is the window's: tests/ui/window.)
void TestModel::theSessionFollowsTheStepSlider() {
  ModelWindow w;
  ModelView* view = openExample(w, "generate");
  QVERIFY(view != nullptr);
  const auto loaded = view->loaded();
  const model::Model& m = loaded->model;
  const Document& document = w.document;
  const auto layersOf = [&](int step) { return model::step_layers(m.index, step); };
  // Opened at its last step: the session is that step's first call, all its heads.
  const int last = int(m.index.steps - 1);
  QTRY_COMPARE_WITH_TIMEOUT(document.origin().layer, int(layersOf(last)[0]), kTimeout);
  QCOMPARE(view->selected(), std::make_pair(int(layersOf(last)[0]), -1));
  // The second call of the step, head 2, selected; the slider keeps that place and head.
  QVERIFY(layersOf(last).size() >= 2);
  w.pages.selectLayer(int(layersOf(last)[1]), 2);
  auto* slider = view->modes()->stepSlider();
  QVERIFY(slider != nullptr);
  slider->setFocus();
  for (const int step : {0, 1}) {
    QTest::keyClick(slider, step == 0 ? Qt::Key_Home : Qt::Key_Right);
    QCOMPARE(view->modes()->step(), step);
    const int layer = int(layersOf(step)[1]);
    QCOMPARE(document.origin().layer, layer);
    QCOMPARE(document.view().soloHead, 2);
    QCOMPARE(view->selected(), std::make_pair(layer, 2));
    QVERIFY(document.config() == m.layers[std::size_t(layer)].problem.config);
    QVERIFY(w.idle());
    QVERIFY(!w.files.isModified());
  }
  // Edited, the session stays where it is when the step moves (no edit dropped unasked).
  mhaviz::Config edited = document.config();
  edited.dropout = 0.25;
  w.document.changeConfig(edited, QStringLiteral("Set dropout"));
  QVERIFY(w.files.isModified());
  const int kept = document.origin().layer;
  QTest::keyClick(slider, Qt::Key_Right);
  QCOMPARE(view->modes()->step(), 2);
  QCOMPARE(document.origin().layer, kept);
  QCOMPARE(w.unsavedAsked, 0);
}

void TestModel::sinkRateFollowsEpsAndABadEpsIsRefusedInline() {
  ModelWindow w;
  ModelView* view = openExample(w, "copy");
  QVERIFY(view != nullptr);
  const model::ComputedModel& c = view->loaded()->computed;
  ModelModeBar* modes = view->modes();
  const auto overall = [&](double eps) {
    const model::ModelSinkRates r = model::sink_rates(c, eps);
    return QStringLiteral("(%1 of %2 heads)").arg(r.overall.sinks).arg(r.overall.heads);
  };
  QVERIFY2(modes->sinkRateText().contains(overall(0.3)), qPrintable(modes->sinkRateText()));
  QVERIFY(overall(0.3) != overall(0.9));  // the fixture tells the thresholds apart
  modes->enterSinkEps(QStringLiteral("0.9"));
  QVERIFY(modes->sinkEpsError().isEmpty());
  QVERIFY2(modes->sinkRateText().contains(overall(0.9)), qPrintable(modes->sinkRateText()));
  QCOMPARE(modes->sinkEps(), 0.9);
  for (const char* bad : {"0", "-0.2", "1.01", "lots"}) {
    modes->enterSinkEps(QString::fromLatin1(bad));
    QVERIFY2(!modes->sinkEpsError().isEmpty(), bad);
    QVERIFY2(modes->sinkRateText().contains(overall(0.9)), bad);
    QCOMPARE(modes->sinkEps(), 0.9);
  }
  QVERIFY(modes->sinkEpsError().contains(QStringLiteral("is not a number")));
  modes->enterSinkEps(QStringLiteral("1"));  // (0, 1]: 1 is allowed
  QVERIFY(modes->sinkEpsError().isEmpty());
  QVERIFY(view->error().isEmpty());
}

void TestModel::aBrokenImageIsRefusedInlineInTheModelView() {
  ModelWindow w;
  QTemporaryDir dir;
  QFile in(fixtureModel("vit.json"));
  QVERIFY(in.open(QIODevice::ReadOnly));
  QByteArray text = in.readAll();
  text.replace("\"grid\": [\n   4,\n   4\n  ]", "\"grid\": [\n   4,\n   3\n  ]");
  QFile out(dir.filePath(QStringLiteral("vit.json")));
  QVERIFY(out.open(QIODevice::WriteOnly));
  out.write(text);
  out.close();
  QVERIFY(QFile::copy(fixtureModel("vit.npz"), dir.filePath(QStringLiteral("vit.npz"))));
  w.window.resize(1300, 900);
  w.window.show();
  ModelView* view = w.view();
  QVERIFY(w.files.open(dir.filePath(QStringLiteral("vit.json"))));
  QVERIFY(QTest::qWaitFor([view] { return !view->isBusy(); }, kTimeout));
  QVERIFY2(view->error().contains(QStringLiteral("the image is 16\u00d716 pixels")),
           qPrintable(view->error()));
}

// A model whose rows need more height than the view (12 layers): opening it draws one
// picture, at the size the canvas has once the scroll bar is there, and the resizes that
// showing it brings about draw nothing more (the view drew at the view's height, then at the
// rows' height, then narrower by the scroll bar: three drawings of every map per model).
void TestModel::aScrollingGridIsDrawnOnceAtItsFinalSize() {
  QTemporaryDir dir;
  mhaviz::io::TensorMap tensors;
  QStringList layers;
  for (int l = 0; l < 12; ++l) {
    std::vector<float> w(2 * 6 * 6, 1.0F / 6);
    w[std::size_t(l % 6)] = 0.5F;  // head 0, query 0: a row that does not sum to 1, drawn as it is
    tensors.emplace(std::to_string(l) + "/weights",
                    mhaviz::Tensor::from({1, 2, 6, 6}, std::move(w)));
    layers << QStringLiteral(R"({"name": "attentions.%1", "shape": [1, 2, 6, 6]})").arg(l);
  }
  mhaviz::io::write_tensor_file(dir.filePath(QStringLiteral("tall.npz")).toStdString(), tensors);
  QFile index(dir.filePath(QStringLiteral("tall.json")));
  QVERIFY(index.open(QIODevice::WriteOnly));
  index.write(QStringLiteral(R"({"format": "mhaviz-model", "version": 4, "tensors": "tall.npz",
      "layers": [%1]})")
                  .arg(layers.join(QStringLiteral(", ")))
                  .toUtf8());
  index.close();
  ModelWindow w;
  w.answer = UnsavedAnswer::discard;
  w.window.resize(1300, 700);
  w.window.show();
  ModelView* view = w.view();
  QSignalSpy pictures(view, &ModelView::modelFinished);  // one per picture shown
  QSignalSpy opened(view, &ModelView::openEnded);        // one per opening
  QVERIFY(w.files.open(index.fileName()));
  QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy() && !view->picture().isNull(), kTimeout);
  QVERIFY(w.idle());
  // Drawn at the canvas's size once the resizes that follow (posted events) are delivered:
  // three rounds, as delivering them can post more, and any drawing they start ends.
  const auto settled = [view] {
    for (int round = 0; round < 3; ++round) {
      if (!QTest::qWaitFor(
              [view] {
                return !view->isDrawing() && view->picture().size() == view->canvas()->size();
              },
              kTimeout))
        return false;
      QCoreApplication::sendPostedEvents();
      QCoreApplication::processEvents();
    }
    return true;
  };
  QVERIFY(settled());
  QVERIFY2(view->canvas()->height() > view->scrollArea()->viewport()->height(),
           "12 layers scroll in a 700-pixel window");
  QCOMPARE(view->picture().size(), view->canvas()->size());
  QCOMPARE(pictures.count(), 1);
  // A resize (the window wider) draws again, once, at the new size.
  w.window.resize(1500, 700);
  QTRY_VERIFY_WITH_TIMEOUT(
      view->picture().size() == view->canvas()->size() && view->canvas()->width() > 1000, kTimeout);
  QVERIFY(settled());
  QCOMPARE(view->picture().size(), view->canvas()->size());
  QCOMPARE(pictures.count(), 2);
  // (the window's head measures, held back while a model opens, are not resumed by a redraw)
  QCOMPARE(opened.count(), 1);
}
