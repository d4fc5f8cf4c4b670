#include "desktop/theme.hpp"

#include <QApplication>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

namespace mhaviz::ui {

namespace {

const QString kThemeKey = QStringLiteral("ui/theme");

struct SystemTheme {
  bool captured = false;
  QString styleName;
  QPalette palette;
};

SystemTheme& systemTheme() {
  static SystemTheme theme;
  return theme;
}

void setStyleByName(const QString& name) {
  if (QApplication::style() != nullptr &&
      QApplication::style()->name().compare(name, Qt::CaseInsensitive) == 0) {
    return;
  }
  if (QStyle* style = QStyleFactory::create(name)) QApplication::setStyle(style);
}

}  // namespace

QString themeKey(ThemeChoice choice) {
  switch (choice) {
    case ThemeChoice::light:
      return QStringLiteral("light");
    case ThemeChoice::dark:
      return QStringLiteral("dark");
    case ThemeChoice::system:
      break;
  }
  return QStringLiteral("system");
}

ThemeChoice themeSetting() {
  const QString key = QSettings().value(kThemeKey).toString();
  if (key == themeKey(ThemeChoice::light)) return ThemeChoice::light;
  if (key == themeKey(ThemeChoice::dark)) return ThemeChoice::dark;
  return ThemeChoice::system;
}

void setThemeSetting(ThemeChoice choice) {
  QSettings settings;
  if (choice == ThemeChoice::system) {
    settings.remove(kThemeKey);
  } else {
    settings.setValue(kThemeKey, themeKey(choice));
  }
}

void captureSystemTheme() {
  SystemTheme& theme = systemTheme();
  if (theme.captured) return;
  theme.captured = true;
  theme.styleName = QApplication::style() != nullptr ? QApplication::style()->name() : QString();
  theme.palette = QApplication::palette();
}

QPalette darkPalette() {
  const QColor window(45, 45, 48);
  const QColor base(30, 30, 32);
  const QColor text(232, 232, 232);
  const QColor disabledText(128, 128, 128);
  const QColor highlight(42, 130, 218);
  QPalette p;
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, QColor(53, 53, 56));
  p.setColor(QPalette::ToolTipBase, QColor(60, 60, 64));
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::PlaceholderText, disabledText);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, window);
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, QColor(255, 80, 80));
  p.setColor(QPalette::Light, QColor(70, 70, 74));
  p.setColor(QPalette::Midlight, QColor(58, 58, 62));
  p.setColor(QPalette::Mid, QColor(38, 38, 40));
  p.setColor(QPalette::Dark, QColor(24, 24, 26));
  p.setColor(QPalette::Shadow, QColor(0, 0, 0));
  p.setColor(QPalette::Highlight, highlight);
  p.setColor(QPalette::HighlightedText, QColor(255, 255, 255));
  p.setColor(QPalette::Link, QColor(100, 170, 240));
  p.setColor(QPalette::LinkVisited, QColor(170, 140, 230));
  for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
    p.setColor(QPalette::Disabled, role, disabledText);
  }
  p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(80, 80, 80));
  return p;
}

bool isDarkPalette(const QPalette& palette) {
  return palette.color(QPalette::Window).lightnessF() < 0.5;
}

void applyTheme(ThemeChoice choice) {
  captureSystemTheme();
  const SystemTheme& system = systemTheme();
  switch (choice) {
    case ThemeChoice::system:
      if (!system.styleName.isEmpty()) setStyleByName(system.styleName);
      QApplication::setPalette(system.palette);
      return;
    case ThemeChoice::light:
      setStyleByName(QStringLiteral("Fusion"));
      QApplication::setPalette(QApplication::style()->standardPalette());
      return;
    case ThemeChoice::dark:
      setStyleByName(QStringLiteral("Fusion"));
      QApplication::setPalette(darkPalette());
      return;
  }
}

}  // namespace mhaviz::ui
