// The language of the window: the zh_CN translation loads and shows, English is the fallback, the
// language follows the (default or system) locale unless View > Language overrides it, the .ts is
// complete and session file errors are translated.

#include "test_l10n.hpp"

#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QFile>
#include <QGroupBox>
#include <QHash>
#include <QLibraryInfo>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>
#include <QXmlStreamReader>
#include <functional>

#include "desktop/desktop_setup.hpp"
#include "desktop/language.hpp"
#include "desktop/theme.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "render/heatmap_grid.hpp"
#include "session/session_file.hpp"
#include "window/main_window.hpp"

using mhaviz::ui::MainWindow;
using namespace mhaviz::ui::testing;

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

// The placeholders %1..%99 a string uses, so translations can be checked against sources.
QSet<QString> placeholders(const QString& text) {
  static const QRegularExpression re(QStringLiteral("%(\\d+|n)"));
  QSet<QString> found;
  for (auto it = re.globalMatch(text); it.hasNext();) found.insert(it.next().captured(0));
  return found;
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
  auto* language = window.findChild<QMenu*>(QStringLiteral("languageMenu"));
  QVERIFY(language != nullptr);
  QCOMPARE(language->title(), QStringLiteral("语言(&L)"));
}

// Issue 15 item 12: Qt's own buttons stayed English. Qt's translations (qtbase_zh_CN.qm, from
// the Debian package qt6-translations-l10n that scripts/install-deps installs) load with ours.
void TestL10n::qtStandardButtonsAreChinese() {
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

void TestL10n::untranslatedLocaleFallsBackToEnglish() {
  QVERIFY(!mhaviz::ui::installTranslations(QLocale(QStringLiteral("de_DE"))));
  MainWindow window;
  QCOMPARE(fileMenuTitle(window), QStringLiteral("&File"));
}

void TestL10n::switchingBackRemovesTheTranslator() {
  QVERIFY(mhaviz::ui::installTranslations(QLocale(QStringLiteral("zh_CN"))));
  QVERIFY(!mhaviz::ui::installTranslations(QLocale(QStringLiteral("en_GB"))));
  QCOMPARE(QCoreApplication::translate("mhaviz::ui::MainWindow", "&File"), QStringLiteral("&File"));
}

void TestL10n::followsTheDefaultLocaleWithoutAChoice() {
  QLocale::setDefault(QLocale(QStringLiteral("zh_CN")));
  QVERIFY(mhaviz::ui::languageSetting().isEmpty());
  QCOMPARE(mhaviz::ui::uiLocale(mhaviz::ui::languageSetting()).name(), QStringLiteral("zh_CN"));
  QVERIFY(mhaviz::ui::installTranslations(mhaviz::ui::uiLocale(mhaviz::ui::languageSetting())));
  QCOMPARE(QCoreApplication::translate("mhaviz::ui::MainWindow", "&File"),
           QStringLiteral("文件(&F)"));
}

void TestL10n::storedChoiceOverridesTheLocale() {
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
void TestL10n::followsTheSystemLocaleFromTheEnvironment() {
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

void TestL10n::languageMenuStoresTheChoice() {
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

// Every string of the committed .ts is translated and keeps its placeholders and accelerator.
void TestL10n::translationIsComplete() {
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
