#pragma once
// Shared by the window tests of the teaching tools (test_teach_window.cpp,
// test_presentation.cpp): a shown main window with its first result, its teaching tools, and
// the helpers both use.

#include <QObject>
#include <QtTest>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "render/heatmap_grid.hpp"
#include "stages/view_options.hpp"
#include "teach/teaching_tools.hpp"
#include "window/main_window.hpp"

namespace mhaviz::ui::testing {

class TeachingWindowTest : public QObject {
 protected:
  static constexpr int kTimeout = 30000;

  /// A 1200 x 800 main window, shown, with its first result computed (from init()).
  [[nodiscard]] bool openWindow() {
    m_window = new MainWindow;
    m_window->resize(1200, 800);
    m_window->show();
    m_tools = m_window->teaching();
    return idle() && document()->computed().result != nullptr && m_tools != nullptr;
  }
  /// From cleanup().
  void closeWindow() {
    delete m_window;
    m_window = nullptr;
    m_tools = nullptr;
  }

  Document* document() const { return m_window->document(); }
  Computation* computation() const { return m_window->computation(); }
  HeatmapGrid* grid() const { return m_window->grid(); }
  [[nodiscard]] bool idle() const {
    return QTest::qWaitFor([this] { return !document()->computed().busy; }, kTimeout);
  }
  void setStage(Stage stage) {
    ViewOptions v = document()->view();
    v.stage = stage;
    document()->setView(v);
  }

  MainWindow* m_window = nullptr;
  TeachingTools* m_tools = nullptr;
};

}  // namespace mhaviz::ui::testing
