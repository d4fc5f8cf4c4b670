#include "editors/mask_grid_view.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace mhaviz::ui {

namespace {
constexpr int kMargin = 4;
constexpr double kMaxCell = 22.0;
const QColor kMasked(40, 40, 48);      // bool True / -inf: hidden key
const QColor kOpen(245, 245, 240);     // bool False / 0: nothing added
const QColor kNegative(200, 60, 50);   // float, most negative finite
const QColor kPositive(40, 110, 200);  // float, most positive
QColor mix(const QColor& a, const QColor& b, double t) {
  const auto lerp = [t](int x, int y) {
    return static_cast<int>(std::lround(x + (y - x) * std::clamp(t, 0.0, 1.0)));
  };
  return {lerp(a.red(), b.red()), lerp(a.green(), b.green()), lerp(a.blue(), b.blue())};
}
}  // namespace

MaskGridView::MaskGridView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(false);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void MaskGridView::setValues(int rows, int cols, std::vector<double> values, bool boolean) {
  m_rows = rows;
  m_cols = cols;
  m_values = std::move(values);
  m_boolean = boolean;
  m_message.clear();
  m_maxAbs = 0.0;
  for (double v : m_values) {
    if (std::isfinite(v)) m_maxAbs = std::max(m_maxAbs, std::abs(v));
  }
  if (m_maxAbs <= 0.0) m_maxAbs = 1.0;
  updateGeometry();
  update();
}

void MaskGridView::setMessage(const QString& message) {
  m_rows = m_cols = 0;
  m_values.clear();
  m_message = message;
  update();
}

void MaskGridView::setEditable(bool editable) {
  m_editable = editable;
  setCursor(editable ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

double MaskGridView::valueAt(int i, int j) const {
  if (i < 0 || j < 0 || i >= m_rows || j >= m_cols) return std::numeric_limits<double>::quiet_NaN();
  return m_values[static_cast<std::size_t>(i * m_cols + j)];
}

QSize MaskGridView::sizeHint() const { return {260, 220}; }
QSize MaskGridView::minimumSizeHint() const { return {120, 100}; }

QRectF MaskGridView::gridRect() const {
  if (m_rows <= 0 || m_cols <= 0) return {};
  const double w = width() - 2.0 * kMargin;
  const double h = height() - 2.0 * kMargin;
  const double cell = std::min({kMaxCell, w / m_cols, h / m_rows});
  return {kMargin, kMargin, cell * m_cols, cell * m_rows};
}

QPoint MaskGridView::cellCenter(int i, int j) const {
  const QRectF r = gridRect();
  if (r.isEmpty()) return {};
  const double cw = r.width() / m_cols;
  const double ch = r.height() / m_rows;
  return QPointF(r.left() + (j + 0.5) * cw, r.top() + (i + 0.5) * ch).toPoint();
}

bool MaskGridView::cellAt(const QPointF& pos, QPoint* cell) const {
  const QRectF r = gridRect();
  if (r.isEmpty() || !r.contains(pos)) return false;
  const int j =
      std::clamp(static_cast<int>((pos.x() - r.left()) / r.width() * m_cols), 0, m_cols - 1);
  const int i =
      std::clamp(static_cast<int>((pos.y() - r.top()) / r.height() * m_rows), 0, m_rows - 1);
  *cell = QPoint(j, i);
  return true;
}

QColor MaskGridView::colorFor(double v) const {
  if (std::isnan(v)) return {255, 0, 255};
  if (m_boolean) return v != 0.0 ? kMasked : kOpen;
  if (std::isinf(v)) return v < 0 ? kMasked : kPositive.darker(150);
  if (v == 0.0) return kOpen;
  return mix(kOpen, v < 0 ? kNegative : kPositive, std::abs(v) / m_maxAbs);
}

void MaskGridView::paintEvent(QPaintEvent* /*event*/) {
  QPainter p(this);
  p.fillRect(rect(), palette().window());
  if (!m_message.isEmpty() || m_rows <= 0 || m_cols <= 0) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect().adjusted(6, 6, -6, -6), Qt::AlignCenter | Qt::TextWordWrap, m_message);
    return;
  }
  const QRectF r = gridRect();
  const double cw = r.width() / m_cols;
  const double ch = r.height() / m_rows;
  for (int i = 0; i < m_rows; ++i) {
    for (int j = 0; j < m_cols; ++j) {
      p.fillRect(QRectF(r.left() + j * cw, r.top() + i * ch, cw, ch), colorFor(valueAt(i, j)));
    }
  }
  if (cw >= 5.0) {
    p.setPen(QPen(QColor(180, 180, 180), 0));
    for (int j = 0; j <= m_cols; ++j)
      p.drawLine(QPointF(r.left() + j * cw, r.top()), QPointF(r.left() + j * cw, r.bottom()));
    for (int i = 0; i <= m_rows; ++i)
      p.drawLine(QPointF(r.left(), r.top() + i * ch), QPointF(r.right(), r.top() + i * ch));
  }
  p.setPen(QPen(QColor(255, 170, 0), 2));
  for (const QPoint& c : m_stroke) {
    p.drawRect(QRectF(r.left() + c.x() * cw, r.top() + c.y() * ch, cw, ch).adjusted(1, 1, -1, -1));
  }
}

void MaskGridView::mousePressEvent(QMouseEvent* event) {
  QPoint cell;
  if (!m_editable || event->button() != Qt::LeftButton || !cellAt(event->position(), &cell)) {
    QWidget::mousePressEvent(event);
    return;
  }
  m_stroke = {cell};
  emit cellPressed(cell.y(), cell.x());
  update();
}

void MaskGridView::mouseMoveEvent(QMouseEvent* event) {
  QPoint cell;
  if (m_stroke.isEmpty() || !cellAt(event->position(), &cell)) return;
  if (!m_stroke.contains(cell)) {
    m_stroke.append(cell);
    update();
  }
}

void MaskGridView::mouseReleaseEvent(QMouseEvent* event) {
  if (m_stroke.isEmpty()) {
    QWidget::mouseReleaseEvent(event);
    return;
  }
  const QVector<QPoint> cells = std::exchange(m_stroke, {});
  update();
  emit stroke(cells);
}

}  // namespace mhaviz::ui
