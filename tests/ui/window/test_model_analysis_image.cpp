// The Image view (ui/vision) of a vision transformer in the window: its heading in the window's
// language, the token views' patches of a layer over the image, and the overlay in the colour map
// of View > Colormap. (The Image view's own tests, over a bare main window: tests/ui/vision; a
// broken image is refused by the model view: tests/ui/model.)

#include "test_model_analysis.hpp"

#include <QAction>
#include <QDockWidget>
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "desktop/language.hpp"
#include "document/document.hpp"
#include "mhaviz/core/model/model.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "prompted_window.hpp"
#include "render/colormaps.hpp"
#include "tokens/head_view.hpp"
#include "tokens/text_view.hpp"
#include "vision/image_scene.hpp"
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
