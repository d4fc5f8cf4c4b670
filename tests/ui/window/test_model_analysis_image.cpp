// The Image view (ui/vision) of a vision transformer: the core's weights over the image, captions
// that stay whole, the token views' patches, the colour map, a click and hover on a patch,
// exports, and a model without an image (a broken image is refused by the model view:
// tests/ui/model).

#include "test_model_analysis.hpp"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

#include "desktop/language.hpp"
#include "document/document.hpp"
#include "mhaviz/core/model/model.hpp"
#include "model/model_mode_bar.hpp"
#include "model/model_pages.hpp"
#include "model/model_picture.hpp"
#include "model/model_view.hpp"
#include "picture_audit.hpp"
#include "prompted_window.hpp"
#include "render/colormaps.hpp"
#include "tokens/head_view.hpp"
#include "tokens/text_view.hpp"
#include "vision/image_picture.hpp"
#include "vision/image_view.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::model_analysis;
namespace model = mhaviz::model;

namespace {

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

// --- The Image view (ui/vision): a vision transformer's attention over its image ---
void TestModelAnalysis::imageViewShowsTheCoresWeightsOverTheImage() {
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
  const model::AttentionFlow flow = model::attention_flow(loaded->model, loaded->computed.weights);
  QCOMPARE(image->scene()->main.weights.grid,
           model::map_patch_weights(grid, flow.map, flow.tokens, 0).grid);
}

// Issue 40: at 1280x720 the Image view's picture is about 490x200; its four small maps stood
// in one row of narrow columns, their captions cut to "to [CLS]:…" (the weight on the prefix
// tokens, the register-token question), and the upsampling note to "nearest: exact pat…".
void TestModelAnalysis::imageViewCaptionsStayWholeWhenTheDockIsSmall() {
  testing::PromptedWindow w;
  ImageView* image = openImageModel(w, MHAVIZ_SOURCE_DIR "/resources/examples/models/squares.json");
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
void TestModelAnalysis::theImageViewNamesTheLayerInTheWindowsLanguage() {
  QVERIFY(installTranslations(QLocale(QStringLiteral("zh_CN"))));
  const auto english =
      qScopeGuard([] { installTranslations(QLocale(QLocale::English, QLocale::UnitedStates)); });
  testing::PromptedWindow w;
  ImageView* image = openImageModel(w, MHAVIZ_SOURCE_DIR "/resources/examples/models/squares.json");
  QVERIFY(image != nullptr);
  const QString heading = image->scene()->heading;
  QVERIFY2(heading.startsWith(
               QStringLiteral("第 0 层（encoder.layers.encoder_layer_0.self_attention）")),
           qPrintable(heading));
  QVERIFY2(!heading.contains(QStringLiteral("layer ")), qPrintable(heading));
}

// The head view and the text view draw a layer over the image with its patches beside the
// patch tokens (the session's origin carries them); a text model's layer with none.
void TestModelAnalysis::tokenViewsShowThePatchesOfALayerOverTheImage() {
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

void TestModelAnalysis::imageViewOverlayFollowsTheWindowsColormap() {
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
  const auto y =
      static_cast<int>((2 * (top / grid.cols) + 1) * head0.picture.height() / (2 * grid.rows));
  const auto x =
      static_cast<int>((2 * (top % grid.cols) + 1) * head0.picture.width() / (2 * grid.cols));
  QCOMPARE(head0.picture.pixelColor(x, y), QColor::fromRgb(want.color(1.0, range)));
}

void TestModelAnalysis::clickingAPatchMakesItTheQueryAndHoverNamesIt() {
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
  QVERIFY(
      QTest::qWaitFor([&] { return image->scene()->request.query == grid.token(1, 2); }, kTimeout));
  QCOMPARE(image->scene()->queryPatch(), std::make_pair(1, 2));
}

void TestModelAnalysis::imageViewExportsAndAModelWithoutAnImageSaysSo() {
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
  QVERIFY2(image->message().contains(QStringLiteral("has no image")), qPrintable(image->message()));
  QVERIFY(image->scene() == nullptr);
}
