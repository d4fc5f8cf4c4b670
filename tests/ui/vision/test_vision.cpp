// The vision layer's tests (QtTest, offscreen): the Image view of a vision transformer over what
// the window gives it and no more — a bare QMainWindow whose centre is the model view, with the
// Image view installed beside it as the window installs it (installImageView). The core's weights
// over the image (a head, the mean of the heads, attention flow), captions that stay whole in a
// small picture, the colour map given, a click and hover on a patch, exports, and a model without
// an image. (In the window: the heading in the window's language, the token views' patches and
// View > Colormap, tests/ui/window/test_model_analysis_image.cpp; the dock among the workspace's,
// tests/ui/window/test_workspaces.cpp.)

#include <QAction>
#include <QColor>
#include <QDockWidget>
#include <QFileInfo>
#include <QImage>
#include <QMainWindow>
#include <QObject>
#include <QPainter>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "../render/drawn_texts.hpp"
#include "document/document.hpp"
#include "mhaviz/core/model/model.hpp"
#include "model/model_view.hpp"
#include "render/colormaps.hpp"
#include "vision/image_picture.hpp"
#include "vision/image_scene.hpp"
#include "vision/image_view.hpp"

using namespace mhaviz::ui;
namespace model = mhaviz::model;

namespace {

constexpr int kTimeout = 60000;

const QString kVit = QStringLiteral(MHAVIZ_FIXTURE_DIR "/models/vit.json");
const QString kSquares =
    QStringLiteral(MHAVIZ_SOURCE_DIR "/resources/examples/models/squares.json");
const QString kReverse =
    QStringLiteral(MHAVIZ_SOURCE_DIR "/resources/examples/models/reverse.json");

/// What the window assembles for its Image view, and no more: a bare main window whose centre is
/// the model view (in the window, a page of ModelPages) and the Image view installed in a dock
/// beside it (installImageView, as MainWindow installs it). Model files are opened straight into
/// the model view (the window opens them through SessionFiles and ModelPages, which also make the
/// first layer the session: the Image view follows the model view, not the session). The overlay
/// is in the colour map the window gives it at first, its default.
struct ImageWindow {
  Document document;  // the selection the model view outlines
  QMainWindow window;
  ModelView models{&document};  // the central widget
  ImageDock image;

  ImageWindow() {
    window.setCentralWidget(&models);
    image = installImageView(&window, &models);
    window.resize(1300, 900);
  }
  ImageWindow(const ImageWindow&) = delete;
  ImageWindow& operator=(const ImageWindow&) = delete;

  [[nodiscard]] ImageView* view() const { return image.view; }
};

/// Opens the model file `path` and waits until the Image view shows its first scene.
ImageView* openImageModel(ImageWindow& w, const QString& path) {
  w.window.show();
  ModelView* view = &w.models;
  view->openModel(path);
  if (!QTest::qWaitFor([view] { return view->loaded() != nullptr && !view->isBusy(); }, kTimeout))
    return nullptr;
  ImageView* image = w.view();
  if (!QTest::qWaitFor([image] { return image->scene() != nullptr && !image->isBusy(); }, kTimeout))
    return nullptr;
  return image;
}

/// The colour `colormap` gives `weight` of a map whose scale tops at `scale`, as the overlay's
/// 256 entries quantise it.
QColor colourOf(Colormap colormap, double weight, double scale) {
  QCPColorGradient gradient = makeGradient(colormap);  // (color() is not const)
  const double entry = std::floor(std::clamp(weight / scale, 0.0, 1.0) * 255 + 0.5);
  return QColor::fromRgb(gradient.color(entry / 255.0, QCPRange(0.0, 1.0)));
}

/// The pixel in the middle of the patch (row, col) of `map` (nearest upsampling: the patch's
/// weight alone).
QColor patchMiddle(const ImageMap& map, const model::ImageGrid& grid, std::int64_t row,
                   std::int64_t col) {
  const auto y = static_cast<int>((2 * row + 1) * map.picture.height() / (2 * grid.rows));
  const auto x = static_cast<int>((2 * col + 1) * map.picture.width() / (2 * grid.cols));
  return map.picture.pixelColor(x, y);
}

}  // namespace

class TestVision : public QObject {
  Q_OBJECT

 private slots:
  // In the order they ran in the window's tests (test_model_analysis_image.cpp), then the new.
  void imageViewShowsTheCoresWeightsOverTheImage();
  void imageViewCaptionsStayWholeWhenTheDockIsSmall();
  void clickingAPatchMakesItTheQueryAndHoverNamesIt();
  void imageViewExportsAndAModelWithoutAnImageSaysSo();
  void theOverlayKeepsTheColormapGivenThroughRequestsAndModels();
  void thePictureItselfComesFirstAmongTheSmallMultiples();
};

void TestVision::imageViewShowsTheCoresWeightsOverTheImage() {
  ImageWindow w;
  ImageView* image = openImageModel(w, kVit);
  QVERIFY(image != nullptr);
  QVERIFY(w.image.dock->isVisible());  // it comes with a model that has an image
  const auto loaded = w.models.loaded();
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
void TestVision::imageViewCaptionsStayWholeWhenTheDockIsSmall() {
  ImageWindow w;
  ImageView* image = openImageModel(w, kSquares);
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

void TestVision::clickingAPatchMakesItTheQueryAndHoverNamesIt() {
  ImageWindow w;
  ImageView* image = openImageModel(w, kVit);
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

void TestVision::imageViewExportsAndAModelWithoutAnImageSaysSo() {
  ImageWindow w;
  ImageView* image = openImageModel(w, kVit);
  QVERIFY(image != nullptr);
  QTemporaryDir dir;
  for (const char* ext : {"png", "svg", "pdf"}) {
    const QString path = dir.filePath(QStringLiteral("view.") + QLatin1String(ext));
    QCOMPARE(image->exportTo(path), QString());
    QVERIFY(QFileInfo(path).size() > 1000);
  }
  QVERIFY(
      image->exportTo(dir.filePath(QStringLiteral("view.bmp"))).contains(QStringLiteral(".png")));
  // A text model (the bundled "reverse"), drawn by the model view.
  w.models.openModel(kReverse);
  QVERIFY(QTest::qWaitFor(
      [&] {
        return w.models.loaded() != nullptr &&
               w.models.loaded()->displayName == QStringLiteral("reverse.json") &&
               !w.models.isBusy();
      },
      kTimeout));
  QVERIFY(QTest::qWaitFor([&] { return !image->hasImage(); }, kTimeout));
  QVERIFY(w.image.dock->isHidden());  // it went with the image
  w.image.toggle->trigger();          // View > Image view
  QVERIFY2(image->message().contains(QStringLiteral("has no image")), qPrintable(image->message()));
  QVERIFY(image->scene() == nullptr);
}

// The overlay is in the colour map the window gives (setColormap, on View > Colormap): a request
// asking for another keeps it, and so does the next model with an image. (View > Colormap
// reaching the view is tested in the window: imageViewOverlayFollowsTheWindowsColormap.)
void TestVision::theOverlayKeepsTheColormapGivenThroughRequestsAndModels() {
  ImageWindow w;
  ImageView* image = openImageModel(w, kVit);
  QVERIFY(image != nullptr);
  QCOMPARE(image->scene()->request.colormap, Colormap::viridis);  // the default
  image->setColormap(Colormap::magma);
  QCOMPARE(image->colormap(), Colormap::magma);
  QVERIFY(QTest::qWaitFor(
      [&] { return image->scene()->request.colormap == Colormap::magma && !image->isBusy(); },
      kTimeout));
  // Opaque, so that each patch's pixels are the colour map's colour of its weight alone; the
  // request's own colour map (viridis) gives way to the one given.
  ImageRequest r = image->request();
  r.opacity = 1.0;
  r.colormap = Colormap::viridis;
  image->setRequest(r);
  QVERIFY(QTest::qWaitFor(
      [&] { return image->scene()->request.opacity == 1.0 && !image->isBusy(); }, kTimeout));
  auto scene = image->scene();
  QCOMPARE(scene->request.colormap, Colormap::magma);
  QVERIFY2(scene->colormapNote.contains(colormapName(Colormap::magma)),
           qPrintable(scene->colormapNote));
  int differ = 0;
  for (std::int64_t row = 0; row < scene->grid.rows; ++row) {
    for (std::int64_t col = 0; col < scene->grid.cols; ++col) {
      const double weight =
          scene->main.weights.grid[static_cast<std::size_t>(row * scene->grid.cols + col)];
      const QColor expected = colourOf(Colormap::magma, weight, scene->main.scale);
      const QColor got = patchMiddle(scene->main, scene->grid, row, col);
      QVERIFY2(got == expected, qPrintable(QStringLiteral("patch r%1c%2 weight %3: %4, magma %5")
                                               .arg(row)
                                               .arg(col)
                                               .arg(weight)
                                               .arg(got.name(), expected.name())));
      if (colourOf(Colormap::viridis, weight, scene->main.scale) != expected) ++differ;
    }
  }
  QVERIFY(differ > 0);  // viridis would have failed this
  // Another model with an image starts over from its first layer, in the colour map given.
  w.models.openModel(kSquares);
  QVERIFY(QTest::qWaitFor(
      [&] {
        const auto s = image->scene();
        return s != nullptr && s->heads.size() == 4 && !image->isBusy();
      },
      kTimeout));
  scene = image->scene();
  QCOMPARE(scene->request.colormap, Colormap::magma);
  QCOMPARE(scene->request.opacity, ImageRequest{}.opacity);  // the request did start over
  QVERIFY2(scene->colormapNote.contains(colormapName(Colormap::magma)),
           qPrintable(scene->colormapNote));
  // and the small multiples too (opaque again): the largest weight of head 0 is magma's top
  r = image->request();
  r.opacity = 1.0;
  image->setRequest(r);
  QVERIFY(QTest::qWaitFor(
      [&] { return image->scene()->request.opacity == 1.0 && !image->isBusy(); }, kTimeout));
  scene = image->scene();
  QCOMPARE(scene->request.colormap, Colormap::magma);
  const ImageMap& head0 = scene->heads.front();
  const auto top = std::max_element(head0.weights.grid.begin(), head0.weights.grid.end()) -
                   head0.weights.grid.begin();
  QCOMPARE(patchMiddle(head0, scene->grid, top / scene->grid.cols, top % scene->grid.cols),
           colourOf(Colormap::magma, 1.0, 1.0));
}

// A colour map over the picture hides the picture's own colours: in the bundled squares model
// the colour of the small square is the answer, and viridis's yellow for a head's largest weight
// looked like a yellow square. The picture itself, with nothing over it, comes first among the
// small multiples; its patches answer hover and click as the main map's.
void TestVision::thePictureItselfComesFirstAmongTheSmallMultiples() {
  ImageWindow w;
  ImageView* image = openImageModel(w, kSquares);
  QVERIFY(image != nullptr);
  ImageRequest r = image->request();
  r.opacity = 1.0;  // the main map and the heads hide the picture entirely
  image->setRequest(r);
  QVERIFY(QTest::qWaitFor(
      [&] { return image->scene()->request.opacity == 1.0 && !image->isBusy(); }, kTimeout));
  const auto scene = image->scene();
  // the scene's picture is the picture shown (display_image), enlarged by whole pixels
  const model::RgbImage shown = model::display_image(w.models.loaded()->model.image, 0);
  QCOMPARE(scene->image.width(), static_cast<int>(shown.width) * scene->pixelFactor);
  QCOMPARE(scene->image.height(), static_cast<int>(shown.height) * scene->pixelFactor);
  for (int y = 0; y < scene->image.height(); ++y) {
    for (int x = 0; x < scene->image.width(); ++x) {
      const auto at = static_cast<std::size_t>(
          ((y / scene->pixelFactor) * shown.width + x / scene->pixelFactor) * 3);
      const QColor want(shown.rgb[at], shown.rgb[at + 1], shown.rgb[at + 2]);
      if (scene->image.pixelColor(x, y) != want)
        QFAIL(qPrintable(QStringLiteral("pixel %1,%2").arg(x).arg(y)));
    }
  }
  // drawn first among the small multiples, before head 0, with its caption
  const QSize size = image->canvas()->size();
  const ImagePictureLayout layout = layoutImagePicture(*scene, size);
  QVERIFY(!layout.image.isEmpty());
  QCOMPARE(layout.heads.size(), std::size_t{4});
  QVERIFY(layout.image.y() < layout.heads.front().y() ||
          (layout.image.y() == layout.heads.front().y() &&
           layout.image.x() < layout.heads.front().x()));
  const QImage drawn = drawImagePicture(*scene, size);
  int differFromOverlay = 0;
  for (std::int64_t row = 0; row < scene->grid.rows; ++row) {
    for (std::int64_t col = 0; col < scene->grid.cols; ++col) {
      const double fy =
          (2.0 * static_cast<double>(row) + 1) / (2.0 * static_cast<double>(scene->grid.rows));
      const double fx =
          (2.0 * static_cast<double>(col) + 1) / (2.0 * static_cast<double>(scene->grid.cols));
      const QColor got =
          drawn.pixelColor(layout.image.x() + static_cast<int>(fx * layout.image.width()),
                           layout.image.y() + static_cast<int>(fy * layout.image.height()));
      const int sx = static_cast<int>(fx * scene->image.width());
      const int sy = static_cast<int>(fy * scene->image.height());
      bool found = false;  // the picture's pixel there, give or take the scaling's rounding
      for (int dy = -2; dy <= 2 && !found; ++dy)
        for (int dx = -2; dx <= 2 && !found; ++dx)
          found = scene->image.pixelColor(std::clamp(sx + dx, 0, scene->image.width() - 1),
                                          std::clamp(sy + dy, 0, scene->image.height() - 1)) == got;
      QVERIFY2(found,
               qPrintable(QStringLiteral("patch r%1c%2: %3").arg(row).arg(col).arg(got.name())));
      if (patchMiddle(scene->main, scene->grid, row, col) != got) ++differFromOverlay;
    }
  }
  QVERIFY(differFromOverlay > 0);  // what the opaque overlay hides
  // A short dock (the Image view at 1280x720) keeps its room for the heads: with the picture
  // too, four heads would stand in three rows at half their side.
  const ImagePictureLayout shortDock = layoutImagePicture(*scene, QSize(490, 200));
  QVERIFY(shortDock.image.isEmpty());
  QCOMPARE(shortDock.heads.size(), std::size_t{4});
  QVERIFY2(shortDock.heads.front().height() >= 30,
           qPrintable(QString::number(shortDock.heads.front().height())));
  testing::TextRecorder recorder(drawn);
  {
    QPainter painter(&recorder);
    paintImagePicture(painter, *scene, size);
  }
  QStringList texts;
  for (const testing::DrawnText& t : recorder.texts()) texts << t.text;
  QVERIFY2(texts.contains(QStringLiteral("image 0")), qPrintable(texts.join('|')));
  QVERIFY2(texts.contains(QStringLiteral("4 \u00d7 4 patches")), qPrintable(texts.join('|')));
  // its patches answer as the main map's: hover names the main map's weight, a click the query
  const QPoint r1c2(layout.image.x() + layout.image.width() * 5 / 8,
                    layout.image.y() + layout.image.height() * 3 / 8);
  QSignalSpy hovered(image, &ImageView::hovered);
  QTest::mouseMove(image->canvas(), r1c2);
  QVERIFY(!hovered.isEmpty());
  const QString text = hovered.last().at(0).toString();
  QVERIFY2(text.startsWith(QStringLiteral("r1c2 (token %1)").arg(scene->grid.token(1, 2))) &&
               text.contains(scene->main.title),
           qPrintable(text));
  QTest::mouseClick(image->canvas(), Qt::LeftButton, {}, r1c2);
  QVERIFY(QTest::qWaitFor([&] { return image->scene()->request.query == scene->grid.token(1, 2); },
                          kTimeout));
}

QTEST_MAIN(TestVision)
#include "test_vision.moc"
