// Image export (PNG/SVG/PDF) through the same HeatmapGrid as the window (QtTest, offscreen).

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include "test_render_common.hpp"
#include "ui/render/image_export.hpp"

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
