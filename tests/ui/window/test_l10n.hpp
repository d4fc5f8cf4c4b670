#pragma once
// Localisation of the assembled window: the zh_CN translation shows in the window's menus and
// groups, English when the locale is English. The heatmap grid and exported images show Chinese
// titles and units while data exports (CSV, file names) stay English; session file errors are
// translated; the grid follows a dark palette while exported images keep their own background.
// (The translators, the language choice, the theme, the icon and the launcher are the desktop
// layer's: tests/ui/desktop.)
//
// The class is declared here; its tests are defined in test_l10n_language.cpp (with
// QTEST_MAIN) and test_l10n_pictures.cpp.

#include <QLocale>
#include <QObject>

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
  void englishWhenLocaleIsEnUS();
  void gridShowsTranslatedTitlesAndUnits();
  void torchPathIsTranslated();
  void exportedImageIsTranslated();
  void dataExportStaysEnglish();
  void sessionFileErrorsAreTranslated();
  void gridFollowsThePaletteExportDoesNot();

 private:
  QLocale m_systemLocale;
};
