// Image export (PNG/SVG/PDF) through the same HeatmapGrid as the window (QtTest, offscreen).

#include <sys/stat.h>
#include <unistd.h>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <qcustomplot.h>

#include <cmath>
#include <cstdlib>
#include <vector>

#include "mhaviz/core/forward/derived_maps.hpp"
#include "render/colormaps.hpp"
#include "render/image_export.hpp"
#include "test_render_common.hpp"

using namespace mhaviz::ui;
using mhaviz::ui::test::computeResult;

namespace {

mhaviz::Config exportConfig() {
  mhaviz::Config c;
  c.embed_dim = 16;
  c.num_heads = 2;
  c.tgt_len = 8;
  c.src_len = 8;
  c.add_bias_kv = true;
  c.add_zero_attn = true;
  return c;
}

/// One map of an SVG export: QCPColorMap embeds its cells as a PNG over the map's rectangle,
/// and the masked-cell overlay follows over the same rectangle.
struct EmbeddedMap {
  QRectF rect;
  QImage cells, overlay;
};

std::vector<EmbeddedMap> embeddedMaps(const QByteArray& svg) {
  std::vector<std::pair<QRectF, QImage>> images;
  QXmlStreamReader xml(svg);
  while (!xml.atEnd()) {
    if (xml.readNext() != QXmlStreamReader::StartElement || xml.name() != u"image") continue;
    const QXmlStreamAttributes a = xml.attributes();
    const QString href = a.value(QStringLiteral("xlink:href")).toString();
    const QByteArray png = QByteArray::fromBase64(href.mid(href.indexOf(u',') + 1).toLatin1());
    images.emplace_back(
        QRectF(a.value(QStringLiteral("x")).toDouble(), a.value(QStringLiteral("y")).toDouble(),
               a.value(QStringLiteral("width")).toDouble(),
               a.value(QStringLiteral("height")).toDouble()),
        QImage::fromData(png, "PNG"));
  }
  std::vector<EmbeddedMap> maps;
  for (std::size_t i = 0; i + 1 < images.size(); ++i) {
    if (images[i].first == images[i + 1].first) {
      maps.push_back({images[i].first, images[i].second, images[i + 1].second});
      ++i;
    }
  }
  return maps;
}

/// Within 2 per channel (rounding of the painter), opaque.
bool sameColour(QRgb got, QRgb want) {
  return qAlpha(got) == 255 && std::abs(qRed(got) - qRed(want)) <= 2 &&
         std::abs(qGreen(got) - qGreen(want)) <= 2 && std::abs(qBlue(got) - qBlue(want)) <= 2;
}

QString colourText(QRgb c) {
  return QStringLiteral("rgba(%1, %2, %3, %4)")
      .arg(qRed(c))
      .arg(qGreen(c))
      .arg(qBlue(c))
      .arg(qAlpha(c));
}

}  // namespace

class TestExport : public QObject {
  Q_OBJECT

 private slots:
  void describesTheConfiguration() {
    QCOMPARE(describeConfig(exportConfig(), 0),
             QStringLiteral("L=8 S=8 E=16 H=2 add_bias_kv add_zero_attn, batch 0"));
    mhaviz::Config c;
    c.batch_size = std::nullopt;
    QCOMPARE(describeConfig(c, 0), QStringLiteral("L=8 S=8 E=16 H=2, unbatched"));
  }

  void writesPng() {
    QTemporaryDir dir;
    const auto r = computeResult(exportConfig(), /*causal=*/true);
    ExportOptions options;
    options.width = 800;
    options.height = 500;
    options.scale = 2.0;
    const QString path = dir.filePath("weights.png");
    QCOMPARE(exportImage(r, ViewOptions{}, options, path), QString());
    QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.width(), 1600);
    QCOMPARE(image.height(), 1000);
    // Opaque white background by default, transparent on request.
    QCOMPARE(qAlpha(image.pixel(2, 2)), 255);
    options.transparent = true;
    options.scale = 1.0;
    const QString clear = dir.filePath("clear.png");
    QCOMPARE(exportImage(r, ViewOptions{}, options, clear), QString());
    QImage transparent(clear);
    QCOMPARE(transparent.width(), 800);
    QCOMPARE(qAlpha(transparent.pixel(2, 2)), 0);
  }

  void writesSvg() {
    QTemporaryDir dir;
    const auto r = computeResult(exportConfig());
    const QString path = dir.filePath("scores.SVG");
    ViewOptions view;
    view.stage = Stage::scores;
    QCOMPARE(exportImage(r, view, ExportOptions{}, path), QString());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray svg = file.readAll();
    QVERIFY(svg.contains("<svg"));
    QVERIFY(svg.contains("bias_k"));  // tick labels are text, not pixels
    QXmlStreamReader xml(svg);
    while (!xml.atEnd()) xml.readNext();
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QSvgRenderer renderer(svg);
    QVERIFY(renderer.isValid());
  }

  // Every cell of every map (head 0, head 1, the average; 8 queries x 10 keys with bias_k and
  // zero) has the colour of its weight on viridis over 0..1 in the PNG, and in the colour-map
  // picture the SVG embeds; masked cells are grey in the PNG and in the SVG's overlay.
  void cellsHaveTheColourOfTheirValue() {
    QTemporaryDir dir;
    const auto r = computeResult(exportConfig(), /*causal=*/true);
    const QString svgPath = dir.filePath("weights.svg");
    const QString pngPath = dir.filePath("weights.png");
    ExportOptions options;
    QCOMPARE(exportImage(r, ViewOptions{}, options, svgPath), QString());
    options.scale = 2.0;
    QCOMPARE(exportImage(r, ViewOptions{}, options, pngPath), QString());
    QFile file(svgPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const std::vector<EmbeddedMap> maps = embeddedMaps(file.readAll());
    const QImage png = QImage(pngPath).convertToFormat(QImage::Format_ARGB32);
    QCOMPARE(maps.size(), std::size_t{3});
    QCOMPARE(png.width(), 3200);

    QCPColorGradient gradient = makeGradient(Colormap::viridis);  // color() is not const
    const QRgb grey = maskedColor(Colormap::viridis).rgba();
    const std::int64_t H = r.H, L = r.L, Sx = r.Sx;
    QCOMPARE(Sx, std::int64_t{10});
    for (std::size_t m = 0; m < maps.size(); ++m) {
      const EmbeddedMap& map = maps[m];
      for (std::int64_t q = 0; q < L; ++q) {
        for (std::int64_t k = 0; k < Sx; ++k) {
          // Batch element 0; the average is the mean over the heads.
          double w = 0;
          for (std::int64_t h = 0; h < H; ++h) {
            if (m == static_cast<std::size_t>(h) || m == static_cast<std::size_t>(H)) {
              w += r.weights.value((h * L + q) * Sx + k);
            }
          }
          if (m == static_cast<std::size_t>(H)) w /= static_cast<double>(H);
          const bool masked = std::isinf(mhaviz::derived_value(r, mhaviz::DerivedMap::mask, 0, 0, q,
                                                               k));  // causal: the same per head
          const QRgb colour = gradient.color(w, QCPRange(0, 1));
          const double fx = (static_cast<double>(k) + 0.5) / static_cast<double>(Sx);
          const double fy =
              (static_cast<double>(q) + 0.5) / static_cast<double>(L);  // query 0 on top
          const auto where =
              QStringLiteral("map %1 query %2 key %3 (weight %4)").arg(m).arg(q).arg(k).arg(w);
          const QRgb cell = map.cells.pixel(static_cast<int>(fx * map.cells.width()),
                                            static_cast<int>(fy * map.cells.height()));
          QVERIFY2(sameColour(cell, colour), qPrintable("SVG " + where + ": " + colourText(cell) +
                                                        " for " + colourText(colour)));
          const QRgb over = map.overlay.pixel(static_cast<int>(fx * map.overlay.width()),
                                              static_cast<int>(fy * map.overlay.height()));
          QVERIFY2(masked ? sameColour(over, grey) : qAlpha(over) == 0,
                   qPrintable("SVG overlay " + where + ": " + colourText(over)));
          const QRgb pixel =
              png.pixel(static_cast<int>(options.scale * (map.rect.x() + fx * map.rect.width())),
                        static_cast<int>(options.scale * (map.rect.y() + fy * map.rect.height())));
          QVERIFY2(sameColour(pixel, masked ? grey : colour),
                   qPrintable("PNG " + where + ": " + colourText(pixel) + " for " +
                              colourText(masked ? grey : colour)));
        }
      }
    }
  }

  void writesPdf() {
    QTemporaryDir dir;
    const auto r = computeResult(exportConfig());
    const QString path = dir.filePath("weights.pdf");
    QCOMPARE(exportImage(r, ViewOptions{}, ExportOptions{}, path), QString());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray pdf = file.readAll();
    QVERIFY(pdf.startsWith("%PDF"));
    QVERIFY(pdf.contains("/Page"));
  }

  // A save is atomic: the new picture replaces the file in one rename, so a reader of the old
  // file (here a second hard link to it) keeps the whole old picture, nothing is left beside it,
  // and the file keeps its permissions. Writing into the file in place would fail all three.
  void replacesAnExistingFileInOneRename() {
    QTemporaryDir dir;
    const auto r = computeResult(exportConfig());
    const QString path = dir.filePath("weights.png");
    const QString link = dir.filePath("old-weights.png");
    {
      QFile old(path);
      QVERIFY(old.open(QIODevice::WriteOnly));
      old.write("the previous picture");
    }
    QCOMPARE(::chmod(QFile::encodeName(path).constData(), 0640), 0);
    QCOMPARE(::link(QFile::encodeName(path).constData(), QFile::encodeName(link).constData()), 0);
    QCOMPARE(exportImage(r, ViewOptions{}, ExportOptions{}, path), QString());
    QCOMPARE(QImage(path).size(), QSize(1600, 1000));
    QFile kept(link);
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), QByteArray("the previous picture"));
    struct stat st {};
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
    QCOMPARE(st.st_mode & 0777, 0640U);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2);  // the picture and the link
  }

  void reportsErrors() {
    QTemporaryDir dir;
    const auto r = computeResult(exportConfig());
    const QString missing =
        exportImage(r, ViewOptions{}, ExportOptions{}, dir.filePath("no/such/folder/x.png"));
    QVERIFY2(missing.contains("does not exist"), qPrintable(missing));
    const QString unknown = exportImage(r, ViewOptions{}, ExportOptions{}, dir.filePath("x.bmp"));
    QVERIFY2(unknown.contains(".png") && unknown.contains(".svg") && unknown.contains(".pdf"),
             qPrintable(unknown));
    // A path that cannot be opened for writing, by root either: a folder named like the picture
    // (EISDIR; a read-only file would not stop root). The system's reason is in the message.
    QVERIFY(QDir(dir.path()).mkdir("taken.png"));
    const QString taken = exportImage(r, ViewOptions{}, ExportOptions{}, dir.filePath("taken.png"));
    QVERIFY2(taken.startsWith("cannot write '" + dir.filePath("taken.png") + "': ") &&
                 taken.endsWith("; choose a writable location"),
             qPrintable(taken));
    QVERIFY(QFileInfo(dir.filePath("taken.png")).isDir());
    ViewOptions badBatch;
    badBatch.batch = 3;
    const QString batch = exportImage(r, badBatch, ExportOptions{}, dir.filePath("batch.png"));
    QVERIFY2(batch.contains("batch element 3"), qPrintable(batch));
  }
};

QTEST_MAIN(TestExport)
#include "test_export.moc"
