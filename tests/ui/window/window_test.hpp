#pragma once
// The base of the window tests that drive a whole MainWindow made in each test's init(): the
// window, and what the tests reach through it (the document, its computation, the parameter
// panel's fields) and wait for.

#include <QCoreApplication>
#include <QObject>
#include <QTest>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "window/main_window.hpp"
#include "window/parameter_panel.hpp"

namespace mhaviz::ui::testing {

class WindowTest : public QObject {
 protected:
  [[nodiscard]] Document* document() const { return m_window->document(); }
  [[nodiscard]] Computation* computation() const { return m_window->computation(); }
  /// The parameter panel's fields.
  [[nodiscard]] ParameterPanel::Controls fields() const { return m_window->panel()->controls(); }
  /// Waits until the worker has finished everything submitted so far and the events are in.
  [[nodiscard]] bool idle(int timeoutMs = 30000) const {
    const bool done = QTest::qWaitFor([this] { return !document()->computed().busy; }, timeoutMs);
    QCoreApplication::processEvents();
    return done;
  }

  MainWindow* m_window = nullptr;
};

}  // namespace mhaviz::ui::testing
