#pragma once
// Localisation and desktop conventions: the zh_CN translation loads and shows in the window,
// English is the fallback, the language follows the (default) locale unless View > Language
// overrides it, the theme menu switches palettes, the .ts is complete and the .desktop is valid.
// The heatmap grid and exported images show Chinese titles and units while data exports (CSV,
// file names) stay English; session file errors are translated; the grid follows a dark palette
// while exported images keep their own background.
//
// The class is declared here; its tests are defined in test_l10n_language.cpp (with
// QTEST_MAIN), test_l10n_pictures.cpp and test_l10n_desktop.cpp.

#include <QAction>
#include <QLocale>
#include <QMenu>
#include <QObject>
#include <QString>
#include <QVariant>

#include "window/main_window.hpp"

namespace mhaviz::ui::testing {

/// The checkable entry of menu `menuName` whose data is `data`.
inline QAction* menuAction(const mhaviz::ui::MainWindow& window, const QString& menuName,
                           const QVariant& data) {
  auto* menu = window.findChild<QMenu*>(menuName);
  if (menu == nullptr) return nullptr;
  for (QAction* a : menu->actions()) {
    if (a->isCheckable() && a->data() == data) return a;
  }
  return nullptr;
}

inline const QString kSourceDir = QStringLiteral(MHAVIZ_SOURCE_DIR);

}  // namespace mhaviz::ui::testing

class TestL10n : public QObject {
  Q_OBJECT

 private slots:
  // In the order they ran before they were split into files (each file is named for the
  // tests it holds): QtTest runs slots as declared, and one order is what has been run (in
  // another, the model view's hover went unseen after the weights-only test's double click).
  void initTestCase();
  void init();
  void cleanup();
  void chineseWhenLocaleIsZhCN();
  void qtStandardButtonsAreChinese();
  void englishWhenLocaleIsEnUS();
  void untranslatedLocaleFallsBackToEnglish();
  void switchingBackRemovesTheTranslator();
  void followsTheDefaultLocaleWithoutAChoice();
  void storedChoiceOverridesTheLocale();
  void followsTheSystemLocaleFromTheEnvironment();
  void languageMenuStoresTheChoice();
  void themeMenuSwitchesPalettes();
  void darkPaletteIsReadable();
  void translationIsComplete();
  void gridShowsTranslatedTitlesAndUnits();
  void torchPathIsTranslated();
  void exportedImageIsTranslated();
  void dataExportStaysEnglish();
  void sessionFileErrorsAreTranslated();
  void gridFollowsThePaletteExportDoesNot();
  void iconIsEmbedded();
  void desktopFileHasTheLauncherKeys();

 private:
  QLocale m_systemLocale;
};
