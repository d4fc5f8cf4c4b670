#pragma once
// The UI language: English (the source strings) or Simplified Chinese, following the system
// locale unless the user picked one in View > Language (stored in QSettings as "ui/language").
// Translators are installed on the QCoreApplication; call from the GUI thread only.

#include <QList>
#include <QLocale>
#include <QString>

namespace mhaviz::ui {

/// One language the UI ships in: the code stored in QSettings and its name in that language.
struct UiLanguage {
  QString code;        // "en" or "zh_CN"
  QString nativeName;  // "English", "简体中文"
};

/// The languages mhaviz ships, English first.
QList<UiLanguage> uiLanguages();

/// The stored choice: a code from uiLanguages(), or empty to follow the system.
QString languageSetting();
void setLanguageSetting(const QString& code);

/// The locale the UI is shown in for a stored choice: `system` when the choice is empty or
/// unknown, else the chosen language. Defaults to QLocale(), which is QLocale::system() unless
/// QLocale::setDefault was called.
QLocale uiLocale(const QString& setting, const QLocale& system = QLocale());

/// Replaces the installed translators with mhaviz's (embedded under :/i18n) and Qt's own (for
/// standard dialogs) for `locale`. Returns true when an mhaviz translation was found; a locale
/// without one (or any English locale) leaves the English source strings.
bool installTranslations(const QLocale& locale);

/// The code of the language the installed translators show ("zh_CN"), or "en" for English.
QString activeLanguage();

}  // namespace mhaviz::ui
