#pragma once
// Application name and version, and the About box.

#include <QString>

class QWidget;

namespace mhaviz::ui {

/// The project version from CMake (PROJECT_VERSION), e.g. "0.1.0".
QString applicationVersion();

/// Sets QCoreApplication's organisation, name and version (used by QSettings and --version).
void setApplicationInfo();

void showAboutDialog(QWidget* parent);

}  // namespace mhaviz::ui
