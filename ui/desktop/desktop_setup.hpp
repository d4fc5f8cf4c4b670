#pragma once
// Desktop conventions for the mhaviz window: language, theme, application icon, and the
// View > Language and View > Theme menus. GUI thread only.

#include <QCoreApplication>

class QMenu;
class QWidget;

namespace mhaviz::ui {

/// Call once in main() after setApplicationInfo() (QSettings needs the organisation name) and
/// before creating windows: installs the translators for the stored or system language,
/// applies the stored theme, and sets the window icon and the desktop file name.
void setupDesktop();

/// View > Language and View > Theme (and the translation context of their texts).
struct DesktopMenus {
  Q_DECLARE_TR_FUNCTIONS(DesktopMenus)
 public:
  QMenu* language = nullptr;
  QMenu* theme = nullptr;
};

/// Appends the Language and Theme submenus to `viewMenu`. A language choice is stored and
/// takes effect at the next start (the window's texts are built once); a theme applies at once.
/// `parent` owns the action groups and is the parent of the confirmation message.
DesktopMenus installDesktopMenus(QMenu* viewMenu, QWidget* parent);

}  // namespace mhaviz::ui
