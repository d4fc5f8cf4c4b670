// mhaviz: the desktop window. Everything it runs lives in mhaviz::ui and mhaviz::core.

#include <QApplication>

#include "desktop/desktop_setup.hpp"
#include "mhaviz/core/base/pages.hpp"
#include "session/command_line.hpp"
#include "session/session_files.hpp"
#include "window/app_info.hpp"
#include "window/main_window.hpp"

int main(int argc, char* argv[]) {
  mhaviz::restart_with_huge_pages(argv);  // first: glibc reads its tunables at the start
  QApplication app(argc, argv);
  mhaviz::ui::setApplicationInfo();
  mhaviz::ui::setupDesktop();  // language, theme, icon (reads QSettings)
  const mhaviz::ui::StartupFiles files = mhaviz::ui::parseStartupArguments(app);
  mhaviz::ui::MainWindow window;
  window.show();
  // The crash recovery offer, then the files named; with neither, the first picture.
  if (!window.session()->start(files)) window.showFirstPicture();
  return QApplication::exec();
}
