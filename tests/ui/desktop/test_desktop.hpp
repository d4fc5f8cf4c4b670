#pragma once
// The desktop layer's tests (QtTest, offscreen), with plain Qt widgets and no window: the
// translators installed for a locale (mhaviz's and Qt's own), the language chosen, stored and
// followed from the (default or system) locale, the Language and Theme menus on a bare View menu,
// the dark palette, setupDesktop, the icon and the launcher file; calm fields (a typed number
// commits once, the wheel passes an unfocused field by) and the steady scroll area (the field in
// use keeps its place on screen, Tab scrolls by as little as it takes).
//
// The class is declared here; its tests are defined in test_desktop_language.cpp (with
// QTEST_MAIN), test_desktop_theme.cpp, test_desktop_calm_fields.cpp and
// test_desktop_steady_scroll.cpp.

#include <QAction>
#include <QLocale>
#include <QMenu>
#include <QObject>
#include <QString>
#include <QVariant>
#include <QWidget>

#include "desktop/desktop_setup.hpp"

namespace mhaviz::ui::testing::desktop {

inline const QString kSourceDir = QStringLiteral(MHAVIZ_SOURCE_DIR);

/// What the window gives the desktop layer's menus, and no more: a View menu, to which
/// installDesktopMenus appends the Language and Theme submenus, and the widget that owns their
/// action groups and parents the confirmation message (the main window, in the application).
struct ViewMenu {
  QWidget window;
  QMenu view;
  DesktopMenus menus = installDesktopMenus(&view, &window);

  /// The checkable entry of `menu` whose data is `data`, or null.
  [[nodiscard]] static QAction* action(const QMenu* menu, const QVariant& data) {
    for (QAction* a : menu->actions()) {
      if (a->isCheckable() && a->data() == data) return a;
    }
    return nullptr;
  }
  [[nodiscard]] QAction* language(const QVariant& data) const {
    return action(menus.language, data);
  }
  [[nodiscard]] QAction* theme(const QVariant& data) const { return action(menus.theme, data); }
};

}  // namespace mhaviz::ui::testing::desktop

class TestDesktop : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();
  void cleanup();

  // Moved from the window's localisation tests (tests/ui/window/test_l10n*), in their order.
  void qtStandardButtonsAreChinese();
  void untranslatedLocaleFallsBackToEnglish();
  void switchingBackRemovesTheTranslator();
  void followsTheDefaultLocaleWithoutAChoice();
  void storedChoiceOverridesTheLocale();
  void followsTheSystemLocaleFromTheEnvironment();
  void languageMenuStoresTheChoice();
  void themeMenuSwitchesPalettes();
  void darkPaletteIsReadable();
  void translationIsComplete();
  void iconIsEmbedded();
  void desktopFileHasTheLauncherKeys();

  // The language and the menus (test_desktop_language.cpp).
  void theMenusAreInTheChosenLanguage();
  void theMenusShowTheStoredChoices();
  void onlyANewLanguageIsConfirmed();
  // The theme and setupDesktop (test_desktop_theme.cpp).
  void anUnknownStoredThemeMeansSystem();
  void setupDesktopAppliesTheStoredChoices();
  void setupDesktopFollowsTheLocaleAndKeepsTheSystemTheme();
  // Calm fields (test_desktop_calm_fields.cpp).
  void aTypedNumberCommitsOnce();
  void aTypedNumberCommitsOnFocusOut();
  void theWheelScrollsPastAnUnfocusedField();
  void theWheelStepsAFieldWithFocus();
  void scrollBarsAreNotCalmed();
  // The steady scroll area (test_desktop_steady_scroll.cpp).
  void theFieldWithFocusKeepsItsPlace();
  void aMovedPointerChoosesTheFieldAStillOneDoesNot();
  void leavingGivesTheAnchorBackToTheFocus();
  void tabScrollsByAsLittleAsItTakes();

 private:
  QLocale m_systemLocale;
};
