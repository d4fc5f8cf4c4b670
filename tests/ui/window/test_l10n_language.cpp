// The language of the window: the zh_CN translation shows in its menus and groups, English when
// the locale is English, and session file errors are translated.

#include "test_l10n.hpp"

#include <QAction>
#include <QApplication>
#include <QGroupBox>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <functional>

#include "desktop/language.hpp"
#include "desktop/theme.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "render/heatmap_grid.hpp"
#include "session/session_file.hpp"
#include "window/main_window.hpp"

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

QString invalidInputMessage(const std::function<void()>& f) {
  try {
    f();
  } catch (const mhaviz::InvalidInput& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

}  // namespace

void TestL10n::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);  // QSettings go to a test location
  QCoreApplication::setOrganizationName(QStringLiteral("mhaviz-tests"));
  QCoreApplication::setApplicationName(QStringLiteral("mhaviz-l10n-tests"));
  m_systemLocale = QLocale();
  mhaviz::ui::captureSystemTheme();
}

void TestL10n::init() { QSettings().clear(); }

void TestL10n::cleanup() {
  QSettings().clear();
  QLocale::setDefault(m_systemLocale);
  mhaviz::ui::installTranslations(QLocale(QLocale::English, QLocale::UnitedStates));
  mhaviz::ui::applyTheme(mhaviz::ui::ThemeChoice::system);
}

void TestL10n::chineseWhenLocaleIsZhCN() {
  QVERIFY(mhaviz::ui::installTranslations(QLocale(QStringLiteral("zh_CN"))));
  QCOMPARE(mhaviz::ui::activeLanguage(), QStringLiteral("zh_CN"));
  MainWindow window;
  QCOMPARE(fileMenuTitle(window), QStringLiteral("文件(&F)"));
  QVERIFY(groupTitles(window).contains(QStringLiteral("尺寸")));
  // PyTorch's argument names stay as they are: they are code.
  QVERIFY(groupTitles(window).contains(QStringLiteral("模块")));
  auto* language = window.languageMenu();
  QVERIFY(language != nullptr);
  QCOMPARE(language->title(), QStringLiteral("语言(&L)"));
}

void TestL10n::englishWhenLocaleIsEnUS() {
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

void TestL10n::sessionFileErrorsAreTranslated() {
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
  QVERIFY2(english.contains(QStringLiteral("was written by a newer mhaviz")), qPrintable(english));
}

QTEST_MAIN(TestL10n)
