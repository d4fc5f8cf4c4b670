// Localisation and desktop conventions: the zh_CN translation loads and shows in the window,
// English is the fallback, the language follows the (default) locale unless View > Language
// overrides it, the theme menu switches palettes, the .ts is complete and the .desktop is valid.
// The heatmap grid and exported images show Chinese titles and units while data exports (CSV,
// file names) stay English; session file errors are translated; the grid follows a dark palette
// while exported images keep their own background.

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QFile>
#include <QGroupBox>
#include <QHash>
#include <QIcon>
#include <QLibraryInfo>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QXmlStreamReader>
#include <algorithm>
#include <functional>
#include <memory>

#include "../render/test_render_common.hpp"
#include "desktop/desktop_setup.hpp"
#include "desktop/language.hpp"
#include "desktop/theme.hpp"
#include "exporting/data_export.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "render/heatmap_grid.hpp"
#include "render/image_export.hpp"
#include "render/result_maps.hpp"
#include "session/session_file.hpp"
#include "stages/stage_data.hpp"
#include "window/main_window.hpp"
#include "window/torch_path_text.hpp"

using mhaviz::ui::MainWindow;

namespace {

QString fileMenuTitle(const MainWindow& window) {
  const QList<QAction*> actions = window.menuBar()->actions();
  return actions.isEmpty() ? QString() : actions.first()->text();
}

QStringList groupTitles(const MainWindow& window) {
  QStringList titles;
  for (const QGroupBox* box : window.findChildren<QGroupBox*>()) titles << box->title();
  return titles;
}

QAction* menuAction(const MainWindow& window, const QString& menuName, const QVariant& data) {
  auto* menu = window.findChild<QMenu*>(menuName);
  if (menu == nullptr) return nullptr;
  for (QAction* a : menu->actions()) {
    if (a->isCheckable() && a->data() == data) return a;
  }
  return nullptr;
}

// The placeholders %1..%99 a string uses, so translations can be checked against sources.
QSet<QString> placeholders(const QString& text) {
  static const QRegularExpression re(QStringLiteral("%(\\d+|n)"));
  QSet<QString> found;
  for (auto it = re.globalMatch(text); it.hasNext();) found.insert(it.next().captured(0));
  return found;
}

// Parses a .desktop file's [Desktop Entry] group into key -> value.
QHash<QString, QString> desktopEntry(const QString& path) {
  QHash<QString, QString> entry;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return entry;
  QString group;
  while (!file.atEnd()) {
    const QString line = QString::fromUtf8(file.readLine()).trimmed();
    if (line.isEmpty() || line.startsWith(QLatin1Char('#'))) continue;
    if (line.startsWith(QLatin1Char('['))) {
      group = line;
      continue;
    }
    const qsizetype eq = line.indexOf(QLatin1Char('='));
    if (group == QLatin1String("[Desktop Entry]") && eq > 0) {
      entry.insert(line.left(eq).trimmed(), line.mid(eq + 1).trimmed());
    }
  }
  return entry;
}

const QString kSourceDir = QStringLiteral(MHAVIZ_SOURCE_DIR);

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

QString invalidInputMessage(const std::function<void()>& f) {
  try {
    f();
  } catch (const mhaviz::InvalidInput& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

}  // namespace

class TestL10n : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // QSettings go to a test location
    QCoreApplication::setOrganizationName(QStringLiteral("mhaviz-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("mhaviz-l10n-tests"));
    m_systemLocale = QLocale();
    mhaviz::ui::captureSystemTheme();
  }

  void init() { QSettings().clear(); }

  void cleanup() {
    QSettings().clear();
    QLocale::setDefault(m_systemLocale);
    mhaviz::ui::installTranslations(QLocale(QLocale::English, QLocale::UnitedStates));
    mhaviz::ui::applyTheme(mhaviz::ui::ThemeChoice::system);
  }

  void chineseWhenLocaleIsZhCN() {
    QVERIFY(mhaviz::ui::installTranslations(QLocale(QStringLiteral("zh_CN"))));
    QCOMPARE(mhaviz::ui::activeLanguage(), QStringLiteral("zh_CN"));
    MainWindow window;
    QCOMPARE(fileMenuTitle(window), QStringLiteral("文件(&F)"));
    QVERIFY(groupTitles(window).contains(QStringLiteral("尺寸")));
    // PyTorch's argument names stay as they are: they are code.
    QVERIFY(groupTitles(window).contains(QStringLiteral("模块")));
    auto* language = window.findChild<QMenu*>(QStringLiteral("languageMenu"));
    QVERIFY(language != nullptr);
    QCOMPARE(language->title(), QStringLiteral("语言(&L)"));
  }

  // Issue 15 item 12: Qt's own buttons stayed English. Qt's translations (qtbase_zh_CN.qm, from
  // the Debian package qt6-translations-l10n that scripts/install-deps installs) load with ours.
  void qtStandardButtonsAreChinese() {
    const QString qm =
        QLibraryInfo::path(QLibraryInfo::TranslationsPath) + QStringLiteral("/qtbase_zh_CN.qm");
    QVERIFY2(QFile::exists(qm),
             qPrintable(qm + QStringLiteral(" is missing: run scripts/install-deps "
                                            "(package qt6-translations-l10n)")));
    QVERIFY(mhaviz::ui::installTranslations(QLocale(QStringLiteral("zh_CN"))));
    QDialogButtonBox box(QDialogButtonBox::Save | QDialogButtonBox::Discard |
                         QDialogButtonBox::Cancel | QDialogButtonBox::Close);
    const QHash<QDialogButtonBox::StandardButton, QString> english = {
        {QDialogButtonBox::Save, QStringLiteral("Save")},
        {QDialogButtonBox::Discard, QStringLiteral("Discard")},
        {QDialogButtonBox::Cancel, QStringLiteral("Cancel")},
        {QDialogButtonBox::Close, QStringLiteral("Close")}};
    static const QRegularExpression han(QStringLiteral("\\p{Han}"));
    for (auto it = english.begin(); it != english.end(); ++it) {
      QPushButton* button = box.button(it.key());
      QVERIFY(button != nullptr);
      const QString text = button->text();
      QVERIFY2(!text.contains(it.value(), Qt::CaseInsensitive), qPrintable(text));
      QVERIFY2(text.contains(han), qPrintable(it.value() + QStringLiteral(" -> ") + text));
    }
    // And back: English again once the Chinese translators are removed.
    QVERIFY(!mhaviz::ui::installTranslations(QLocale(QStringLiteral("en_US"))));
    QDialogButtonBox englishBox(QDialogButtonBox::Save);
    QCOMPARE(englishBox.button(QDialogButtonBox::Save)->text(), QStringLiteral("Save"));
  }

  void englishWhenLocaleIsEnUS() {
    QVERIFY(!mhaviz::ui::installTranslations(QLocale(QStringLiteral("en_US"))));
    QCOMPARE(mhaviz::ui::activeLanguage(), QStringLiteral("en"));
    MainWindow window;
    QCOMPARE(fileMenuTitle(window), QStringLiteral("&File"));
    QVERIFY(groupTitles(window).contains(QStringLiteral("Sizes")));
    // The menus in the order desktop applications keep, Help last (Compare, added after Help
    // was, stood behind it).
    QStringList menus;
    for (const QAction* a : window.menuBar()->actions()) menus << a->text();
    QCOMPARE(menus, (QStringList{QStringLiteral("&File"), QStringLiteral("&Edit"),
                                 QStringLiteral("&View"), QStringLiteral("&Compute"),
                                 QStringLiteral("Co&mpare"), QStringLiteral("&Help")}));
  }

  void untranslatedLocaleFallsBackToEnglish() {
    QVERIFY(!mhaviz::ui::installTranslations(QLocale(QStringLiteral("de_DE"))));
    MainWindow window;
    QCOMPARE(fileMenuTitle(window), QStringLiteral("&File"));
  }

  void switchingBackRemovesTheTranslator() {
    QVERIFY(mhaviz::ui::installTranslations(QLocale(QStringLiteral("zh_CN"))));
    QVERIFY(!mhaviz::ui::installTranslations(QLocale(QStringLiteral("en_GB"))));
    QCOMPARE(QCoreApplication::translate("mhaviz::ui::MainWindow", "&File"),
             QStringLiteral("&File"));
  }

  void followsTheDefaultLocaleWithoutAChoice() {
    QLocale::setDefault(QLocale(QStringLiteral("zh_CN")));
    QVERIFY(mhaviz::ui::languageSetting().isEmpty());
    QCOMPARE(mhaviz::ui::uiLocale(mhaviz::ui::languageSetting()).name(), QStringLiteral("zh_CN"));
    QVERIFY(mhaviz::ui::installTranslations(mhaviz::ui::uiLocale(mhaviz::ui::languageSetting())));
    QCOMPARE(QCoreApplication::translate("mhaviz::ui::MainWindow", "&File"),
             QStringLiteral("文件(&F)"));
  }

  void storedChoiceOverridesTheLocale() {
    QLocale::setDefault(QLocale(QStringLiteral("zh_CN")));
    mhaviz::ui::setLanguageSetting(QStringLiteral("en"));
    QCOMPARE(QSettings().value(QStringLiteral("ui/language")).toString(), QStringLiteral("en"));
    QCOMPARE(mhaviz::ui::uiLocale(mhaviz::ui::languageSetting()).language(), QLocale::English);

    QLocale::setDefault(QLocale(QStringLiteral("en_US")));
    mhaviz::ui::setLanguageSetting(QStringLiteral("zh_CN"));
    QCOMPARE(mhaviz::ui::uiLocale(mhaviz::ui::languageSetting()).name(), QStringLiteral("zh_CN"));

    // An unknown stored value (hand-edited or from a newer version) means "follow the system".
    QSettings().setValue(QStringLiteral("ui/language"), QStringLiteral("xx_YY"));
    QVERIFY(mhaviz::ui::languageSetting().isEmpty());
    mhaviz::ui::setLanguageSetting(QString());
    QVERIFY(!QSettings().contains(QStringLiteral("ui/language")));
  }

  // Run once as is and once by the ctest entry mhaviz-l10n-system-zh with LC_ALL=zh_CN.UTF-8:
  // the process environment decides what the system locale, and so the UI language, must be.
  void followsTheSystemLocaleFromTheEnvironment() {
    QString env = qEnvironmentVariable("LC_ALL");
    if (env.isEmpty()) env = qEnvironmentVariable("LC_MESSAGES");
    if (env.isEmpty()) env = qEnvironmentVariable("LANG");
    const bool chinese = env.startsWith(QLatin1String("zh_CN"));
    if (chinese) QCOMPARE(QLocale::system().name(), QStringLiteral("zh_CN"));
    QCOMPARE(mhaviz::ui::installTranslations(mhaviz::ui::uiLocale(QString(), QLocale::system())),
             chinese);
    MainWindow window;
    QCOMPARE(fileMenuTitle(window), chinese ? QStringLiteral("文件(&F)") : QStringLiteral("&File"));
  }

  void languageMenuStoresTheChoice() {
    MainWindow window;
    QAction* chinese = menuAction(window, QStringLiteral("languageMenu"), QStringLiteral("zh_CN"));
    QAction* system = menuAction(window, QStringLiteral("languageMenu"), QString());
    QVERIFY(chinese != nullptr && system != nullptr);
    QVERIFY(system->isChecked());
    QCOMPARE(chinese->text(), QStringLiteral("简体中文"));
    // The choice is confirmed in a modal message; close it as soon as it shows.
    QTimer closer;
    connect(&closer, &QTimer::timeout, [] {
      if (QWidget* modal = QApplication::activeModalWidget()) modal->close();
    });
    closer.start(20);
    chinese->trigger();
    closer.stop();
    QVERIFY(chinese->isChecked());
    QCOMPARE(mhaviz::ui::languageSetting(), QStringLiteral("zh_CN"));
  }

  void themeMenuSwitchesPalettes() {
    const QPalette systemPalette = QApplication::palette();
    MainWindow window;
    QAction* dark = menuAction(window, QStringLiteral("themeMenu"), QStringLiteral("dark"));
    QAction* light = menuAction(window, QStringLiteral("themeMenu"), QStringLiteral("light"));
    QAction* system = menuAction(window, QStringLiteral("themeMenu"), QStringLiteral("system"));
    QVERIFY(dark != nullptr && light != nullptr && system != nullptr);
    QVERIFY(system->isChecked());

    dark->trigger();
    QVERIFY(mhaviz::ui::isDarkPalette(QApplication::palette()));
    QTRY_VERIFY(mhaviz::ui::isDarkPalette(window.palette()));  // propagated by an event
    QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
    QVERIFY(mhaviz::ui::themeSetting() == mhaviz::ui::ThemeChoice::dark);

    light->trigger();
    QVERIFY(!mhaviz::ui::isDarkPalette(QApplication::palette()));
    QCOMPARE(QSettings().value(QStringLiteral("ui/theme")).toString(), QStringLiteral("light"));

    system->trigger();
    QCOMPARE(QApplication::palette().color(QPalette::Window),
             systemPalette.color(QPalette::Window));
    QVERIFY(!QSettings().contains(QStringLiteral("ui/theme")));
  }

  void darkPaletteIsReadable() {
    const QPalette p = mhaviz::ui::darkPalette();
    QVERIFY(mhaviz::ui::isDarkPalette(p));
    QVERIFY(p.color(QPalette::WindowText).lightnessF() > 0.8);
    QVERIFY(p.color(QPalette::Text).lightnessF() - p.color(QPalette::Base).lightnessF() > 0.6);
  }

  // Every string of the committed .ts is translated and keeps its placeholders and accelerator.
  void translationIsComplete() {
    QFile ts(kSourceDir + QStringLiteral("/resources/translations/mhaviz_zh_CN.ts"));
    QVERIFY2(ts.open(QIODevice::ReadOnly), qPrintable(ts.fileName()));
    QXmlStreamReader xml(&ts);
    int messages = 0;
    QString source;
    while (!xml.atEnd()) {
      if (xml.readNext() != QXmlStreamReader::StartElement) continue;
      if (xml.name() == QLatin1String("source")) {
        source = xml.readElementText();
      } else if (xml.name() == QLatin1String("translation")) {
        const QString type = xml.attributes().value(QLatin1String("type")).toString();
        // Plural messages hold their forms in <numerusform> children.
        const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements);
        if (type == QLatin1String("obsolete") || type == QLatin1String("vanished")) continue;
        ++messages;
        QVERIFY2(type.isEmpty(), qPrintable(QStringLiteral("unfinished: ") + source));
        QVERIFY2(!text.isEmpty(), qPrintable(QStringLiteral("empty: ") + source));
        QVERIFY2(placeholders(text) == placeholders(source),
                 qPrintable(QStringLiteral("placeholders differ: ") + source));
        const bool accel = source.contains(QRegularExpression(QStringLiteral("&[A-Za-z]")));
        if (accel) QVERIFY2(text.contains(QLatin1Char('&')), qPrintable(source));
      }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(messages > 100);
    QVERIFY(QFile::exists(QStringLiteral(":/i18n/mhaviz_zh_CN.qm")));
  }

  // The map titles, the legend's unit and the hover text are shown to people: Chinese.
  void gridShowsTranslatedTitlesAndUnits() {
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
  void torchPathIsTranslated() {
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

  void exportedImageIsTranslated() {
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
  void dataExportStaysEnglish() {
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

  void sessionFileErrorsAreTranslated() {
    QVERIFY(mhaviz::ui::installTranslations(QLocale(QStringLiteral("zh_CN"))));
    const QString path = QStringLiteral("/tmp/x.mhaviz.json");
    const QString damaged = invalidInputMessage(
        [&] { (void)mhaviz::ui::parseSession("{\"format\": \"mhaviz-session\",", path); });
    QVERIFY2(damaged.startsWith(QStringLiteral("x.mhaviz.json 已损坏，无法打开：")),
             qPrintable(damaged));
    const QString future = invalidInputMessage([&] {
      (void)mhaviz::ui::parseSession(R"({"format": "mhaviz-session", "version": 99})", path);
    });
    QCOMPARE(future, QStringLiteral("x.mhaviz.json 由更新版本的 mhaviz 写入（格式版本 99；此 "
                                    "mhaviz 最高只能读取版本 %1）。请更新 mhaviz 后再打开。")
                         .arg(mhaviz::ui::kSessionFormatVersion));
    const QString missing = invalidInputMessage(
        [&] { (void)mhaviz::ui::readSession(QStringLiteral("/nonexistent/a.mhaviz.json")); });
    QVERIFY2(missing.startsWith(QStringLiteral("无法打开 /nonexistent/a.mhaviz.json：")),
             qPrintable(missing));

    // And English without the translator.
    QVERIFY(!mhaviz::ui::installTranslations(QLocale(QStringLiteral("en_US"))));
    const QString english = invalidInputMessage([&] {
      (void)mhaviz::ui::parseSession(R"({"format": "mhaviz-session", "version": 99})", path);
    });
    QVERIFY2(english.contains(QStringLiteral("was written by a newer mhaviz")),
             qPrintable(english));
  }

  // In the window the grid takes the palette's colours (dark theme: dark background, light
  // text); exported images keep their white background and black text whatever the theme.
  void gridFollowsThePaletteExportDoesNot() {
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

  void iconIsEmbedded() {
    QVERIFY(!QIcon(QStringLiteral(":/icons/mhaviz.svg")).isNull());
    for (int size : {16, 32, 48, 64, 128, 256}) {
      const QImage png(QStringLiteral(":/icons/mhaviz-%1.png").arg(size));
      QCOMPARE(png.size(), QSize(size, size));
    }
  }

  void desktopFileHasTheLauncherKeys() {
    const QString path = kSourceDir + QStringLiteral("/resources/mhaviz.desktop");
    const QHash<QString, QString> entry = desktopEntry(path);
    QCOMPARE(entry.value(QStringLiteral("Type")), QStringLiteral("Application"));
    QCOMPARE(entry.value(QStringLiteral("Name")), QStringLiteral("mhaviz"));
    QCOMPARE(entry.value(QStringLiteral("Exec")), QStringLiteral("mhaviz %f"));
    QCOMPARE(entry.value(QStringLiteral("Icon")), QStringLiteral("mhaviz"));
    QCOMPARE(entry.value(QStringLiteral("Categories")), QStringLiteral("Education;Science;"));
    QCOMPARE(entry.value(QStringLiteral("MimeType")),
             QStringLiteral("application/x-mhaviz-session;"));
    QVERIFY(entry.value(QStringLiteral("Comment[zh_CN]")).contains(QStringLiteral("热力图")));

    // The MIME type the launcher claims is the one resources/mhaviz-mime.xml defines.
    QFile mime(kSourceDir + QStringLiteral("/resources/mhaviz-mime.xml"));
    QVERIFY(mime.open(QIODevice::ReadOnly));
    const QByteArray xml = mime.readAll();
    QVERIFY(xml.contains("type=\"application/x-mhaviz-session\""));
    QVERIFY(xml.contains("pattern=\"*.mhaviz.json\""));

    // desktop-file-utils is optional (not in scripts/install-deps): validate when present.
    const QString validator =
        QStandardPaths::findExecutable(QStringLiteral("desktop-file-validate"));
    if (!validator.isEmpty()) {
      QProcess process;
      process.start(validator, {path});
      QVERIFY(process.waitForFinished(30000));
      QVERIFY2(process.exitCode() == 0, process.readAllStandardOutput().constData());
    }
  }

 private:
  QLocale m_systemLocale;
};

QTEST_MAIN(TestL10n)
#include "test_l10n.moc"
