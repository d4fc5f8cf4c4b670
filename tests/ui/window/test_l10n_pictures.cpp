// Translated pictures: the heatmap grid, the torch path and exported images show Chinese titles
// and units while data exports stay English; the grid follows a dark palette, exports do not.

#include "test_l10n.hpp"

#include <qcustomplot.h>

#include <QApplication>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>
#include <algorithm>
#include <memory>

#include "../render/test_render_common.hpp"
#include "desktop/language.hpp"
#include "desktop/theme.hpp"
#include "exporting/data_export.hpp"
#include "render/heatmap_grid.hpp"
#include "render/image_export.hpp"
#include "render/result_maps.hpp"
#include "stages/stage_data.hpp"
#include "window/main_window.hpp"
#include "window/torch_path_text.hpp"

using mhaviz::ui::MainWindow;

namespace {

// Two heads, add_bias_kv and add_zero_attn, batch of 2: every kind of map title and column.
std::shared_ptr<const mhaviz::ForwardResult> smallResult() {
  mhaviz::Config c;
  c.embed_dim = 8;
  c.num_heads = 2;
  c.tgt_len = 4;
  c.src_len = 5;
  c.batch_size = 2;
  c.add_bias_kv = true;
  c.add_zero_attn = true;
  c.seed = 3;
  return std::make_shared<const mhaviz::ForwardResult>(mhaviz::ui::test::computeResult(c));
}

// Texts the grid's plot draws: the caption and map titles (text elements) and the colour
// scale's label.
QStringList plotTexts(QCustomPlot* plot) {
  QStringList texts;
  for (const QCPTextElement* e : plot->findChildren<QCPTextElement*>()) texts << e->text();
  return texts;
}

QString scaleLabel(QCustomPlot* plot) {
  const QList<QCPColorScale*> scales = plot->findChildren<QCPColorScale*>();
  return scales.isEmpty() ? QString() : scales.first()->axis()->label();
}

bool hasChinese(const QString& text) {
  return std::any_of(text.begin(), text.end(),
                     [](QChar c) { return c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF; });
}

// The texts of an SVG written by QSvgGenerator: one string per group, since a line that mixes
// scripts ("头 0") is written as several <text> runs (one per font) in the same <g>.
QStringList svgTexts(const QByteArray& svg) {
  QStringList texts;
  QXmlStreamReader xml(svg);
  QString current;
  while (!xml.atEnd()) {
    const auto token = xml.readNext();
    if (token == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text")) {
      current += xml.readElementText();
    } else if ((token == QXmlStreamReader::EndElement || token == QXmlStreamReader::StartElement) &&
               xml.name() == QLatin1String("g")) {
      if (!current.isEmpty()) texts << current;
      current.clear();
    }
  }
  if (!current.isEmpty()) texts << current;
  return texts;
}

}  // namespace

// The map titles, the legend's unit and the hover text are shown to people: Chinese.
void TestL10n::gridShowsTranslatedTitlesAndUnits() {
  QVERIFY(mhaviz::ui::installTranslations(QLocale(QStringLiteral("zh_CN"))));
  mhaviz::ui::HeatmapGrid grid;
  grid.resize(900, 600);
  mhaviz::ui::ViewOptions view;
  showResult(grid, smallResult(), view);
  QCOMPARE(grid.mapTitles(), (QStringList{QStringLiteral("头 0"), QStringLiteral("头 1"),
                                          QStringLiteral("各头平均")}));
  const QStringList texts = plotTexts(grid.plot());
  QVERIFY2(texts.contains(QStringLiteral("头 1")), qPrintable(texts.join(QLatin1Char('|'))));
  QVERIFY2(texts.contains(QStringLiteral("各头平均")), qPrintable(texts.join(QLatin1Char('|'))));
  QCOMPARE(scaleLabel(grid.plot()), QStringLiteral("权重"));

  // The hover text (tooltip and status bar) of head 0, query 0, the bias_k column.
  QSignalSpy hovered(&grid, &mhaviz::ui::HeatmapGrid::cellHovered);
  grid.plot()->replot();
  auto* rect = grid.plot()->plottable(0)->keyAxis()->axisRect();
  const QPoint p(static_cast<int>(rect->axis(QCPAxis::atBottom)->coordToPixel(5)),
                 static_cast<int>(rect->axis(QCPAxis::atLeft)->coordToPixel(3)));
  QMouseEvent move(QEvent::MouseMove, p, grid.plot()->mapToGlobal(p), Qt::NoButton, Qt::NoButton,
                   Qt::NoModifier);
  QApplication::sendEvent(grid.plot(), &move);
  QCOMPARE(hovered.count(), 1);
  const QString description = hovered.at(0).at(4).toString();
  QVERIFY2(description.startsWith(QStringLiteral(
               "头 0 \u00b7 查询 0 \u00b7 键 bias_k（由 add_bias_kv 追加） \u00b7 权重 ")),
           qPrintable(description));

  view.stage = mhaviz::ui::Stage::mask;
  showView(grid, view);
  QCOMPARE(scaleLabel(grid.plot()), QStringLiteral("掩码项"));
  view.stage = mhaviz::ui::Stage::output;
  showView(grid, view);
  QCOMPARE(grid.mapTitles(), QStringList{QStringLiteral("out_proj 输出")});
  QCOMPARE(scaleLabel(grid.plot()), QStringLiteral("输出"));
  view.stage = mhaviz::ui::Stage::in_proj_weight;
  showView(grid, view);
  QCOMPARE(grid.mapTitles().first(), QStringLiteral("W_q = in_proj_weight 第 0-3 行（头 0）"));
  QCOMPARE(scaleLabel(grid.plot()), QStringLiteral("权重元素"));

  // The English data titles are unchanged underneath.
  QCOMPARE(grid.stageData().maps.front().title,
           QStringLiteral("W_q = in_proj_weight rows 0-3 (head 0)"));

  view.stage = mhaviz::ui::Stage::weights;
  view.batch = 5;  // does not exist: the grid says so, in Chinese
  showView(grid, view);
  QCOMPARE(grid.mapCount(), 0);
  QVERIFY2(grid.message().startsWith(QStringLiteral("批次元素 5 不存在")),
           qPrintable(grid.message()));
}

// An exported picture's title, map titles and unit are in the UI language.
// Issue 39: the path PyTorch 2.x takes is named in the window's language: every reason and
// warning the core can give has a translation (the core's English stays the CLI's).
void TestL10n::torchPathIsTranslated() {
  using mhaviz::NotFast;
  QVERIFY(mhaviz::ui::installTranslations(QLocale(QStringLiteral("zh_CN"))));
  mhaviz::Config config;
  mhaviz::PathDecision fast;
  fast.path = mhaviz::TorchPath::fast;
  const QString fastText = mhaviz::ui::TorchPathText::reason(fast, config);
  QVERIFY2(!fastText.contains(QStringLiteral("would take")), qPrintable(fastText));
  QVERIFY(fastText.contains(QStringLiteral("no_grad")));
  for (int k = int(NotFast::not_batched); k <= int(NotFast::no_bias); ++k) {
    const auto why = static_cast<NotFast>(k);
    const QString english = QString::fromLatin1(mhaviz::to_string(why));
    const QString text = mhaviz::ui::TorchPathText::notFast(why);
    QVERIFY2(!text.isEmpty(), qPrintable(english));
    // Python spellings (add_bias_kv, batch_first=False) stay; words are translated.
    if (english.contains(QLatin1Char(' ')) || english == QLatin1String("training")) {
      QVERIFY2(text != english, qPrintable(english));
    }
  }
  mhaviz::PathDecision sdpa;
  sdpa.path = mhaviz::TorchPath::sdpa;
  sdpa.not_fast = NotFast::training;
  sdpa.attn_mask_dropped = true;
  sdpa.causal_hint_wrong = true;
  config.add_bias_kv = true;
  const QStringList warnings = mhaviz::ui::TorchPathText::warnings(sdpa, config);
  QCOMPARE(warnings.size(), 2);
  for (const QString& w : warnings) {
    QVERIFY2(!w.contains(QStringLiteral("PyTorch's")), qPrintable(w));
  }
  QVERIFY(!mhaviz::ui::TorchPathText::reason(sdpa, config).contains(QStringLiteral("training")));
  QVERIFY(!mhaviz::ui::installTranslations(QLocale(QStringLiteral("en_US"))));  // English
  QCOMPARE(mhaviz::ui::TorchPathText::reason(sdpa, config),
           QStringLiteral("PyTorch would take the SDPA path (scaled_dot_product_attention): "
                          "need_weights=False, and not the fast path: training"));
}

void TestL10n::exportedImageIsTranslated() {
  QVERIFY(mhaviz::ui::installTranslations(QLocale(QStringLiteral("zh_CN"))));
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("weights.svg"));
  mhaviz::ui::ViewOptions view;
  view.batch = 1;
  const auto result = smallResult();
  const QString error = mhaviz::ui::exportImage(*result, view, {}, path);
  QVERIFY2(error.isEmpty(), qPrintable(error));
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QByteArray svg = file.readAll();
  const QStringList texts = svgTexts(svg);
  const QString all = texts.join(QLatin1Char('|'));
  for (const QString& text :
       {QStringLiteral("头 0"), QStringLiteral("头 1"), QStringLiteral("各头平均"),
        QStringLiteral("权重"), QStringLiteral("键"), QStringLiteral("查询")}) {
    QVERIFY2(texts.contains(text), qPrintable(text + QStringLiteral(" not in ") + all));
  }
  // The caption: the configuration, then the batch element and the stage in Chinese.
  QVERIFY2(std::any_of(texts.begin(), texts.end(),
                       [](const QString& t) {
                         return t.startsWith(QStringLiteral("L=4 S=5 N=2 E=8 H=2")) &&
                                t.endsWith(QStringLiteral("，批次 1 \u2014 权重"));
                       }),
           qPrintable(all));
  QVERIFY(!all.contains(QStringLiteral("average over heads")));
  QVERIFY(!all.contains(QStringLiteral("batch 1")));
  // The extra keys keep PyTorch's names.
  QVERIFY(texts.contains(QStringLiteral("bias_k")) && texts.contains(QStringLiteral("zero")));
}

// CSV headers, map names and file names are data: the same in every UI language.
void TestL10n::dataExportStaysEnglish() {
  QVERIFY(mhaviz::ui::installTranslations(QLocale(QStringLiteral("zh_CN"))));
  const auto result = smallResult();
  mhaviz::ui::ViewOptions view;
  const QString csv = mhaviz::ui::stageCsv(mhaviz::ui::extractStage(*result, view));
  QVERIFY(csv.startsWith(QStringLiteral("map,row,column,value\n")));
  QVERIFY(csv.contains(QStringLiteral("\nhead 1,0,bias_k,")));
  QVERIFY(csv.contains(QStringLiteral("\naverage over heads,3,zero,")));
  QVERIFY2(!hasChinese(csv), "CSV export must not depend on the UI language");
  QCOMPARE(mhaviz::ui::headFileName(mhaviz::ui::Stage::weights_before_dropout, 1, 0,
                                    QStringLiteral("png")),
           QStringLiteral("weights_before_dropout_head1_batch0.png"));

  // Export all heads: English file names, Chinese titles inside.
  QTemporaryDir dir;
  const QStringList written =
      mhaviz::ui::exportAllHeads(*result, view, {}, dir.path(), QStringLiteral("svg"));
  QCOMPARE(written.size(), 2);
  QCOMPARE(QFileInfo(written.at(1)).fileName(), QStringLiteral("weights_head1_batch0.svg"));
  QFile file(written.at(1));
  QVERIFY(file.open(QIODevice::ReadOnly));
  QVERIFY(QString::fromUtf8(file.readAll()).contains(QStringLiteral("，权重，头 1")));
}

// In the window the grid takes the palette's colours (dark theme: dark background, light
// text); exported images keep their white background and black text whatever the theme.
void TestL10n::gridFollowsThePaletteExportDoesNot() {
  const QPalette dark = mhaviz::ui::darkPalette();
  mhaviz::ui::HeatmapGrid grid;
  grid.resize(700, 500);
  showResult(grid, smallResult(), {});
  grid.setPalette(dark);  // what applyTheme(dark) does through the application palette
  const QImage picture = grid.plot()->toPixmap(700, 500).toImage();
  QCOMPARE(picture.pixelColor(3, 3), dark.color(QPalette::Base));
  QCustomPlot* plot = grid.plot();
  auto* rect = plot->plottable(0)->keyAxis()->axisRect();
  QCOMPARE(rect->axis(QCPAxis::atLeft)->tickLabelColor(), dark.color(QPalette::Text));
  QCOMPARE(rect->axis(QCPAxis::atBottom)->basePen().color(), dark.color(QPalette::Text));
  const QList<QCPTextElement*> texts = plot->findChildren<QCPTextElement*>();
  QVERIFY(!texts.isEmpty());
  for (const QCPTextElement* t : texts) {
    QVERIFY2(t->textColor().lightnessF() > 0.5, qPrintable(t->text()));
  }
  QCOMPARE(plot->findChildren<QCPColorScale*>().first()->axis()->labelColor(),
           dark.color(QPalette::Text));

  // Back to a light palette: the grid follows again.
  grid.setPalette(QApplication::style()->standardPalette());
  const QImage light = grid.plot()->toPixmap(700, 500).toImage();
  QVERIFY(light.pixelColor(3, 3).lightnessF() > 0.9);

  // Export under the dark theme: a white picture with black text, as before.
  mhaviz::ui::applyTheme(mhaviz::ui::ThemeChoice::dark);
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("dark.png"));
  mhaviz::ui::ExportOptions options;
  options.width = 800;
  options.height = 500;
  options.scale = 1;
  const auto result = smallResult();
  QCOMPARE(mhaviz::ui::exportImage(*result, {}, options, path), QString());
  const QImage png(path);
  QCOMPARE(png.size(), QSize(800, 500));
  QCOMPARE(png.pixelColor(2, 2), QColor(Qt::white));
}
