// Desktop conventions: the theme menu switches palettes, the dark palette is readable, the icon
// is embedded and the .desktop file has the launcher's keys.

#include "test_l10n.hpp"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QHash>
#include <QIcon>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

#include "desktop/theme.hpp"
#include "window/main_window.hpp"

using mhaviz::ui::MainWindow;
using namespace mhaviz::ui::testing;

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

void TestL10n::themeMenuSwitchesPalettes() {
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
  QCOMPARE(QApplication::palette().color(QPalette::Window), systemPalette.color(QPalette::Window));
  QVERIFY(!QSettings().contains(QStringLiteral("ui/theme")));
}

void TestL10n::darkPaletteIsReadable() {
  const QPalette p = mhaviz::ui::darkPalette();
  QVERIFY(mhaviz::ui::isDarkPalette(p));
  QVERIFY(p.color(QPalette::WindowText).lightnessF() > 0.8);
  QVERIFY(p.color(QPalette::Text).lightnessF() - p.color(QPalette::Base).lightnessF() > 0.6);
}

void TestL10n::iconIsEmbedded() {
  QVERIFY(!QIcon(QStringLiteral(":/icons/mhaviz.svg")).isNull());
  for (int size : {16, 32, 48, 64, 128, 256}) {
    const QImage png(QStringLiteral(":/icons/mhaviz-%1.png").arg(size));
    QCOMPARE(png.size(), QSize(size, size));
  }
}

void TestL10n::desktopFileHasTheLauncherKeys() {
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
