#include <qcustomplot.h>

#include <QApplication>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "render/grid_input.hpp"
#include "render/heatmap_grid.hpp"  // HeatmapGrid::tr: the hover texts keep their translations
#include "render/heatmap_grid_state.hpp"

namespace mhaviz::ui {
namespace {

QString describeKey(const ColumnInfo& info, int index, bool tokens) {
  switch (info.kind) {
    case KeyKind::bias_k:
      return QObject::tr("key bias_k (appended by add_bias_kv)");
    case KeyKind::zero:
      return QObject::tr("key zero (all-zero key appended by add_zero_attn)");
    case KeyKind::source:
      break;
  }
  if (tokens && info.label != QString::number(index)) {
    return QObject::tr("key %1 \u201c%2\u201d").arg(index).arg(info.label);
  }
  return QObject::tr("key %1").arg(info.label);
}

QString formatValue(double v) {
  if (std::isnan(v)) return QStringLiteral("NaN");
  if (std::isinf(v)) return v < 0 ? QStringLiteral("-inf") : QStringLiteral("inf");
  return QString::number(v, 'g', 4);
}

// Clamps `range` into [-0.5, count-0.5] keeping its size (at most the whole map, at least one
// cell).
QCPRange clampRange(QCPRange range, int count) {
  const QCPRange full(-0.5, count - 0.5);
  if (range.size() >= full.size()) return full;
  if (range.size() < 1) {
    const double c = range.center();
    range = QCPRange(c - 0.5, c + 0.5);
  }
  if (range.lower < full.lower) range += full.lower - range.lower;
  if (range.upper > full.upper) range -= range.upper - full.upper;
  return range;
}

}  // namespace

GridInput::GridInput(QCustomPlot* plot, QScrollArea* scroll, const GridState& state,
                     const GridContent& content, QObject* parent)
    : QObject(parent),
      m_plot(plot),
      m_scroll(scroll),
      m_state(state),
      m_content(content),
      m_view(content.view) {
  m_plot->installEventFilter(this);
  connect(m_plot, &QCustomPlot::mouseMove, this, &GridInput::onMouseMove);
  connect(m_plot, &QCustomPlot::mousePress, this, &GridInput::onMousePress);
  connect(m_plot, &QCustomPlot::mouseRelease, this, &GridInput::onMouseRelease);
}

void GridInput::forgetHover() {
  if (!m_tip.isEmpty() && QToolTip::isVisible() && QToolTip::text() == m_tip) QToolTip::hideText();
  m_tip.clear();
  m_lastHoverMap = m_lastHoverRow = m_lastHoverCol = -1;
}

bool GridInput::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_plot && (event->type() == QEvent::Leave || event->type() == QEvent::Hide))
    forgetHover();  // the pointer left the maps (or they left the screen): not left floating
  QPointF cell;
  if (watched == m_plot && event->type() == QEvent::Wheel &&
      wheelZoomsOutAtWhole(*static_cast<QWheelEvent*>(event), &cell)) {
    emit zoomOutAtWhole(cell);
    return true;  // nothing further out to show here
  }
  if (watched == m_plot && event->type() == QEvent::Wheel &&
      m_scroll->verticalScrollBar()->isVisible()) {
    // Over a map the wheel zooms; elsewhere (titles, gaps, legend) it scrolls the maps.
    const auto* wheel = static_cast<QWheelEvent*>(event);
    if (m_plot->axisRectAt(wheel->position()) == nullptr) {
      QApplication::sendEvent(m_scroll->verticalScrollBar(), event);
      return true;
    }
  }
  return QObject::eventFilter(watched, event);
}

void GridInput::onAxisRangeChanged(int index, bool horizontal) {
  const GridState& s = m_state;
  if (m_syncing || index >= static_cast<int>(s.views.size())) return;
  m_syncing = true;
  const MapData& m = m_content.data().maps[static_cast<std::size_t>(index)];
  const QCPAxis::AxisType type = horizontal ? QCPAxis::atBottom : QCPAxis::atLeft;
  QCPAxis* changed = s.views[static_cast<std::size_t>(index)].rect->axis(type);
  const QCPRange range = clampRange(changed->range(), horizontal ? m.cols : m.rows);
  // All maps of a stage have the same shape: zoom and pan them together.
  for (const MapView& v : s.views) {
    v.rect->axis(type)->setRange(range);
    QCPAxis* extra = horizontal ? v.extraX : v.extraY;
    if (extra != nullptr) extra->setRange(range);
  }
  m_syncing = false;
  emit rangesChanged();
  emit visibleCellsChanged(visibleCells());
}

QRectF GridInput::visibleCells() const {
  if (m_state.views.empty() || m_content.data().maps.empty()) return {};
  // Cell i spans [i - 0.5, i + 0.5] on an axis; rows count down from the top, the y axis up.
  const MapView& v = m_state.views.front();
  const QCPRange xr = v.rect->axis(QCPAxis::atBottom)->range();
  const QCPRange yr = v.rect->axis(QCPAxis::atLeft)->range();
  const double rows = m_content.data().maps.front().rows;
  return QRectF(QPointF(xr.lower + 0.5, rows - (yr.upper + 0.5)),
                QPointF(xr.upper + 0.5, rows - (yr.lower + 0.5)));
}

void GridInput::showCells(const QRectF& cells) {
  if (m_state.views.empty() || m_content.data().maps.empty()) return;
  const double rows = m_content.data().maps.front().rows;
  QCPAxisRect* rect = m_state.views.front().rect;
  rect->axis(QCPAxis::atBottom)->setRange(cells.left() - 0.5, cells.right() - 0.5);
  rect->axis(QCPAxis::atLeft)->setRange(rows - cells.bottom() - 0.5, rows - cells.top() - 0.5);
}

bool GridInput::wheelZoomsOutAtWhole(const QWheelEvent& wheel, QPointF* cell) const {
  if (wheel.angleDelta().y() >= 0 || m_state.views.empty() || m_content.data().maps.empty())
    return false;
  QCPAxisRect* over = m_plot->axisRectAt(wheel.position());
  if (over == nullptr) return false;
  const MapData& m = m_content.data().maps.front();
  const MapView& v = m_state.views.front();
  const QCPRange xr = v.rect->axis(QCPAxis::atBottom)->range();
  const QCPRange yr = v.rect->axis(QCPAxis::atLeft)->range();
  // All of the map, or all but part of a cell (a recomputed region shows the cells asked for,
  // rounded out to whole cells).
  if (xr.size() < m.cols - 1.0 || yr.size() < m.rows - 1.0) return false;
  // The point under the cursor, in cells from the map's top-left corner.
  *cell = QPointF(over->axis(QCPAxis::atBottom)->pixelToCoord(wheel.position().x()) + 0.5,
                  m.rows - (over->axis(QCPAxis::atLeft)->pixelToCoord(wheel.position().y()) + 0.5));
  return true;
}

bool GridInput::cellAt(const QPointF& pos, int* map, int* row, int* col) const {
  for (std::size_t i = 0; i < m_state.views.size(); ++i) {
    const MapView& v = m_state.views[i];
    if (!v.rect->rect().contains(pos.toPoint())) continue;
    const MapData& m = m_content.data().maps[i];
    const double kx = v.rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x());
    const double ky = v.rect->axis(QCPAxis::atLeft)->pixelToCoord(pos.y());
    const int c = static_cast<int>(std::lround(kx));
    const int yd = static_cast<int>(std::lround(ky));
    const int r = m.rows - 1 - yd;
    if (c < 0 || c >= m.cols || r < 0 || r >= m.rows) return false;
    *map = static_cast<int>(i);
    *row = r;
    *col = c;
    return true;
  }
  return false;
}

QString GridInput::describeCell(int map, int row, int col) const {
  const MapData& m = m_content.data().maps[static_cast<std::size_t>(map)];
  const double value = m.valueAt(row, col);
  const bool tokens = !m_view.keyLabels.isEmpty();
  QStringList parts;
  parts << m.shownTitle;
  // A parameter matrix names its own axes (output feature down, input feature across).
  const auto axisPosition = [](const QString& axis, int position) {
    //: hover text on a weight matrix: an axis name and a position ("output feature 11")
    return HeatmapGrid::tr("%1 %2").arg(axis).arg(position);
  };
  if (!m_content.data().rowAxis.isEmpty()) {
    parts << axisPosition(m_content.data().rowAxis, m.rowBase + row);
  } else if (m.rowMeaning == RowMeaning::head) {
    parts << HeatmapGrid::tr("head %1").arg(row);
  } else if (m.rowMeaning == RowMeaning::all) {
    // the title says what the one row is
  } else if (!m.rowsInfo.empty()) {
    parts << describeKey(m.rowsInfo[static_cast<std::size_t>(row)], row, tokens);
  } else if (row < m_view.queryLabels.size() && !m_view.queryLabels[row].isEmpty()) {
    parts << HeatmapGrid::tr("query %1 \u201c%2\u201d").arg(row).arg(m_view.queryLabels[row]);
  } else {
    parts << HeatmapGrid::tr("query %1").arg(row);
  }
  const bool keyCols = m_view.stage == Stage::weights ||
                       m_view.stage == Stage::weights_before_dropout ||
                       m_view.stage == Stage::raw_scores || m_view.stage == Stage::capped_scores ||
                       m_view.stage == Stage::mask || m_view.stage == Stage::scores ||
                       m_view.stage == Stage::value_norms || m_view.stage == Stage::value_zeroing ||
                       m_view.stage == Stage::sink_scores;
  if (!m_content.data().columnAxis.isEmpty()) {
    parts << axisPosition(m_content.data().columnAxis, col);
  } else if (keyCols && static_cast<std::size_t>(col) < m.columns.size()) {
    parts << describeKey(m.columns[static_cast<std::size_t>(col)], col, tokens);
  } else if (m_view.stage == Stage::merged || m_view.stage == Stage::output) {
    parts << HeatmapGrid::tr("feature %1").arg(col);
  } else {
    parts << HeatmapGrid::tr("dim %1").arg(col);
  }
  parts << m_content.data().shownUnit + QLatin1Char(' ') + formatValue(value);
  if (m.maskedAt(row, col)) {
    const bool reduced =
        m_content.data().result != nullptr && m_content.data().result->is_reduced();
    parts << (reduced ? HeatmapGrid::tr("masked: every weight of the block is 0")
                      : HeatmapGrid::tr("masked (-inf in the mask)"));
  }
  if (std::isnan(value)) {
    parts << HeatmapGrid::tr(
        "NaN: every key of this query is masked, so softmax divides 0 by 0 "
        "(add_zero_attn or add_bias_kv add a key that is never masked)");
  }
  const MapView& v = m_state.views[static_cast<std::size_t>(map)];
  if (v.hasShown && v.shown.reduced()) {
    parts << HeatmapGrid::tr("drawn as the %1 of %2x%3 cells; zoom in for single cells")
                 .arg(m_view.reduce == Reduce::mean ? HeatmapGrid::tr("mean")
                                                    : HeatmapGrid::tr("max"))
                 .arg(v.shown.rowBlock)
                 .arg(v.shown.colBlock);
  }
  return parts.join(QStringLiteral(" \u00b7 "));
}

void GridInput::onMouseMove(QMouseEvent* event) {
  if (event->buttons() != Qt::NoButton) return;  // dragging
  int map = -1, row = -1, col = -1;
  if (!cellAt(event->position(), &map, &row, &col)) {
    if (m_lastHoverMap >= 0) QToolTip::hideText();
    m_lastHoverMap = m_lastHoverRow = m_lastHoverCol = -1;
    // A shortened title or note shows its full text.
    for (const MapView& v : m_state.views) {
      for (const MapText* t : {v.title, v.note}) {
        if (t->outerRect().contains(event->position().toPoint()) && t->isShortened()) {
          m_tip = t->text();
          QToolTip::showText(event->globalPosition().toPoint(), m_tip, m_plot);
          return;
        }
      }
    }
    return;
  }
  if (map == m_lastHoverMap && row == m_lastHoverRow && col == m_lastHoverCol) return;
  m_lastHoverMap = map;
  m_lastHoverRow = row;
  m_lastHoverCol = col;
  const MapData& m = m_content.data().maps[static_cast<std::size_t>(map)];
  const double value = m.valueAt(row, col);
  const QString description = describeCell(map, row, col);
  emit cellHovered(map, row, col, value, description);
  m_tip = description;
  QToolTip::showText(event->globalPosition().toPoint(), description, m_plot);
}

void GridInput::onMousePress(QMouseEvent* event) { m_pressPos = event->position().toPoint(); }

void GridInput::onMouseRelease(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  if ((event->position().toPoint() - m_pressPos).manhattanLength() > 3) return;  // a drag
  int map = -1, row = -1, col = -1;
  if (cellAt(event->position(), &map, &row, &col)) emit cellClicked(map, row, col);
}

}  // namespace mhaviz::ui
