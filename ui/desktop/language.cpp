#include "desktop/language.hpp"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QPointer>
#include <QSettings>
#include <QTranslator>

namespace mhaviz::ui {

namespace {

const QString kLanguageKey = QStringLiteral("ui/language");

// Owned by the QCoreApplication (parent); QPointer because the application may be gone.
QPointer<QTranslator> g_appTranslator;
QPointer<QTranslator> g_qtTranslator;
QString g_active = QStringLiteral("en");

void removeTranslator(QPointer<QTranslator>& translator) {
  if (translator.isNull()) return;
  QCoreApplication::removeTranslator(translator);
  delete translator.data();
  translator.clear();
}

}  // namespace

QList<UiLanguage> uiLanguages() {
  return {{QStringLiteral("en"), QStringLiteral("English")},
          {QStringLiteral("zh_CN"), QStringLiteral("简体中文")}};
}

QString languageSetting() {
  const QString code = QSettings().value(kLanguageKey).toString();
  for (const UiLanguage& language : uiLanguages()) {
    if (language.code == code) return code;
  }
  return {};
}

void setLanguageSetting(const QString& code) {
  QSettings settings;
  if (code.isEmpty()) {
    settings.remove(kLanguageKey);
  } else {
    settings.setValue(kLanguageKey, code);
  }
}

QLocale uiLocale(const QString& setting, const QLocale& system) {
  if (setting == QLatin1String("en")) return QLocale(QLocale::English, QLocale::UnitedStates);
  if (setting == QLatin1String("zh_CN")) return QLocale(QLocale::Chinese, QLocale::China);
  return system;
}

bool installTranslations(const QLocale& locale) {
  removeTranslator(g_appTranslator);
  removeTranslator(g_qtTranslator);
  g_active = QStringLiteral("en");
  auto* app = QCoreApplication::instance();
  if (app == nullptr) return false;

  // QTranslator::load(QLocale, ...) tries each of locale.uiLanguages() ("zh-Hans-CN", "zh-CN",
  // ...) and their truncations; the embedded files are :/i18n/mhaviz_<code>.qm.
  auto* translator = new QTranslator(app);
  if (!translator->load(locale, QStringLiteral("mhaviz"), QStringLiteral("_"),
                        QStringLiteral(":/i18n"))) {
    delete translator;
    return false;
  }
  QCoreApplication::installTranslator(translator);
  g_appTranslator = translator;
  g_active = translator->language().replace(QLatin1Char('-'), QLatin1Char('_'));

  // Qt's own strings (QDialogButtonBox, QFileDialog) in the same language, when installed.
  auto* qt = new QTranslator(app);
  if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
               QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
    QCoreApplication::installTranslator(qt);
    g_qtTranslator = qt;
  } else {
    delete qt;
  }
  return true;
}

QString activeLanguage() { return g_active; }

}  // namespace mhaviz::ui
