#pragma once
// Light and dark themes. "System" keeps the style and palette the platform gave at start-up
// (dark when the desktop is dark, through Qt's platform theme); Light and Dark use the Fusion
// style with a fixed palette. The choice is stored in QSettings as "ui/theme". GUI thread only.

#include <QPalette>
#include <QString>

namespace mhaviz::ui {

enum class ThemeChoice { system, light, dark };

/// The stored choice (System when nothing or something unknown is stored).
ThemeChoice themeSetting();
void setThemeSetting(ThemeChoice choice);

/// Records the platform's style and palette; call once after QApplication exists and before
/// the first applyTheme(), so that choosing System later restores them.
void captureSystemTheme();

/// Sets the application style and palette for `choice`.
void applyTheme(ThemeChoice choice);

/// The dark palette used by ThemeChoice::dark (Fusion colours on near-black).
QPalette darkPalette();

/// True when the palette's window colour is dark (lightness below one half): how a widget can
/// tell that the system, or the user, chose a dark theme.
bool isDarkPalette(const QPalette& palette);

/// The key stored in QSettings for a choice: "system", "light", "dark".
QString themeKey(ThemeChoice choice);

}  // namespace mhaviz::ui
