// The export dialog and data exports (QtTest, offscreen): PNG/SVG/PDF through the dialog,
// export-all-heads file names, CSV and npz round trips.

#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <cmath>
#include <memory>

#include "exporting/data_export.hpp"
#include "exporting/export_dialog.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/io/result_tensors.hpp"
#include "stages/stage_data.hpp"
#include "../render/test_render_common.hpp"

using namespace mhaviz::ui;

namespace {

mhaviz::Config dialogConfig() {
  mhaviz::Config c;
  c.embed_dim = 18;
  c.num_heads = 3;
  c.tgt_len = 6;
  c.src_len = 5;
  c.batch_size = 2;
  c.add_zero_attn = true;
  return c;
}

ResultPtr makeResult() {
  return std::make_shared<const mhaviz::ForwardResult>(
      mhaviz::ui::test::computeResult(dialogConfig(), /*causal=*/false));
}

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Splits one CSV line (fields quoted with "" escapes).
QStringList csvFields(const QString& line) {
  QStringList fields;
  QString field;
  bool quoted = false;
  for (int i = 0; i < line.size(); ++i) {
    const QChar ch = line[i];
    if (quoted) {
      if (ch == u'"' && i + 1 < line.size() && line[i + 1] == u'"') {
        field += u'"';
        ++i;
      } else if (ch == u'"') {
        quoted = false;
      } else {
        field += ch;
      }
    } else if (ch == u'"') {
      quoted = true;
    } else if (ch == u',') {
      fields << field;
      field.clear();
    } else {
      field += ch;
    }
  }
  fields << field;
  return fields;
}

}  // namespace

class TestExportDialog : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // QSettings go to a test location
    QCoreApplication::setOrganizationName(QStringLiteral("mhaviz-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("mhaviz-export-dialog-tests"));
    QSettings().clear();
  }

  // Issue 15 item 9: switching the stage kept the old name (weights_… for V).
  void suggestedNameFollowsTheStage() {
    ViewOptions view;
    view.stage = Stage::weights;
    ExportDialog dialog(makeResult(), view);
    QVERIFY2(QFileInfo(dialog.path()).fileName().startsWith(QStringLiteral("weights")),
             qPrintable(dialog.path()));
    dialog.setStage(Stage::v);
    QCOMPARE(QFileInfo(dialog.path()).fileName(), dialog.suggestedFileName());
    QVERIFY2(!dialog.path().contains(QStringLiteral("weights")), qPrintable(dialog.path()));
    dialog.setHead(2);
    QCOMPARE(QFileInfo(dialog.path()).fileName(), dialog.suggestedFileName());
    QVERIFY(dialog.path().contains(QStringLiteral("head2")));
    dialog.setFormat(QStringLiteral("svg"));
    QVERIFY(dialog.path().endsWith(QStringLiteral(".svg")));
  }

  // Issue 40 defect 10: switching the picture (grid, head view, text view) kept the name of
  // the one chosen before; and a token view's announced size is the file's (its own height).
  void suggestedNameAndSizeFollowThePicture() {
    QSettings().clear();
    const auto picture = [](const char* name, const char* base, QSize file) {
      ExportPicture p;
      p.name = QString::fromLatin1(name);
      p.fileBase = QString::fromLatin1(base);
      p.size = [] { return QSize(500, 400); };
      p.write = [](const QString&, const ExportOptions&) { return QString(); };
      p.fileSize = [file](const ExportOptions& o) { return QSize(o.width, file.height()); };
      return p;
    };
    ExportDialog dialog(makeResult(), ViewOptions{}, nullptr,
                        {picture("Head view", "head_view", {500, 260}),
                         picture("Text view", "text_view", {500, 90})},
                        -1);
    const auto name = [&] { return QFileInfo(dialog.path()).fileName(); };
    QVERIFY2(!name().contains(QStringLiteral("view")), qPrintable(name()));
    const auto note = [&] {
      QStringList texts;
      for (QLabel* l : dialog.findChildren<QLabel*>()) texts << l->text();
      return texts.join(QLatin1Char('|'));
    };
    dialog.setPicture(0);
    QVERIFY2(name().startsWith(QStringLiteral("head_view")), qPrintable(name()));
    dialog.setScale(2);
    QVERIFY2(note().contains(QStringLiteral("1000 × 520 px")), qPrintable(note()));
    dialog.setPicture(1);
    QVERIFY2(name().startsWith(QStringLiteral("text_view")), qPrintable(name()));
    QVERIFY2(note().contains(QStringLiteral("1000 × 180 px")), qPrintable(note()));
    dialog.setPicture(-1);
    QCOMPARE(name(), dialog.suggestedFileName());
    QVERIFY2(!name().contains(QStringLiteral("view")), qPrintable(name()));
  }

  void aNameOfTheUsersOwnStays() {
    ExportDialog dialog(makeResult(), ViewOptions{});
    const QString mine = QDir(QDir::tempPath()).filePath(QStringLiteral("lecture3.png"));
    dialog.setPath(mine);
    dialog.setStage(Stage::scores);
    QCOMPARE(dialog.path(), mine);
    dialog.setFormat(QStringLiteral("pdf"));  // only the extension follows the format
    QCOMPARE(QFileInfo(dialog.path()).fileName(), QStringLiteral("lecture3.pdf"));
  }

  void remembersFolderAndFormatBetweenOpenings() {
    QSettings().clear();
    QTemporaryDir dir;
    {
      ExportDialog first(makeResult(), ViewOptions{});
      first.setFormat(QStringLiteral("svg"));
      QCOMPARE(first.exportTo(dir.filePath(QStringLiteral("grid.svg"))), QString());
    }
    ExportDialog second(makeResult(), ViewOptions{});
    QCOMPARE(second.extension(), QStringLiteral("svg"));
    QCOMPARE(QFileInfo(second.path()).absolutePath(), QFileInfo(dir.path()).absoluteFilePath());
    QCOMPARE(QFileInfo(second.path()).fileName(), second.suggestedFileName());
    QVERIFY(second.path().endsWith(QStringLiteral(".svg")));
    QSettings().clear();
  }

  // Issue 28 item 13: the dialog forgot the name typed for the last export.
  void remembersANameOfTheUsersOwn() {
    QSettings().clear();
    QTemporaryDir dir;
    {
      ExportDialog first(makeResult(), ViewOptions{});
      first.setPath(dir.filePath(QStringLiteral("lecture3.png")));
      QCOMPARE(first.exportTo(first.path()), QString());
    }
    {
      ExportDialog second(makeResult(), ViewOptions{});
      QCOMPARE(QFileInfo(second.path()).fileName(), QStringLiteral("lecture3.png"));
      second.setStage(Stage::scores);  // their own name stays when the stage changes
      QCOMPARE(QFileInfo(second.path()).fileName(), QStringLiteral("lecture3.png"));
      second.setFormat(QStringLiteral("svg"));
      QCOMPARE(QFileInfo(second.path()).fileName(), QStringLiteral("lecture3.svg"));
      // An export under the suggested name goes back to suggesting names.
      const QString suggested = dir.filePath(second.suggestedFileName());
      second.setPath(suggested);
      QCOMPARE(second.exportTo(suggested), QString());
    }
    ExportDialog third(makeResult(), ViewOptions{});
    QCOMPARE(QFileInfo(third.path()).fileName(), third.suggestedFileName());
    QSettings().clear();
  }

  // The size fields said px while the note beside them said points: one unit, and the true
  // one (PNG: logical pixels times the DPI scale; SVG and PDF: points).
  void sizeUnitsAgreeWithTheNote() {
    ExportDialog dialog(makeResult(), ViewOptions{});
    auto* width = dialog.widthBox();
    auto* height = dialog.heightBox();
    QVERIFY(width && height);
    const auto noteText = [&] {
      QStringList texts;
      for (QLabel* l : dialog.findChildren<QLabel*>()) texts << l->text();
      return texts.join(QLatin1Char('|'));
    };
    dialog.setFormat(QStringLiteral("png"));
    QCOMPARE(width->suffix(), QStringLiteral(" px"));
    QCOMPARE(height->suffix(), QStringLiteral(" px"));
    QVERIFY2(!noteText().contains(QStringLiteral("point")), qPrintable(noteText()));
    for (const char* ext : {"svg", "pdf"}) {
      dialog.setFormat(QString::fromLatin1(ext));
      QCOMPARE(width->suffix(), QStringLiteral(" pt"));
      QCOMPARE(height->suffix(), QStringLiteral(" pt"));
      QVERIFY2(!noteText().contains(QStringLiteral("px")), qPrintable(noteText()));
      QVERIFY2(noteText().contains(QStringLiteral("1600 × 1000 pt")), qPrintable(noteText()));
    }
  }

  void pngAtTheChosenSize() {
    QTemporaryDir dir;
    const ResultPtr r = makeResult();
    ExportDialog dialog(r, ViewOptions{});
    dialog.setFormat(QStringLiteral("png"));
    dialog.setPixelSize(700, 400);
    dialog.setScale(2.0);
    const QString path = dir.filePath(QStringLiteral("grid.png"));
    QCOMPARE(dialog.exportTo(path), QString());
    const QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.width(), 1400);
    QCOMPARE(image.height(), 800);
    // Heads are drawn: many distinct colours, not a blank page.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7) {
      for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
    }
    QVERIFY2(colours.size() > 30, qPrintable(QString::number(colours.size())));
    QVERIFY(dialog.defaultTitle().startsWith(describeConfig(r->config, 0)));
  }

  void svgParsesAndNamesTheHeads() {
    QTemporaryDir dir;
    ExportDialog dialog(makeResult(), ViewOptions{});
    dialog.setFormat(QStringLiteral("svg"));
    dialog.setStage(Stage::scores);
    const QString path = dir.filePath(QStringLiteral("grid.svg"));
    QCOMPARE(dialog.exportTo(path), QString());
    const QByteArray svg = readAll(path);
    QXmlStreamReader xml(svg);
    while (!xml.atEnd()) xml.readNext();
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(QSvgRenderer(svg).isValid());
    for (const char* head : {"head 0", "head 1", "head 2"}) QVERIFY2(svg.contains(head), head);
    QVERIFY(svg.contains("scores"));  // the default title names the stage
  }

  void pdfHasAPage() {
    QTemporaryDir dir;
    ExportDialog dialog(makeResult(), ViewOptions{});
    dialog.setFormat(QStringLiteral("pdf"));
    dialog.setHead(1);
    QVERIFY(dialog.exportView().soloHead == 1);
    const QString path = dir.filePath(QStringLiteral("head1.pdf"));
    QCOMPARE(dialog.exportTo(path), QString());
    const QByteArray pdf = readAll(path);
    QVERIFY(pdf.startsWith("%PDF"));
    QVERIFY(pdf.contains("/Type /Page") || pdf.contains("/Type/Page"));
    QVERIFY(pdf.size() > 2000);
  }

  void exportAllHeadsNamesEachFile() {
    QTemporaryDir dir;
    ViewOptions view;
    view.batch = 1;
    ExportDialog dialog(makeResult(), view);
    dialog.setFormat(QStringLiteral("png"));
    dialog.setPixelSize(400, 300);
    dialog.setScale(1.0);
    QString error;
    const QString folder = dir.filePath(QStringLiteral("heads"));
    const QStringList files = dialog.exportAllHeadsTo(folder, &error);
    QCOMPARE(error, QString());
    QCOMPARE(files.size(), 3);
    QStringList names = QDir(folder).entryList(QDir::Files, QDir::Name);
    QCOMPARE(names, (QStringList{"weights_head0_batch1.png", "weights_head1_batch1.png",
                                 "weights_head2_batch1.png"}));
    QCOMPARE(QImage(files.front()).width(), 400);
    QCOMPARE(headFileName(Stage::raw_scores, 2, 0, QStringLiteral("svg")),
             QStringLiteral("raw_scores_head2_batch0.svg"));
  }

  void csvRoundTrip() {
    QTemporaryDir dir;
    const ResultPtr r = makeResult();
    ViewOptions view;
    view.stage = Stage::scores;  // holds -inf nowhere here, but signed values
    view.batch = 1;
    const QString path = dir.filePath(QStringLiteral("scores.csv"));
    writeStageCsv(*r, view, path);
    const StageData data = extractStage(*r, view);
    const QStringList lines = QString::fromUtf8(readAll(path)).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.front(), QStringLiteral("map,row,column,value"));
    std::size_t cells = 0;
    for (const MapData& m : data.maps) cells += m.values.size();
    QCOMPARE(static_cast<std::size_t>(lines.size() - 1), cells);
    int line = 1;
    for (const MapData& m : data.maps) {
      for (int row = 0; row < m.rows; ++row) {
        for (int col = 0; col < m.cols; ++col, ++line) {
          const QStringList f = csvFields(lines[line]);
          QCOMPARE(f.size(), 4);
          QCOMPARE(f[0], m.title);
          QCOMPARE(f[1].toInt(), row);
          QCOMPARE(f[2], m.columns.empty() ? QString::number(col)
                                           : m.columns[static_cast<std::size_t>(col)].label);
          const double expected = m.values[static_cast<std::size_t>(row * m.cols + col)];
          QCOMPARE(f[3].toDouble(), expected);  // written round-trip: exactly equal
        }
      }
    }
    QVERIFY(QString::fromUtf8(readAll(path)).contains(QStringLiteral("zero")));
  }

  void npzRoundTripHasTheCliNames() {
    QTemporaryDir dir;
    const ResultPtr r = makeResult();
    const QString path = dir.filePath(QStringLiteral("all.npz"));
    writeResultNpz(*r, path);
    // Stored like numpy.savez, at disk speed: the first local header's method (bytes 8-9) is 0.
    const QByteArray zip = readAll(path);
    QVERIFY(zip.startsWith("PK\x03\x04"));
    QCOMPARE(static_cast<int>(zip[8]) | static_cast<int>(zip[9]) << 8, 0);
    const mhaviz::io::TensorMap back = mhaviz::io::read_npz(path.toStdString());
    const mhaviz::io::TensorMap expected = mhaviz::io::result_tensors(*r);
    QCOMPARE(back.size(), expected.size());
    for (const auto& [name, tensor] : expected) {
      QVERIFY2(back.count(name) == 1, name.c_str());
      const mhaviz::Tensor& t = back.at(name);
      QVERIFY(t.shape() == tensor.shape());
      QVERIFY(t.type() == tensor.type());
      QCOMPARE(t.bytes().size(), tensor.bytes().size());
      QVERIFY2(std::equal(t.bytes().begin(), t.bytes().end(), tensor.bytes().begin()),
               name.c_str());
    }
    QVERIFY(back.count("weights_per_head") == 1 && back.count("attn_output") == 1);
  }
};

QTEST_MAIN(TestExportDialog)
#include "test_export_dialog.moc"
