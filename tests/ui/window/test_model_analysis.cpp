// The model view's analysis across the layers (QtTest, offscreen): the Attention flow view shows
// the core's attention_flow; a generation capture opens in the step view, whose slider moves
// with the keyboard and shows the core's step_rows of each step; the sink rate follows ε and a
// bad ε is refused beside the field; in the step view the session (so the text view) follows the
// slider, keeping the selected layer's place in its step and its head. Pictures are compared with
// the picture functions fed the core's numbers, pixel for pixel. The Image view (ui/vision) of a
// vision transformer shows the core's weights of the head, layer and query asked for, clicking a
// patch makes it the query, hovering names it, and it exports PNG, SVG and PDF.

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <functional>

#include "desktop/language.hpp"
#include "document/document.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/model/model.hpp"
#include "model/model_mode_bar.hpp"
#include "model/model_pages.hpp"
#include "model/model_picture.hpp"
#include "model/model_view.hpp"
#include "model/step_picture.hpp"
#include "picture_audit.hpp"
#include "prompted_window.hpp"
#include "render/colormaps.hpp"
#include "tokens/head_view.hpp"
#include "tokens/text_view.hpp"
#include "vision/image_picture.hpp"
#include "vision/image_view.hpp"
#include "window/main_window.hpp"

using namespace mhaviz::ui;
namespace model = mhaviz::model;

namespace {

constexpr int kTimeout = 60000;

/// Opens a bundled model and waits until the view has drawn it.
ModelView* openExample(testing::PromptedWindow& w, const char* name) {
  w.window.resize(1300, 900);
  w.window.show();
  ModelView* view = w.window.pages()->modelView();
  if (!w.window.pages()->openModelExample(QString::fromLatin1(name))) return nullptr;
  if (!QTest::qWaitFor([view] { return view->loaded() != nullptr && !view->picture().isNull(); },
                       kTimeout)) {
    return nullptr;
  }
  // The first layer is opened after the picture: its result settles the view (a solo head
  // chosen before it came would be fitted against the window's previous result).
  if (!w.idle()) return nullptr;
  return view;
}

ModelPictureColors colorsOf(const QWidget* view) {
  ModelPictureColors colors;
  colors.background = view->palette().color(QPalette::Base);
  colors.ink = view->palette().color(QPalette::Text);
  return colors;
}

/// Waits until the view shows what `want` draws at the picture's size (drawn in the background;
/// a label of new width may resize the canvas meanwhile).
bool shows(ModelView* view, const std::function<QImage(QSize)>& want) {
  return QTest::qWaitFor(
      [&] {
        const QImage shown = view->picture();
        return !shown.isNull() && shown == want(shown.size());
      },
      kTimeout);
}

/// Opens a model file with an image and waits until the Image view shows its first scene.
ImageView* openImageModel(testing::PromptedWindow& w, const char* path) {
  w.window.resize(1300, 900);
  w.window.show();
  ModelView* view = w.window.pages()->modelView();
  if (!w.session()->open(QString::fromUtf8(path))) return nullptr;
  if (!QTest::qWaitFor([view] { return view->loaded() != nullptr && !view->isBusy(); }, kTimeout))
    return nullptr;
  ImageView* image = w.window.imageView();
  if (!QTest::qWaitFor([image] { return image->scene() != nullptr && !image->isBusy(); }, kTimeout))
    return nullptr;
  return w.idle() ? image : nullptr;
}

}  // namespace

class TestModelAnalysis : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { testing::isolateSettings("mhaviz-model-analysis-tests"); }

  void flowViewShowsTheCoresFlow() {
    testing::PromptedWindow w;
    ModelView* view = openExample(w, "copy");
    QVERIFY(view != nullptr);
    QCOMPARE(view->modes()->mode(), ModelMode::grid);
    QCOMPARE(view->modes()->step(), -1);
    view->setMode(ModelMode::flow);
    const auto loaded = view->loaded();
    const model::AttentionFlow flow =
        model::attention_flow(loaded->model, loaded->computed.weights);
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

  void generationOpensInTheStepViewAndTheSliderMovesWithTheKeyboard() {
    testing::PromptedWindow w;
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
    auto* slider = view->findChild<QSlider*>(QStringLiteral("modelStep"));
    QVERIFY(slider != nullptr && slider->isVisible());
    slider->setFocus();
    QTest::keyClick(slider, Qt::Key_Home);
    QCOMPARE(view->modes()->step(), 0);
    QVERIFY2(shows(view, stepPicture(0)), "not step 0's rows");
    auto* text = view->findChild<QLabel*>(QStringLiteral("modelStepText"));
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
    QVERIFY2(shows(view,
                   [&](QSize size) {
                     return drawRollout(m, r, size, Colormap::viridis, colorsOf(view));
                   }),
             "not the rollout of step 0");
  }

  // Issue 40: the step picture's note named "appended bias_k / zero columns after the gap" for
  // models that have none (the generate example).
  void theStepNoteNamesAppendedColumnsOnlyWhereTheyAre() {
    testing::PromptedWindow w;
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

  void theSessionAndTheTextViewFollowTheStepSlider() {
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
    auto* slider = view->findChild<QSlider*>(QStringLiteral("modelStep"));
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

  void sinkRateFollowsEpsAndABadEpsIsRefusedInline() {
    testing::PromptedWindow w;
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

  // --- The Image view (ui/vision): a vision transformer's attention over its image ---

  void imageViewShowsTheCoresWeightsOverTheImage() {
    testing::PromptedWindow w;
    ImageView* image = openImageModel(w, MHAVIZ_SOURCE_DIR "/tests/fixtures/models/vit.json");
    QVERIFY(image != nullptr);
    QVERIFY(w.window.imageViewDock()->isVisible());  // the Model workspace shows it in front
    const auto loaded = w.window.pages()->modelView()->loaded();
    const model::ImageGrid& grid = *loaded->model.index.image;
    const auto scene = image->scene();
    QCOMPARE(scene->request.layer, 0);  // the first layer over the image
    QCOMPARE(scene->request.query, 0);  // the class token
    const auto want = model::head_patch_weights(grid, loaded->computed.weights[0], 0, 0, 0);
    QCOMPARE(scene->main.weights.grid, want.grid);
    QCOMPARE(scene->main.weights.prefix, want.prefix);
    QCOMPARE(scene->heads.size(), std::size_t{2});
    // the mean of the heads of layer 1, smooth, from the controls' request
    ImageRequest r = image->request();
    r.layer = 1;
    r.head = -1;
    r.upsampling = model::Upsampling::smooth;
    image->setRequest(r);
    QVERIFY(QTest::qWaitFor([&] { return image->scene()->request.layer == 1; }, kTimeout));
    const auto mean = model::head_patch_weights(grid, loaded->computed.weights[1], -1, 0, 0);
    QCOMPARE(image->scene()->main.weights.grid, mean.grid);
    QVERIFY(image->scene()->upsamplingNote.contains(QStringLiteral("smooth")));
    // attention flow, computed in the background
    r.source = ImageSource::flow;
    image->setRequest(r);
    QVERIFY(QTest::qWaitFor([&] { return image->scene()->request.source == ImageSource::flow; },
                            kTimeout));
    const model::AttentionFlow flow =
        model::attention_flow(loaded->model, loaded->computed.weights);
    QCOMPARE(image->scene()->main.weights.grid,
             model::map_patch_weights(grid, flow.map, flow.tokens, 0).grid);
  }

  // Issue 40: at 1280x720 the Image view's picture is about 490x200; its four small maps stood
  // in one row of narrow columns, their captions cut to "to [CLS]:…" (the weight on the prefix
  // tokens, the register-token question), and the upsampling note to "nearest: exact pat…".
  void imageViewCaptionsStayWholeWhenTheDockIsSmall() {
    testing::PromptedWindow w;
    ImageView* image =
        openImageModel(w, MHAVIZ_SOURCE_DIR "/resources/examples/models/squares.json");
    QVERIFY(image != nullptr);
    const auto scene = image->scene();
    QCOMPARE(scene->heads.size(), std::size_t{4});
    for (const QSize size : {QSize(490, 200), QSize(620, 330)}) {
      QImage like(size, QImage::Format_RGB32);
      testing::TextRecorder recorder(like);
      {
        QPainter painter(&recorder);
        paintImagePicture(painter, *scene, size);
      }
      const QString where = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
      const QStringList problems = testing::auditDrawnTexts(recorder.texts(), size, where);
      QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
      int prefixLines = 0;
      for (const testing::DrawnText& t : recorder.texts()) {
        if (t.text.startsWith(scene->heading.left(8))) continue;  // the heading may shorten
        QVERIFY2(!t.text.contains(QChar(0x2026)), qPrintable(where + QStringLiteral(": ") + t.text));
        prefixLines += t.text.contains(QStringLiteral("[CLS]")) ? 1 : 0;
      }
      QVERIFY2(prefixLines >= 5, qPrintable(where));  // the main map's and every head's
    }
  }

  // The Image view's heading names the layer in the window's language around the module path
  // (it said "layer 0 (encoder.layers.encoder_layer_0.self_attention)" in the Chinese window).
  void theImageViewNamesTheLayerInTheWindowsLanguage() {
    QVERIFY(installTranslations(QLocale(QStringLiteral("zh_CN"))));
    const auto english = qScopeGuard(
        [] { installTranslations(QLocale(QLocale::English, QLocale::UnitedStates)); });
    testing::PromptedWindow w;
    ImageView* image =
        openImageModel(w, MHAVIZ_SOURCE_DIR "/resources/examples/models/squares.json");
    QVERIFY(image != nullptr);
    const QString heading = image->scene()->heading;
    QVERIFY2(heading.startsWith(
                 QStringLiteral("第 0 层（encoder.layers.encoder_layer_0.self_attention）")),
             qPrintable(heading));
    QVERIFY2(!heading.contains(QStringLiteral("layer ")), qPrintable(heading));
  }

  // The head view and the text view draw a layer over the image with its patches beside the
  // patch tokens (the session's origin carries them); a text model's layer with none.
  void tokenViewsShowThePatchesOfALayerOverTheImage() {
    testing::PromptedWindow w;
    QVERIFY(openImageModel(w, MHAVIZ_SOURCE_DIR "/tests/fixtures/models/vit.json") != nullptr);
    for (QDockWidget* dock : {w.window.headViewDock(), w.window.textViewDock()})
      if (!dock->isVisible()) dock->toggleViewAction()->trigger();
    QVERIFY(w.idle());
    const auto pictures = w.window.document()->origin().pictures;
    QVERIFY(pictures != nullptr);
    for (TokenView* view :
         std::initializer_list<TokenView*>{w.window.headView(), w.window.textView()}) {
      QVERIFY(QTest::qWaitFor([&] { return view->pictures() == pictures; }, kTimeout));
      QCOMPARE(view->tokenPictureList().size(), std::size_t{17});  // [CLS] + 4 x 4 patches
      QVERIFY(view->tokenPictureList()[0].isNull());
      QVERIFY(!view->tokenPictureList()[5].isNull());
    }
    QVERIFY(QTest::qWaitFor([&] { return !w.window.headView()->isDrawing(); }, kTimeout));
    QVERIFY(!w.window.headView()->lines().keys[5].picture.isEmpty());
    // A text model: nothing of the image stays.
    QVERIFY(w.window.pages()->openModelExample(QStringLiteral("reverse")));
    QVERIFY(QTest::qWaitFor(
        [&] { return w.window.document()->origin().model == QStringLiteral("reverse.json"); },
        kTimeout));
    QVERIFY(w.idle());
    QVERIFY(w.window.document()->origin().pictures == nullptr);
    for (TokenView* view :
         std::initializer_list<TokenView*>{w.window.headView(), w.window.textView()}) {
      QVERIFY(QTest::qWaitFor([&] { return view->pictures() == nullptr; }, kTimeout));
      QVERIFY(view->tokenPictureList().empty());
    }
  }

  void imageViewOverlayFollowsTheWindowsColormap() {
    testing::PromptedWindow w;
    ImageView* image = openImageModel(w, MHAVIZ_SOURCE_DIR "/tests/fixtures/models/vit.json");
    QVERIFY(image != nullptr);
    QCOMPARE(image->scene()->request.colormap, Colormap::viridis);  // the window's default
    // The user picks magma in View > Colormap, as for the heatmaps.
    QAction* magma = nullptr;
    for (QAction* a : w.window.findChildren<QAction*>()) {
      if (a->isCheckable() && a->data().toInt() == static_cast<int>(Colormap::magma) &&
          a->text() == colormapName(Colormap::magma))
        magma = a;
    }
    QVERIFY(magma != nullptr);
    magma->trigger();
    QCOMPARE(w.window.document()->view().colormap, Colormap::magma);
    QVERIFY(QTest::qWaitFor(
        [&] { return image->scene()->request.colormap == Colormap::magma && !image->isBusy(); },
        kTimeout));
    // Opaque, so that each patch's pixels are the colour map's colour of its weight alone; the
    // colour map stays the window's through a new request.
    ImageRequest r = image->request();
    r.opacity = 1.0;
    image->setRequest(r);
    QVERIFY(QTest::qWaitFor(
        [&] { return image->scene()->request.opacity == 1.0 && !image->isBusy(); }, kTimeout));
    const auto scene = image->scene();
    QCOMPARE(scene->request.colormap, Colormap::magma);
    QVERIFY2(scene->colormapNote.contains(colormapName(Colormap::magma)),
             qPrintable(scene->colormapNote));
    QCPColorGradient want = makeGradient(Colormap::magma);
    QCPColorGradient viridis = makeGradient(Colormap::viridis);
    const QCPRange range(0.0, 1.0);
    const ImageMap& map = scene->main;
    const model::ImageGrid& grid = scene->grid;
    int differ = 0;
    for (std::int64_t row = 0; row < grid.rows; ++row) {
      for (std::int64_t col = 0; col < grid.cols; ++col) {
        // the middle pixel of the patch (nearest upsampling: the patch's weight)
        const auto y = static_cast<int>((2 * row + 1) * map.picture.height() / (2 * grid.rows));
        const auto x = static_cast<int>((2 * col + 1) * map.picture.width() / (2 * grid.cols));
        const double weight = map.weights.grid[static_cast<std::size_t>(row * grid.cols + col)];
        const double entry = std::floor(std::clamp(weight / map.scale, 0.0, 1.0) * 255 + 0.5);
        const QColor expected = QColor::fromRgb(want.color(entry / 255.0, range));
        const QColor got = map.picture.pixelColor(x, y);
        QVERIFY2(got == expected, qPrintable(QStringLiteral("patch r%1c%2 weight %3: %4, magma %5")
                                                 .arg(row)
                                                 .arg(col)
                                                 .arg(weight)
                                                 .arg(got.name(), expected.name())));
        if (QColor::fromRgb(viridis.color(entry / 255.0, range)) != expected) ++differ;
      }
    }
    QVERIFY(differ > 0);  // viridis would have failed this
    // and the small multiples too: the largest weight of head 0 is magma's top colour
    const ImageMap& head0 = scene->heads.front();
    const auto top = std::max_element(head0.weights.grid.begin(), head0.weights.grid.end()) -
                     head0.weights.grid.begin();
    const auto y = static_cast<int>((2 * (top / grid.cols) + 1) * head0.picture.height() /
                                    (2 * grid.rows));
    const auto x = static_cast<int>((2 * (top % grid.cols) + 1) * head0.picture.width() /
                                    (2 * grid.cols));
    QCOMPARE(head0.picture.pixelColor(x, y), QColor::fromRgb(want.color(1.0, range)));
  }

  void clickingAPatchMakesItTheQueryAndHoverNamesIt() {
    testing::PromptedWindow w;
    ImageView* image = openImageModel(w, MHAVIZ_SOURCE_DIR "/tests/fixtures/models/vit.json");
    QVERIFY(image != nullptr);
    const ImagePictureLayout layout = image->pictureLayout();
    QVERIFY(!layout.main.isEmpty());
    const model::ImageGrid grid = image->scene()->grid;  // a copy: the click replaces the scene
    const QPoint r1c2(layout.main.x() + layout.main.width() * 5 / 8,
                      layout.main.y() + layout.main.height() * 3 / 8);
    QSignalSpy hovered(image, &ImageView::hovered);
    QTest::mouseMove(image->canvas(), r1c2);
    QVERIFY(!hovered.isEmpty());
    QVERIFY2(hovered.last().at(0).toString().startsWith(QStringLiteral("r1c2 (token 7)")),
             qPrintable(hovered.last().at(0).toString()));
    QTest::mouseClick(image->canvas(), Qt::LeftButton, {}, r1c2);
    QVERIFY(QTest::qWaitFor([&] { return image->scene()->request.query == grid.token(1, 2); },
                            kTimeout));
    QCOMPARE(image->scene()->queryPatch(), std::make_pair(1, 2));
  }

  void imageViewExportsAndAModelWithoutAnImageSaysSo() {
    testing::PromptedWindow w;
    ImageView* image = openImageModel(w, MHAVIZ_SOURCE_DIR "/tests/fixtures/models/vit.json");
    QVERIFY(image != nullptr);
    QTemporaryDir dir;
    for (const char* ext : {"png", "svg", "pdf"}) {
      const QString path = dir.filePath(QStringLiteral("view.") + QLatin1String(ext));
      QCOMPARE(image->exportTo(path), QString());
      QVERIFY(QFileInfo(path).size() > 1000);
    }
    QVERIFY(
        image->exportTo(dir.filePath(QStringLiteral("view.bmp"))).contains(QStringLiteral(".png")));
    QVERIFY(openExample(w, "reverse") != nullptr);
    QVERIFY(QTest::qWaitFor([&] { return !image->hasImage(); }, kTimeout));
    QVERIFY(w.window.imageViewDock()->isHidden());            // it went with the image
    w.window.imageViewDock()->toggleViewAction()->trigger();  // View > Image view
    QVERIFY2(image->message().contains(QStringLiteral("has no image")),
             qPrintable(image->message()));
    QVERIFY(image->scene() == nullptr);
  }

  void aBrokenImageIsRefusedInlineInTheModelView() {
    testing::PromptedWindow w;
    QTemporaryDir dir;
    QFile in(QStringLiteral(MHAVIZ_SOURCE_DIR "/tests/fixtures/models/vit.json"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray text = in.readAll();
    text.replace("\"grid\": [\n   4,\n   4\n  ]", "\"grid\": [\n   4,\n   3\n  ]");
    QFile out(dir.filePath(QStringLiteral("vit.json")));
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(text);
    out.close();
    QVERIFY(QFile::copy(QStringLiteral(MHAVIZ_SOURCE_DIR "/tests/fixtures/models/vit.npz"),
                        dir.filePath(QStringLiteral("vit.npz"))));
    w.window.resize(1300, 900);
    w.window.show();
    ModelView* view = w.window.pages()->modelView();
    QVERIFY(w.session()->open(dir.filePath(QStringLiteral("vit.json"))));
    QVERIFY(QTest::qWaitFor([view] { return !view->isBusy(); }, kTimeout));
    QVERIFY2(view->error().contains(QStringLiteral("the image is 16\u00d716 pixels")),
             qPrintable(view->error()));
  }

  // A model whose rows need more height than the view (12 layers): opening it draws one
  // picture, at the size the canvas has once the scroll bar is there, and the resizes that
  // showing it brings about draw nothing more (the view drew at the view's height, then at the
  // rows' height, then narrower by the scroll bar: three drawings of every map per model).
  void aScrollingGridIsDrawnOnceAtItsFinalSize() {
    QTemporaryDir dir;
    mhaviz::io::TensorMap tensors;
    QStringList layers;
    for (int l = 0; l < 12; ++l) {
      std::vector<float> w(2 * 6 * 6, 1.0F / 6);
      w[std::size_t(l % 6)] = 0.5F;  // head 0, query 0: a row that does not sum to 1, drawn as it is
      tensors.emplace(std::to_string(l) + "/weights", mhaviz::Tensor::from({1, 2, 6, 6}, std::move(w)));
      layers << QStringLiteral(R"({"name": "attentions.%1", "shape": [1, 2, 6, 6]})").arg(l);
    }
    mhaviz::io::write_tensor_file(dir.filePath(QStringLiteral("tall.npz")).toStdString(), tensors);
    QFile index(dir.filePath(QStringLiteral("tall.json")));
    QVERIFY(index.open(QIODevice::WriteOnly));
    index.write(QStringLiteral(R"({"format": "mhaviz-model", "version": 4, "tensors": "tall.npz",
        "layers": [%1]})").arg(layers.join(QStringLiteral(", "))).toUtf8());
    index.close();
    testing::PromptedWindow w;
    w.answer = UnsavedAnswer::discard;
    w.window.resize(1300, 700);
    w.window.show();
    ModelView* view = w.window.pages()->modelView();
    QSignalSpy pictures(view, &ModelView::modelFinished);  // one per picture shown
    QSignalSpy opened(view, &ModelView::openEnded);        // one per opening
    QVERIFY(w.session()->open(index.fileName()));
    QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy() && !view->picture().isNull(), kTimeout);
    QVERIFY(w.idle());
    // Drawn at the canvas's size once the resizes that follow (posted events) are delivered:
    // three rounds, as delivering them can post more, and any drawing they start ends.
    const auto settled = [view] {
      for (int round = 0; round < 3; ++round) {
        if (!QTest::qWaitFor(
                [view] {
                  return !view->isDrawing() && view->picture().size() == view->canvas()->size();
                }, kTimeout))
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
    QTRY_VERIFY_WITH_TIMEOUT(view->picture().size() == view->canvas()->size() &&
                                 view->canvas()->width() > 1000,
                             kTimeout);
    QVERIFY(settled());
    QCOMPARE(view->picture().size(), view->canvas()->size());
    QCOMPARE(pictures.count(), 2);
    // (the window's head measures, held back while a model opens, are not resumed by a redraw)
    QCOMPARE(opened.count(), 1);
  }
};

QTEST_MAIN(TestModelAnalysis)
#include "test_model_analysis.moc"
