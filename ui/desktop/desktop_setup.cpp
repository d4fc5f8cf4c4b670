#include "desktop/desktop_setup.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCoreApplication>
#include <QIcon>
#include <QMenu>
#include <QMessageBox>
#include <utility>

#include "desktop/language.hpp"
#include "desktop/theme.hpp"

namespace mhaviz::ui {

namespace {

QIcon applicationIcon() {
  QIcon icon(QStringLiteral(":/icons/mhaviz.svg"));
  for (int size : {16, 32, 48, 64, 128, 256}) {
    icon.addFile(QStringLiteral(":/icons/mhaviz-%1.png").arg(size), QSize(size, size));
  }
  return icon;
}

QMenu* addLanguageMenu(QMenu* viewMenu, QWidget* parent) {
  QMenu* menu = viewMenu->addMenu(DesktopMenus::tr("&Language"));
  menu->setObjectName(QStringLiteral("languageMenu"));
  auto* group = new QActionGroup(parent);
  group->setExclusive(true);
  const QString current = languageSetting();

  auto addChoice = [&](const QString& code, const QString& text) {
    QAction* action = menu->addAction(text);
    action->setCheckable(true);
    action->setData(code);
    action->setChecked(code == current);
    group->addAction(action);
    QObject::connect(action, &QAction::triggered, parent, [parent, code] {
      if (code == languageSetting()) return;
      setLanguageSetting(code);
      QMessageBox::information(
          parent, DesktopMenus::tr("Language"),
          DesktopMenus::tr("The new language is used the next time mhaviz starts."));
    });
  };
  addChoice(QString(), DesktopMenus::tr("&System language"));
  menu->addSeparator();
  // Each language is named in itself, so that anyone can find their own.
  for (const UiLanguage& language : uiLanguages()) addChoice(language.code, language.nativeName);
  return menu;
}

QMenu* addThemeMenu(QMenu* viewMenu, QWidget* parent) {
  QMenu* menu = viewMenu->addMenu(DesktopMenus::tr("&Theme"));
  menu->setObjectName(QStringLiteral("themeMenu"));
  auto* group = new QActionGroup(parent);
  group->setExclusive(true);
  const ThemeChoice current = themeSetting();
  const std::pair<ThemeChoice, QString> choices[] = {
      {ThemeChoice::system, DesktopMenus::tr("&System")},
      {ThemeChoice::light, DesktopMenus::tr("&Light")},
      {ThemeChoice::dark, DesktopMenus::tr("&Dark")}};
  for (const auto& [choice, text] : choices) {
    QAction* action = menu->addAction(text);
    action->setCheckable(true);
    action->setData(themeKey(choice));
    action->setChecked(choice == current);
    group->addAction(action);
    QObject::connect(action, &QAction::triggered, parent, [choice] {
      setThemeSetting(choice);
      applyTheme(choice);
    });
  }
  return menu;
}

}  // namespace

void setupDesktop() {
  installTranslations(uiLocale(languageSetting()));
  captureSystemTheme();
  const ThemeChoice theme = themeSetting();
  if (theme != ThemeChoice::system) applyTheme(theme);
  QApplication::setWindowIcon(applicationIcon());
  // Lets Wayland compositors match the window to mhaviz.desktop (its icon and name).
  QGuiApplication::setDesktopFileName(QStringLiteral("mhaviz"));
}

DesktopMenus installDesktopMenus(QMenu* viewMenu, QWidget* parent) {
  viewMenu->addSeparator();
  DesktopMenus menus;
  menus.language = addLanguageMenu(viewMenu, parent);
  menus.theme = addThemeMenu(viewMenu, parent);
  return menus;
}

}  // namespace mhaviz::ui
