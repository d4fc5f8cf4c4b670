// Items left to right, wrapping onto further rows (flow_layout.hpp).
#include "tokens/flow_layout.hpp"

#include <QSpacerItem>
#include <QWidget>
#include <algorithm>

namespace mhaviz::ui {

namespace {

bool isGap(QLayoutItem* item) { return item->spacerItem() != nullptr; }

}  // namespace

FlowLayout::FlowLayout(int spacing) { setSpacing(spacing); }

FlowLayout::~FlowLayout() {
  while (QLayoutItem* item = takeAt(0)) delete item;
}

void FlowLayout::addItem(QLayoutItem* item) { m_items.append(item); }

void FlowLayout::addGap(int width) {
  addItem(new QSpacerItem(width, 0, QSizePolicy::Fixed, QSizePolicy::Minimum));
  invalidate();
}

QLayoutItem* FlowLayout::itemAt(int index) const {
  return index >= 0 && index < m_items.size() ? m_items.at(index) : nullptr;
}

QLayoutItem* FlowLayout::takeAt(int index) {
  if (index < 0 || index >= m_items.size()) return nullptr;
  QLayoutItem* item = m_items.takeAt(index);
  invalidate();
  return item;
}

int FlowLayout::heightForWidth(int width) const { return arrange(QRect(0, 0, width, 0), false); }

QSize FlowLayout::minimumSize() const {
  QSize size;
  for (QLayoutItem* item : m_items) {
    if (!isGap(item)) size = size.expandedTo(item->minimumSize());
  }
  const QMargins m = contentsMargins();
  return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const {
  int width = 0, height = 0;
  for (QLayoutItem* item : m_items) {
    if (item->isEmpty() && !isGap(item)) continue;
    if (width > 0) width += spacing();
    width += item->sizeHint().width();
    height = std::max(height, item->sizeHint().height());
  }
  const QMargins m = contentsMargins();
  return {width + m.left() + m.right(), height + m.top() + m.bottom()};
}

void FlowLayout::setGeometry(const QRect& rect) {
  QLayout::setGeometry(rect);
  arrange(rect, true);
}

int FlowLayout::arrange(const QRect& rect, bool place) const {
  const QRect area = rect.marginsRemoved(contentsMargins());
  int x = area.x();
  int y = area.y();
  int rowHeight = 0;
  for (QLayoutItem* item : m_items) {
    if (item->isEmpty() && !isGap(item)) continue;
    const QSize size = item->sizeHint();
    const bool rowStart = x == area.x();
    if (isGap(item)) {
      if (!rowStart) x += size.width();  // a row never starts with a gap
      continue;
    }
    if (!rowStart && x + size.width() > area.right() + 1) {  // wrap
      x = area.x();
      y += rowHeight + spacing();
      rowHeight = 0;
    }
    if (place) item->setGeometry(QRect(QPoint(x, y), size));
    x += size.width() + spacing();
    rowHeight = std::max(rowHeight, size.height());
  }
  const QMargins m = contentsMargins();
  return y + rowHeight - rect.y() + m.bottom();
}

}  // namespace mhaviz::ui
