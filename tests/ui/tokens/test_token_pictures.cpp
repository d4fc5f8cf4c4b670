// The patch tokens' pictures in the token views (render/token_pictures.hpp): for a layer of a
// vision transformer (tests/fixtures/models/vit.json: 16 x 16 images, 4 x 4 patches of 4 x 4
// pixels, a class token), each patch token is drawn with its patch's pixels beside its label in
// the head view and the text view, in their pictures (exports) and on their canvases; the class
// token keeps its text alone, and a text model (or a result whose tokens are not the image's)
// draws no picture at all.

#include <QApplication>
#include <QFile>
#include <QPainter>
#include <QTemporaryDir>
#include <QTest>
#include <array>
#include <cmath>
#include <filesystem>

#include "../render/test_render_common.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/model/model.hpp"
#include "render/token_pictures.hpp"
#include "tokens/head_view.hpp"
#include "tokens/head_view_picture.hpp"
#include "tokens/text_view.hpp"
#include "tokens/text_view_picture.hpp"

using mhaviz::ForwardResult;
using mhaviz::ui::ExportOptions;
using mhaviz::ui::PictureSource;
using mhaviz::ui::ViewOptions;
namespace model = mhaviz::model;

namespace {

using Rgb = std::array<double, 3>;

/// The vision transformer fixture: its first layer's result and its patch pictures.
struct Vit {
  model::Model m;
  std::shared_ptr<const ForwardResult> result;
  std::shared_ptr<const model::PatchPictures> pictures;
};

Vit readVit() {
  Vit v;
  v.m = model::read_model(std::filesystem::path(MHAVIZ_FIXTURE_DIR) / "models" / "vit.json");
  const model::Layer& layer = v.m.layers.front();
  v.result = std::make_shared<const ForwardResult>(
      mhaviz::forward(layer.problem.config, layer.problem.params, layer.problem.inputs));
  v.pictures = std::make_shared<const model::PatchPictures>(
      model::patch_pictures(*v.m.index.image, v.m.image));
  return v;
}

ViewOptions viewOf(const ForwardResult& result, int batch) {
  ViewOptions view;
  view.batch = batch;
  for (const std::string& s : result.config.query_labels)
    view.queryLabels << QString::fromStdString(s);
  for (const std::string& s : result.config.key_labels) view.keyLabels << QString::fromStdString(s);
  return view;
}

/// Whether `image` shows the patch of token `token` in `box` (logical pixels; a square patch
/// fills it): each pixel of the patch, a block of the drawn picture, has the patch pixel's
/// colour at its centre. Empty when it does, else what differs.
QString showsPatch(const QImage& image, const QRectF& box, const model::PatchPictures& pictures,
                   int batch, int token) {
  const model::RgbImage& picture = pictures.pictures[static_cast<std::size_t>(batch)];
  const model::PixelRect r =
      model::patch_pixels(pictures.grid, token, picture.height, picture.width);
  const double dpr = image.devicePixelRatio();
  for (std::int64_t y = 0; y < r.height; ++y) {
    for (std::int64_t x = 0; x < r.width; ++x) {
      const QPointF at(
          box.left() + (static_cast<double>(x) + 0.5) * box.width() / static_cast<double>(r.width),
          box.top() +
              (static_cast<double>(y) + 0.5) * box.height() / static_cast<double>(r.height));
      const QColor got = image.pixelColor((at * dpr).toPoint());
      const auto i = static_cast<std::size_t>(((r.y + y) * picture.width + r.x + x) * 3);
      const QColor want(picture.rgb[i], picture.rgb[i + 1], picture.rgb[i + 2]);
      if (std::abs(got.red() - want.red()) > 3 || std::abs(got.green() - want.green()) > 3 ||
          std::abs(got.blue() - want.blue()) > 3) {
        return QStringLiteral("token %1, patch pixel (%2, %3): %4, not %5")
            .arg(token)
            .arg(y)
            .arg(x)
            .arg(got.name(), want.name());
      }
    }
  }
  return {};
}

/// The mean colour of `image` inside `box` (logical pixels; the frame's pixel left out).
Rgb boxMean(const QImage& image, const QRectF& box) {
  const double dpr = image.devicePixelRatio();
  const QRect inner =
      QRectF(box.topLeft() * dpr, box.size() * dpr).toAlignedRect().adjusted(2, 2, -2, -2);
  Rgb sum{};
  int n = 0;
  for (int y = inner.top(); y <= inner.bottom(); ++y) {
    for (int x = inner.left(); x <= inner.right(); ++x) {
      const QColor c = image.pixelColor(x, y);
      sum[0] += c.red();
      sum[1] += c.green();
      sum[2] += c.blue();
      ++n;
    }
  }
  for (double& s : sum) s /= std::max(n, 1);
  return sum;
}

bool near(const Rgb& a, const Rgb& b, double tolerance) {
  for (std::size_t c = 0; c < 3; ++c)
    if (std::abs(a[c] - b[c]) > tolerance) return false;
  return true;
}

/// `source` painted as its PNG is (the lines rasterized first where it has a raster part).
QImage paint(const PictureSource& source, double scale = 1) {
  ExportOptions options;
  options.scale = scale;
  QImage image = mhaviz::ui::pictureCanvas(source, options);
  if (source.raster) source.raster(image);
  QPainter painter(&image);
  source.paint(painter, static_cast<bool>(source.raster));
  painter.end();
  return image;
}

}  // namespace

class TestTokenPictures : public QObject {
  Q_OBJECT

 private slots:
  // Token t >= 1 is patch t - 1 of the batch element's picture (enlarged without smoothing);
  // the class token has none; no pictures for another batch element or other tokens.
  void picturesAreThePatchesOfTheBatchElement() {
    const Vit v = readVit();
    for (int batch : {0, 1}) {
      const mhaviz::ui::TokenPictureList list =
          mhaviz::ui::tokenPictures(v.pictures.get(), *v.result, batch);
      QCOMPARE(list.size(), std::size_t{17});
      QVERIFY(list[0].isNull());  // [CLS]
      for (int t = 1; t < 17; ++t) {
        const QImage& p = list[static_cast<std::size_t>(t)];
        QVERIFY(!p.isNull());
        QCOMPARE(p.width() % 4, 0);  // the 4 x 4 patch, each pixel a square block
        const int block = p.width() / 4;
        const model::RgbImage& picture = v.pictures->pictures[static_cast<std::size_t>(batch)];
        const model::PixelRect r = model::patch_pixels(v.pictures->grid, t, 16, 16);
        for (int y = 0; y < 4; ++y) {
          for (int x = 0; x < 4; ++x) {
            const auto at = static_cast<std::size_t>(((r.y + y) * 16 + r.x + x) * 3);
            const QColor c = p.pixelColor(x * block + block / 2, y * block + block / 2);
            QCOMPARE(c, QColor(picture.rgb[at], picture.rgb[at + 1], picture.rgb[at + 2]));
          }
        }
      }
    }
    QVERIFY(mhaviz::ui::tokenPictures(v.pictures.get(), *v.result, 2).empty());
    QVERIFY(mhaviz::ui::tokenPictures(nullptr, *v.result, 0).empty());
    // A result of other tokens (a text model's, 6 tokens) gets none.
    mhaviz::Config text;
    text.embed_dim = 8;
    text.num_heads = 2;
    text.tgt_len = text.src_len = 6;
    const ForwardResult other = mhaviz::ui::test::computeResult(text);
    QVERIFY(mhaviz::ui::tokenPictures(v.pictures.get(), other, 0).empty());
  }

  // The head view's picture: each patch token's cell shows the patch's pixels next to the
  // lines, the label beside it; [CLS] has the same place, empty. Without pictures none.
  void headViewPictureDrawsThePatches() {
    const Vit v = readVit();
    ExportOptions options;
    options.width = 900;
    options.height = 700;
    for (int batch : {0, 1}) {
      const ViewOptions view = viewOf(*v.result, batch);
      const PictureSource source =
          mhaviz::ui::headViewPicture(*v.result, view, {}, options, nullptr, v.pictures.get());
      const QImage image = paint(source);
      const mhaviz::ui::HeadViewPictureLayout layout =
          mhaviz::ui::headViewPictureLayout(*v.result, view, {}, options, nullptr, true);
      for (int t = 1; t < 17; ++t) {
        for (const mhaviz::ui::TokenSlot* slot :
             {&layout.lines.queries[static_cast<std::size_t>(t)],
              &layout.lines.keys[static_cast<std::size_t>(t)]}) {
          QVERIFY(!slot->picture.isEmpty());
          QVERIFY(slot->box.contains(slot->picture));
          const QString wrong = showsPatch(image, slot->picture, *v.pictures, batch, t);
          QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        }
      }
      // Next to the lines: the query's picture at the right of its cell, the key's at the left.
      const mhaviz::ui::TokenSlot& q = layout.lines.queries[3];
      const mhaviz::ui::TokenSlot& k = layout.lines.keys[3];
      QVERIFY(q.picture.right() > q.box.center().x());
      QVERIFY(k.picture.left() < k.box.center().x());
      // [CLS]: its place is the background.
      QVERIFY(near(boxMean(image, layout.lines.queries[0].picture), {255, 255, 255}, 0.5));
    }
    // No pictures: no room kept for them, and nothing drawn there.
    const mhaviz::ui::HeadViewPictureLayout plain =
        mhaviz::ui::headViewPictureLayout(*v.result, viewOf(*v.result, 0), {}, options);
    for (const mhaviz::ui::TokenSlot& slot : plain.lines.queries) QVERIFY(slot.picture.isEmpty());
    for (const mhaviz::ui::TokenSlot& slot : plain.lines.keys) QVERIFY(slot.picture.isEmpty());
  }

  // The text view's picture: a patch token's chip holds its patch before the label.
  void textViewPictureDrawsThePatches() {
    const Vit v = readVit();
    ExportOptions options;
    options.width = 900;
    options.title = QStringLiteral("T");
    const ViewOptions view = viewOf(*v.result, 1);
    mhaviz::ui::TextViewChoice choice;
    choice.query = 0;
    const PictureSource source =
        mhaviz::ui::textViewPicture(*v.result, view, choice, options, nullptr, v.pictures.get());
    const QImage image = paint(source, 2);  // at DPI scale 2 too
    // Where the layout put the chips: the same layout as the picture's, at its origin.
    const mhaviz::ui::StageData data = mhaviz::ui::textViewData(*v.result, view);
    const mhaviz::ui::TokenPictureList list =
        mhaviz::ui::tokenPictures(v.pictures.get(), *v.result, 1);
    const mhaviz::ui::TextShades shades = mhaviz::ui::layoutTextShades(
        data, view.queryLabels,
        mhaviz::ui::textShadeOptions(data, view, choice, mhaviz::ui::pictureFont(),
                                     options.width - 24, 0, list));
    QVERIFY(shades.keys[0].picture.isEmpty());  // [CLS]
    // The chips stand below the title and the caption (textViewPicture's margins: 12 at the
    // sides, 6 above the title, 4 between title and caption, 6 below it).
    const QFont font = mhaviz::ui::pictureFont();
    QFont titleFont = font;
    titleFont.setBold(true);
    const double w = options.width - 24;
    const QString caption = mhaviz::ui::textViewCaption(*v.result, view, data,
                                                        mhaviz::ui::textViewMap(view, choice, data),
                                                        shades, view.queryLabels);
    const double top = 6 + mhaviz::ui::wrappedHeight(titleFont, options.title, w) + 4 +
                       mhaviz::ui::wrappedHeight(font, caption, w) + 6;
    for (int t = 1; t < 17; ++t) {
      const mhaviz::ui::TextToken& k = shades.keys[static_cast<std::size_t>(t)];
      QVERIFY(!k.picture.isEmpty());
      QVERIFY(k.box.contains(k.picture));
      const QString wrong = showsPatch(image, k.picture.translated(12, top), *v.pictures, 1, t);
      QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    }
    // A text model's text view has no pictures: the same chips as without any.
    const mhaviz::ui::TextShades none = mhaviz::ui::layoutTextShades(
        data, view.queryLabels,
        mhaviz::ui::textShadeOptions(data, view, choice, font, options.width - 24, 0));
    for (const mhaviz::ui::TextToken& k : none.keys) QVERIFY(k.picture.isEmpty());
    QVERIFY(none.keys[5].box.width() < shades.keys[5].box.width());
  }

  // SVG keeps each patch as an image (PDF and PNG draw them as the pictures above): one per
  // patch token in each column of the head view, one per chip of the text view; none without.
  void svgExportsCarryThePatches() {
    const Vit v = readVit();
    const ViewOptions view = viewOf(*v.result, 0);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ExportOptions options;
    options.width = 900;
    options.height = 600;
    const auto images = [](const QString& path) {
      QFile file(path);
      if (!file.open(QIODevice::ReadOnly)) return -1;
      return static_cast<int>(file.readAll().count("<image"));
    };
    const QString head = dir.filePath(QStringLiteral("head.svg"));
    const QString text = dir.filePath(QStringLiteral("text.svg"));
    QCOMPARE(
        mhaviz::ui::exportHeadView(*v.result, view, {}, options, head, nullptr, v.pictures.get()),
        QString());
    QCOMPARE(images(head), 32);
    QCOMPARE(
        mhaviz::ui::exportTextView(*v.result, view, {}, options, text, nullptr, v.pictures.get()),
        QString());
    QCOMPARE(images(text), 16);
    QCOMPARE(mhaviz::ui::exportHeadView(*v.result, view, {}, options, head), QString());
    QCOMPARE(images(head), 0);
    QCOMPARE(mhaviz::ui::exportTextView(*v.result, view, {}, options, text), QString());
    QCOMPARE(images(text), 0);
  }

  // The widgets: given the pictures with the result, the head view's and the text view's
  // canvases draw each patch token's pixels; given none (a text model), no room is kept.
  void viewsDrawThePatchesOnTheirCanvas() {
    const Vit v = readVit();
    const ViewOptions view = viewOf(*v.result, 0);
    mhaviz::ui::HeadView head;
    head.resize(900, 800);
    head.show();
    QVERIFY(QTest::qWaitForWindowExposed(&head));
    head.setResult(v.result, view, nullptr, v.pictures);
    QVERIFY(QTest::qWaitFor([&] { return !head.isDrawing(); }, 10000));
    QCOMPARE(head.tokenPictureList().size(), std::size_t{17});
    QImage canvas = head.canvas()->grab().toImage();
    for (int t = 1; t < 17; ++t) {
      const QRectF box = head.lines().keys[static_cast<std::size_t>(t)].picture;
      QVERIFY(!box.isEmpty());
      const QString wrong = showsPatch(canvas, box, *v.pictures, 0, t);
      QVERIFY2(wrong.isEmpty(), qPrintable(QStringLiteral("head view: ") + wrong));
    }

    mhaviz::ui::TextView text;
    text.resize(900, 400);
    text.show();
    QVERIFY(QTest::qWaitForWindowExposed(&text));
    text.setResult(v.result, view, nullptr, v.pictures);
    QCoreApplication::processEvents();
    canvas = text.canvas()->grab().toImage();
    for (int t = 1; t < 17; ++t) {
      // The canvas paints the text 8 pixels in (its margin).
      const QRectF box = text.shades().keys[static_cast<std::size_t>(t)].picture.translated(8, 0);
      const QString wrong = showsPatch(canvas, box, *v.pictures, 0, t);
      QVERIFY2(wrong.isEmpty(), qPrintable(QStringLiteral("text view: ") + wrong));
    }

    // The same result without pictures (as a text model's is shown): none, and no room.
    head.setResult(v.result, view);
    text.setResult(v.result, view);
    QVERIFY(QTest::qWaitFor([&] { return !head.isDrawing(); }, 10000));
    QVERIFY(head.tokenPictureList().empty());
    QVERIFY(text.tokenPictureList().empty());
    for (const mhaviz::ui::TokenSlot& slot : head.lines().keys) QVERIFY(slot.picture.isEmpty());
    for (const mhaviz::ui::TextToken& k : text.shades().keys) QVERIFY(k.picture.isEmpty());
  }
};

QTEST_MAIN(TestTokenPictures)
#include "test_token_pictures.moc"
