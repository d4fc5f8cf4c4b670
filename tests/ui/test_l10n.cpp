// Localisation and desktop conventions: the zh_CN translation loads and shows in the window,
// English is the fallback, the language follows the (default) locale unless View > Language
// overrides it, the theme menu switches palettes, the .ts is complete and the .desktop is valid.

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QGroupBox>
#include <QIcon>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QStyle>
#include <QTest>
#include <QTimer>
#include <QXmlStreamReader>
#include <memory>

#include "ui/desktop/desktop_setup.hpp"
#include "ui/desktop/language.hpp"
#include "ui/desktop/theme.hpp"
#include "ui/window/main_window.hpp"

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

  void englishWhenLocaleIsEnUS() {
    QVERIFY(!mhaviz::ui::installTranslations(QLocale(QStringLiteral("en_US"))));
    QCOMPARE(mhaviz::ui::activeLanguage(), QStringLiteral("en"));
    MainWindow window;
    QCOMPARE(fileMenuTitle(window), QStringLiteral("&File"));
    QVERIFY(groupTitles(window).contains(QStringLiteral("Sizes")));
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
