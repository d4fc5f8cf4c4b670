#include "window/centre_dock.hpp"

#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>

namespace mhaviz::ui {

CentreDock::CentreDock(QMainWindow* window, QDockWidget* centre)
    : QObject(window), m_window(window), m_centre(centre), m_windowWidth(window->width()) {
  window->installEventFilter(this);
  for (QDockWidget* dock : window->findChildren<QDockWidget*>()) dock->installEventFilter(this);
}

bool CentreDock::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() != QEvent::Resize) return false;
  if (watched == m_window) {
    // (the window's layout has placed the docks for the new width before this filter runs)
    const int old = m_windowWidth;
    m_windowWidth = m_window->width();
    if (old != m_windowWidth) keepWidths(old);
  } else if (m_window->width() == m_windowWidth) {
    // Not the window's resize passing through: the arrangement, or the user's separator.
    auto* dock = static_cast<QDockWidget*>(watched);
    m_widths.insert(dock, dock->width());
  }
  return false;
}

void CentreDock::keepWidths(int oldWidth) {
  const QWidget* central = m_window->centralWidget();
  const auto sideways = [this](QDockWidget* dock) {
    const Qt::DockWidgetArea area = m_window->dockWidgetArea(dock);
    // (a tab behind another lies outside the window)
    return dock->isVisible() && !dock->isFloating() &&
           (area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea) &&
           m_window->rect().intersects(dock->geometry());
  };
  if ((central != nullptr && central->isVisible()) || !sideways(m_centre) ||
      !m_widths.contains(m_centre)) {
    return;
  }
  QList<QDockWidget*> docks;
  QList<int> widths;
  for (auto it = m_widths.cbegin(); it != m_widths.cend(); ++it) {
    if (it.key() != m_centre && sideways(it.key())) {
      docks << it.key();
      widths << it.value();
    }
  }
  docks << m_centre;
  widths << m_widths.value(m_centre) + m_windowWidth - oldWidth;
  m_window->resizeDocks(docks, widths, Qt::Horizontal);
}

}  // namespace mhaviz::ui
