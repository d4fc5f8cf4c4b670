// The language: the zh_CN translation and Qt's own load for a Chinese locale, English is the
// fallback, the language follows the (default or system) locale unless a stored choice overrides
// it, the Language menu stores the choice and confirms a new one, the menus are translated, and
// the committed .ts is complete.

#include "test_desktop.hpp"

#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QFile>
#include <QHash>
#include <QLibraryInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>
#include <QXmlStreamReader>

#include "desktop/language.hpp"
#include "desktop/theme.hpp"

using namespace mhaviz::ui::testing::desktop;

namespace {

// The placeholders %1..%99 a string uses, so translations can be checked against sources.
QSet<QString> placeholders(const QString& text) {
  static const QRegularExpression re(QStringLiteral("%(\\d+|n)"));
  QSet<QString> found;
  for (auto it = re.globalMatch(text); it.hasNext();) found.insert(it.next().captured(0));
  return found;
}

// The window's File menu title as the installed translators give it (the translations of every
// layer are embedded in this one).
QString fileMenuTitle() { return QCoreApplication::translate("mhaviz::ui::MainWindow", "&File"); }

}  // namespace

void TestDesktop::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);  // QSettings go to a test location
  QCoreApplication::setOrganizationName(QStringLiteral("mhaviz-tests"));
  QCoreApplication::setApplicationName(QStringLiteral("mhaviz-desktop-tests"));
  m_systemLocale = QLocale();
  mhaviz::ui::captureSystemTheme();
}

void TestDesktop::init() { QSettings().clear(); }

void TestDesktop::cleanup() {
  QSettings().clear();
  QLocale::setDefault(m_systemLocale);
  mhaviz::ui::installTranslations(QLocale(QLocale::English, QLocale::UnitedStates));
  mhaviz::ui::applyTheme(mhaviz::ui::ThemeChoice::system);
}

// Issue 15 item 12: Qt's own buttons stayed English. Qt's translations (qtbase_zh_CN.qm, from
// the Debian package qt6-translations-l10n that scripts/install-deps installs) load with ours.
void TestDesktop::qtStandardButtonsAreChinese() {
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

void TestDesktop::untranslatedLocaleFallsBackToEnglish() {
  QVERIFY(!mhaviz::ui::installTranslations(QLocale(QStringLiteral("de_DE"))));
  QCOMPARE(fileMenuTitle(), QStringLiteral("&File"));
}

void TestDesktop::switchingBackRemovesTheTranslator() {
  QVERIFY(mhaviz::ui::installTranslations(QLocale(QStringLiteral("zh_CN"))));
  QVERIFY(!mhaviz::ui::installTranslations(QLocale(QStringLiteral("en_GB"))));
  QCOMPARE(QCoreApplication::translate("mhaviz::ui::MainWindow", "&File"), QStringLiteral("&File"));
}

void TestDesktop::followsTheDefaultLocaleWithoutAChoice() {
  QLocale::setDefault(QLocale(QStringLiteral("zh_CN")));
  QVERIFY(mhaviz::ui::languageSetting().isEmpty());
  QCOMPARE(mhaviz::ui::uiLocale(mhaviz::ui::languageSetting()).name(), QStringLiteral("zh_CN"));
  QVERIFY(mhaviz::ui::installTranslations(mhaviz::ui::uiLocale(mhaviz::ui::languageSetting())));
  QCOMPARE(QCoreApplication::translate("mhaviz::ui::MainWindow", "&File"),
           QStringLiteral("文件(&F)"));
}

void TestDesktop::storedChoiceOverridesTheLocale() {
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

// Run once as is and once by the ctest entry mhaviz-desktop-system-locale-zh with
// LC_ALL=zh_CN.UTF-8: the process environment decides what the system locale, and so the UI
// language, must be.
void TestDesktop::followsTheSystemLocaleFromTheEnvironment() {
  QString env = qEnvironmentVariable("LC_ALL");
  if (env.isEmpty()) env = qEnvironmentVariable("LC_MESSAGES");
  if (env.isEmpty()) env = qEnvironmentVariable("LANG");
  const bool chinese = env.startsWith(QLatin1String("zh_CN"));
  if (chinese) QCOMPARE(QLocale::system().name(), QStringLiteral("zh_CN"));
  QCOMPARE(mhaviz::ui::installTranslations(mhaviz::ui::uiLocale(QString(), QLocale::system())),
           chinese);
  QCOMPARE(fileMenuTitle(), chinese ? QStringLiteral("文件(&F)") : QStringLiteral("&File"));
  // The desktop layer's own menu, built after the translators, says the same.
  const ViewMenu menus;
  QMenu* language = menus.menus.language;
  QVERIFY(language != nullptr);
  QCOMPARE(language->title(), chinese ? QStringLiteral("语言(&L)") : QStringLiteral("&Language"));
}

void TestDesktop::languageMenuStoresTheChoice() {
  const ViewMenu menus;
  QAction* chinese = menus.language(QStringLiteral("zh_CN"));
  QAction* system = menus.language(QString());
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
void TestDesktop::translationIsComplete() {
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

// The menus are built in the language of the translators installed before them; each language
// is named in itself whatever the language of the menus.
void TestDesktop::theMenusAreInTheChosenLanguage() {
  QVERIFY(mhaviz::ui::installTranslations(QLocale(QLocale::Chinese, QLocale::China)));
  QCOMPARE(mhaviz::ui::activeLanguage(), QStringLiteral("zh_CN"));
  {
    const ViewMenu menus;
    QCOMPARE(menus.menus.language->title(), QStringLiteral("语言(&L)"));
    QCOMPARE(menus.menus.theme->title(), QStringLiteral("主题(&T)"));
    QCOMPARE(menus.language(QString())->text(), QStringLiteral("跟随系统语言(&S)"));
    QCOMPARE(menus.theme(QStringLiteral("dark"))->text(), QStringLiteral("深色(&D)"));
    QCOMPARE(menus.language(QStringLiteral("en"))->text(), QStringLiteral("English"));
  }
  QVERIFY(!mhaviz::ui::installTranslations(QLocale(QLocale::English, QLocale::UnitedStates)));
  QCOMPARE(mhaviz::ui::activeLanguage(), QStringLiteral("en"));
  const ViewMenu menus;
  QCOMPARE(menus.menus.language->title(), QStringLiteral("&Language"));
  QCOMPARE(menus.menus.theme->title(), QStringLiteral("&Theme"));
  QCOMPARE(menus.theme(QStringLiteral("dark"))->text(), QStringLiteral("&Dark"));
  QCOMPARE(menus.language(QStringLiteral("zh_CN"))->text(), QStringLiteral("简体中文"));
}

// A menu built after a choice was stored shows that choice checked, and only it.
void TestDesktop::theMenusShowTheStoredChoices() {
  mhaviz::ui::setLanguageSetting(QStringLiteral("zh_CN"));
  mhaviz::ui::setThemeSetting(mhaviz::ui::ThemeChoice::dark);
  const ViewMenu menus;
  const auto checked = [](const QMenu* menu) {
    QVariantList data;
    for (QAction* a : menu->actions()) {
      if (a->isChecked()) data << a->data();
    }
    return data;
  };
  QCOMPARE(checked(menus.menus.language), QVariantList{QStringLiteral("zh_CN")});
  QCOMPARE(checked(menus.menus.theme), QVariantList{QStringLiteral("dark")});
}

// The language applies at the next start, and the message says so when the choice changes; the
// language already chosen, picked again, changes nothing and says nothing.
void TestDesktop::onlyANewLanguageIsConfirmed() {
  const ViewMenu menus;
  QAction* system = menus.language(QString());
  QAction* english = menus.language(QStringLiteral("en"));
  QVERIFY(system != nullptr && english != nullptr);
  // A message box runs its own event loop inside trigger(): what shows is closed and recorded
  // there, and trigger() returns at once when nothing shows.
  QStringList said;
  QTimer closer;
  connect(&closer, &QTimer::timeout, [&said] {
    if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
      said << box->text();
      box->close();
    }
  });
  closer.start(20);
  system->trigger();  // already the choice: nothing stored, nothing said
  QVERIFY(said.isEmpty());
  QVERIFY(!QSettings().contains(QStringLiteral("ui/language")));
  english->trigger();
  QCOMPARE(said,
           QStringList{QStringLiteral("The new language is used the next time mhaviz starts.")});
  QCOMPARE(mhaviz::ui::languageSetting(), QStringLiteral("en"));
  english->trigger();  // again: already the choice
  QCOMPARE(said.size(), 1);
  system->trigger();  // back to the system's language: a change, stored as no choice
  QCOMPARE(said.size(), 2);
  QVERIFY(!QSettings().contains(QStringLiteral("ui/language")));
  closer.stop();
}

QTEST_MAIN(TestDesktop)
