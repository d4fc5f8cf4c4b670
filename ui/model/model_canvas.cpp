// The model view's canvas (model_canvas.hpp).
#include "model/model_canvas.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <utility>

#include "model/model_view.hpp"

namespace mhaviz::ui {

ModelCanvas::ModelCanvas(ModelView* view) : QWidget(view), m_view(view) {
  setObjectName(QStringLiteral("modelCanvas"));
  setMinimumSize(240, 160);
  setMouseTracking(true);
}

std::optional<ModelGridLayout> ModelCanvas::layout() const {
  if (!gridShown || !m_view->loaded() || image.isNull()) return std::nullopt;
  return gridLayout;
}

void ModelCanvas::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  if (image.isNull()) return;
  p.drawImage(QPoint(0, 0), image);
  const auto g = layout();
  const auto [layer, head] = m_view->selected();
  if (!g || layer < 0 || layer >= g->layers) return;
  QRect outline = g->mapRect(layer, std::max(head, 0));
  if (head < 0) {  // the whole layer
    for (int h = 1; h < g->heads; ++h) outline = outline.united(g->mapRect(layer, h));
  }
  p.setPen(QPen(palette().color(QPalette::Highlight), 3));
  p.setBrush(Qt::NoBrush);
  // Around the maps, but its top on their first row: the layer's title ends just above them.
  p.drawRect(outline.adjusted(-2, 0, 1, 1));
}

// Resizes come in bursts (a dock shown, the scroll bar appearing): one redraw once they end.
void ModelCanvas::resizeEvent(QResizeEvent*) { m_view->m_resized.start(); }

void ModelCanvas::mouseMoveEvent(QMouseEvent* e) {
  const auto g = layout();
  const QPoint at = e->position().toPoint();
  setCursor(g && g->hit(at).valid() ? Qt::PointingHandCursor : Qt::ArrowCursor);
  QString text = g ? m_view->cellText(g->cell(at)) : QString();
  for (int layer = 0; g && text.isEmpty() && layer < g->layers; ++layer) {
    if (g->rowTitle(layer).contains(at)) text = m_view->layerText(layer);
  }
  setToolTip(text);
  emit m_view->hovered(text);
}

void ModelCanvas::leaveEvent(QEvent*) { emit m_view->hovered({}); }

void ModelCanvas::mousePressEvent(QMouseEvent* e) {
  m_doubleClicked = false;  // a release lost to another widget does not mute the next click
  QWidget::mousePressEvent(e);
}

void ModelCanvas::mouseReleaseEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  // The first click of the pair selected the map already.
  if (std::exchange(m_doubleClicked, false)) return;
  const auto g = layout();
  if (!g) return;
  const ModelGridHit hit = g->hit(e->position().toPoint());
  if (hit.valid()) emit m_view->layerSelected(hit.layer, hit.head);
}

void ModelCanvas::mouseDoubleClickEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  m_doubleClicked = true;
  const auto g = layout();
  if (!g) return;
  const ModelGridHit hit = g->hit(e->position().toPoint());
  if (hit.valid()) emit m_view->layerChosen(hit.layer, hit.head);
}

}  // namespace mhaviz::ui
