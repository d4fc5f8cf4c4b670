#include "render/grid_plot.hpp"

#include <QTimer>

namespace mhaviz::ui {

GridPlot::GridPlot(QWidget* parent) : QCustomPlot(parent) {
  connect(this, &QCustomPlot::beforeReplot, this, [this] { m_resized = false; });
}

void GridPlot::resizeEvent(QResizeEvent* /*event*/) {
  setViewport(rect());
  if (m_resized) return;
  m_resized = true;
  QTimer::singleShot(0, this, [this] {
    if (m_resized && isVisible()) replot(rpQueuedRefresh);  // hidden: when it is painted
  });
}

void GridPlot::paintEvent(QPaintEvent* event) {
  // (the buffer drawn now is painted below; the repaint the replot asks for only copies it)
  if (m_resized) replot(rpQueuedRefresh);
  QCustomPlot::paintEvent(event);
}

}  // namespace mhaviz::ui
