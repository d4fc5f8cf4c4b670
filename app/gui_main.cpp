// mhaviz: the desktop window. Everything it runs lives in mhaviz::ui and mhaviz::core.

#include <QApplication>

#include "ui/window/app_info.hpp"
#include "ui/window/main_window.hpp"

int main(int argc, char* argv[]) {
  QApplication app(argc, argv);
  mhaviz::ui::setApplicationInfo();
  mhaviz::ui::MainWindow window;
  window.show();
  return QApplication::exec();
}
