// The theme and the desktop: the Theme menu switches palettes, the dark palette is readable, an
// unknown stored theme means System, setupDesktop applies the stored (or system) language and
// theme and names the launcher, the icon is embedded and the .desktop file has the launcher's
// keys.

#include "test_desktop.hpp"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QIcon>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QStyle>
#include <QTest>

#include "desktop/desktop_setup.hpp"
#include "desktop/language.hpp"
#include "desktop/theme.hpp"

using namespace mhaviz::ui::testing::desktop;

namespace {

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

}  // namespace

void TestDesktop::themeMenuSwitchesPalettes() {
  const QPalette systemPalette = QApplication::palette();
  const ViewMenu menus;
  QAction* dark = menus.theme(QStringLiteral("dark"));
  QAction* light = menus.theme(QStringLiteral("light"));
  QAction* system = menus.theme(QStringLiteral("system"));
  QVERIFY(dark != nullptr && light != nullptr && system != nullptr);
  QVERIFY(system->isChecked());

  dark->trigger();
  QVERIFY(mhaviz::ui::isDarkPalette(QApplication::palette()));
  QTRY_VERIFY(mhaviz::ui::isDarkPalette(menus.window.palette()));  // propagated by an event
  QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
  QVERIFY(mhaviz::ui::themeSetting() == mhaviz::ui::ThemeChoice::dark);

  light->trigger();
  QVERIFY(!mhaviz::ui::isDarkPalette(QApplication::palette()));
  QCOMPARE(QSettings().value(QStringLiteral("ui/theme")).toString(), QStringLiteral("light"));

  system->trigger();
  QCOMPARE(QApplication::palette().color(QPalette::Window), systemPalette.color(QPalette::Window));
  QVERIFY(!QSettings().contains(QStringLiteral("ui/theme")));
}

void TestDesktop::darkPaletteIsReadable() {
  const QPalette p = mhaviz::ui::darkPalette();
  QVERIFY(mhaviz::ui::isDarkPalette(p));
  QVERIFY(p.color(QPalette::WindowText).lightnessF() > 0.8);
  QVERIFY(p.color(QPalette::Text).lightnessF() - p.color(QPalette::Base).lightnessF() > 0.6);
}

void TestDesktop::iconIsEmbedded() {
  QVERIFY(!QIcon(QStringLiteral(":/icons/mhaviz.svg")).isNull());
  for (int size : {16, 32, 48, 64, 128, 256}) {
    const QImage png(QStringLiteral(":/icons/mhaviz-%1.png").arg(size));
    QCOMPARE(png.size(), QSize(size, size));
  }
}

void TestDesktop::desktopFileHasTheLauncherKeys() {
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
  const QString validator = QStandardPaths::findExecutable(QStringLiteral("desktop-file-validate"));
  if (!validator.isEmpty()) {
    QProcess process;
    process.start(validator, {path});
    QVERIFY(process.waitForFinished(30000));
    QVERIFY2(process.exitCode() == 0, process.readAllStandardOutput().constData());
  }
}

// A hand-edited or newer stored theme is read as System; a choice is stored by its key.
void TestDesktop::anUnknownStoredThemeMeansSystem() {
  QSettings().setValue(QStringLiteral("ui/theme"), QStringLiteral("purple"));
  QVERIFY(mhaviz::ui::themeSetting() == mhaviz::ui::ThemeChoice::system);
  mhaviz::ui::setThemeSetting(mhaviz::ui::ThemeChoice::dark);
  QCOMPARE(QSettings().value(QStringLiteral("ui/theme")).toString(), QStringLiteral("dark"));
  QVERIFY(mhaviz::ui::themeSetting() == mhaviz::ui::ThemeChoice::dark);
  mhaviz::ui::setThemeSetting(mhaviz::ui::ThemeChoice::system);
  QVERIFY(!QSettings().contains(QStringLiteral("ui/theme")));
}

// What main() gets from setupDesktop: the stored language and theme, the icon, and the name
// Wayland compositors match against the launcher (resources/<name>.desktop).
void TestDesktop::setupDesktopAppliesTheStoredChoices() {
  QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
  mhaviz::ui::setLanguageSetting(QStringLiteral("zh_CN"));
  mhaviz::ui::setThemeSetting(mhaviz::ui::ThemeChoice::dark);
  mhaviz::ui::setupDesktop();
  QCOMPARE(mhaviz::ui::activeLanguage(), QStringLiteral("zh_CN"));
  QCOMPARE(QCoreApplication::translate("DesktopMenus", "&Theme"), QStringLiteral("主题(&T)"));
  QVERIFY(mhaviz::ui::isDarkPalette(QApplication::palette()));
  QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
  QVERIFY(!QApplication::windowIcon().isNull());
  QVERIFY(!QApplication::windowIcon().pixmap(QSize(32, 32)).isNull());
  QCOMPARE(QGuiApplication::desktopFileName(), QStringLiteral("mhaviz"));
  QVERIFY(QFileInfo::exists(kSourceDir + QStringLiteral("/resources/") +
                            QGuiApplication::desktopFileName() + QStringLiteral(".desktop")));
}

// Nothing stored: the language of the (default) locale, and the palette the platform gave.
void TestDesktop::setupDesktopFollowsTheLocaleAndKeepsTheSystemTheme() {
  const QColor systemWindow = QApplication::palette().color(QPalette::Window);
  QLocale::setDefault(QLocale(QStringLiteral("zh_CN")));
  mhaviz::ui::setupDesktop();
  QCOMPARE(mhaviz::ui::activeLanguage(), QStringLiteral("zh_CN"));
  QCOMPARE(QApplication::palette().color(QPalette::Window), systemWindow);
  QVERIFY(mhaviz::ui::themeSetting() == mhaviz::ui::ThemeChoice::system);

  QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
  mhaviz::ui::setupDesktop();
  QCOMPARE(mhaviz::ui::activeLanguage(), QStringLiteral("en"));
  QCOMPARE(QCoreApplication::translate("DesktopMenus", "&Theme"), QStringLiteral("&Theme"));
}
