#include "desktop/steady_scroll_area.hpp"

#include <QApplication>
#include <QEnterEvent>
#include <QEvent>
#include <QScrollBar>
#include <climits>

namespace mhaviz::ui {

SteadyScrollArea::SteadyScrollArea(QWidget* parent) : QScrollArea(parent) {
  setWidgetResizable(true);
  // A scroll by the user moves the anchor on purpose: its new place is the one to keep.
  connect(verticalScrollBar(), &QScrollBar::valueChanged, this, [this] {
    if (m_keeping) return;
    const int top = anchorTop();
    if (top != INT_MIN) m_anchorTop = top;
  });
  // The content grew or shrank: keep the anchor once the range has followed (emitted before
  // the scroll bar clamps its value to the new range).
  connect(verticalScrollBar(), &QScrollBar::rangeChanged, this, [this] { keepAnchor(); });
  connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
    if (now != nullptr && widget() != nullptr && widget()->isAncestorOf(now)) setAnchor(now);
  });
}

void SteadyScrollArea::setContent(QWidget* content) {
  setWidget(content);
  setWidgetResizable(true);
  watch(content);
}

void SteadyScrollArea::watch(QWidget* widget) {
  widget->installEventFilter(this);
  for (QWidget* child : widget->findChildren<QWidget*>()) child->installEventFilter(this);
}

bool SteadyScrollArea::eventFilter(QObject* watched, QEvent* event) {
  auto* w = qobject_cast<QWidget*>(watched);
  // A widget added later, to the content itself or inside it, is watched as well.
  if (event->type() == QEvent::ChildAdded && w != nullptr && widget() != nullptr &&
      (w == widget() || widget()->isAncestorOf(w))) {
    if (auto* child = qobject_cast<QWidget*>(static_cast<QChildEvent*>(event)->child())) {
      watch(child);
    }
  }
  if (w != nullptr && widget() != nullptr && w != widget() && widget()->isAncestorOf(w)) {
    switch (event->type()) {
      case QEvent::Enter: {
        // Only a pointer that moved chooses a field: Qt also sends Enter to a widget that
        // appears or moves under a still pointer, and that is the relayout to undo.
        const QPoint at = static_cast<QEnterEvent*>(event)->globalPosition().toPoint();
        if (at == m_pointer) break;
        m_pointer = at;
        QWidget* field = widget()->childAt(widget()->mapFromGlobal(at));
        setAnchor(field != nullptr ? field : w);
        break;
      }
      case QEvent::LayoutRequest:
        // The layout of `w` has just been applied (layouts act before event filters): fields
        // inside it may have moved.
        keepAnchor();
        break;
      default:
        break;
    }
  } else if (w != nullptr && w == widget()) {
    if (event->type() == QEvent::Leave) {
      // The pointer left: the field with focus (if any) is what the user works in.
      QWidget* focus = QApplication::focusWidget();
      setAnchor(focus != nullptr && widget()->isAncestorOf(focus) ? focus : nullptr);
    } else if (event->type() == QEvent::LayoutRequest || event->type() == QEvent::Resize) {
      keepAnchor();
    }
  }
  return QScrollArea::eventFilter(watched, event);
}

bool SteadyScrollArea::focusNextPrevChild(bool next) {
  // As QScrollArea (Tab shows the next field), but scrolled by as little as it takes.
  if (!QWidget::focusNextPrevChild(next)) return false;
  if (QWidget* focus = focusWidget()) ensureWidgetVisible(focus, 0, 4);
  return true;
}

void SteadyScrollArea::setAnchor(QWidget* anchor) {
  m_anchor = anchor;
  const int top = anchorTop();
  if (top != INT_MIN) m_anchorTop = top;
}

int SteadyScrollArea::anchorTop() const {
  if (m_anchor == nullptr || widget() == nullptr || !m_anchor->isVisibleTo(widget())) {
    return INT_MIN;
  }
  return m_anchor->mapTo(widget(), QPoint(0, 0)).y() - verticalScrollBar()->value();
}

void SteadyScrollArea::keepAnchor() {
  const int top = anchorTop();
  if (top == INT_MIN || top == m_anchorTop) return;
  m_keeping = true;
  verticalScrollBar()->setValue(verticalScrollBar()->value() + top - m_anchorTop);
  m_keeping = false;
}

}  // namespace mhaviz::ui
