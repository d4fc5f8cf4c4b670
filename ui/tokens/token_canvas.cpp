// A token view's drawing area (token_canvas.hpp).
#include "tokens/token_canvas.hpp"

#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <utility>

namespace mhaviz::ui {

TokenCanvas::TokenCanvas(const QString& objectName, Hooks hooks, QWidget* parent)
    : QWidget(parent), m_hooks(std::move(hooks)) {
  setObjectName(objectName);
  setMouseTracking(true);
  setFocusPolicy(Qt::ClickFocus);
}

void TokenCanvas::paintEvent(QPaintEvent* event) {
  QPainter painter(this);
  m_hooks.paint(painter, QRectF(event->rect()));
}

void TokenCanvas::resizeEvent(QResizeEvent*) { m_hooks.resized(); }

void TokenCanvas::mouseMoveEvent(QMouseEvent* event) { m_hooks.moved(event->position()); }

void TokenCanvas::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) m_hooks.clicked(event->position());
}

void TokenCanvas::leaveEvent(QEvent*) { m_hooks.left(); }

}  // namespace mhaviz::ui
