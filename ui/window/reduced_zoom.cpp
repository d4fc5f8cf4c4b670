#include "window/reduced_zoom.hpp"

#include <QTimer>
#include <algorithm>
#include <cmath>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "mhaviz/core/long_context/long_context.hpp"
#include "render/heatmap_grid.hpp"

namespace mhaviz::ui {
namespace {

// The wheel's step outside the reduced view (QCustomPlot's own).
constexpr double kDefaultNotchFactor = 0.85;

QRectF wholeMap(const ReducedRegion& r) {
  return QRectF(0, 0, static_cast<double>(r.Sx), static_cast<double>(r.L));
}

QRectF regionCells(const ReducedRegion& r) {
  return QRectF(QPointF(static_cast<double>(r.keyBegin), static_cast<double>(r.queryBegin)),
                QPointF(static_cast<double>(r.keyEnd), static_cast<double>(r.queryEnd)));
}

// `window` moved (not resized, unless larger) into `bounds`.
QRectF keptInside(QRectF window, const QRectF& bounds) {
  window.setWidth(std::min(window.width(), bounds.width()));
  window.setHeight(std::min(window.height(), bounds.height()));
  window.moveLeft(std::clamp(window.left(), bounds.left(), bounds.right() - window.width()));
  window.moveTop(std::clamp(window.top(), bounds.top(), bounds.bottom() - window.height()));
  return window;
}

}  // namespace

QRectF toWholeMap(const QRectF& cells, const ReducedRegion& r) {
  const auto key = [&r](double x) {
    return std::min(static_cast<double>(r.keyEnd),
                    static_cast<double>(r.keyBegin) + x * static_cast<double>(r.blockCols));
  };
  const auto query = [&r](double y) {
    return std::min(static_cast<double>(r.queryEnd),
                    static_cast<double>(r.queryBegin) + y * static_cast<double>(r.blockRows));
  };
  return QRectF(QPointF(key(cells.left()), query(cells.top())),
                QPointF(key(cells.right()), query(cells.bottom())));
}

QRectF toRegion(const QRectF& whole, const ReducedRegion& r) {
  const auto x = [&r](double key) {
    return (key - static_cast<double>(r.keyBegin)) / static_cast<double>(r.blockCols);
  };
  const auto y = [&r](double query) {
    return (query - static_cast<double>(r.queryBegin)) / static_cast<double>(r.blockRows);
  };
  return QRectF(QPointF(x(whole.left()), y(whole.top())),
                QPointF(x(whole.right()), y(whole.bottom())));
}

ReducedZoom::ReducedZoom(HeatmapGrid* grid, Document* document, Computation* computation,
                         QObject* parent)
    : QObject(parent),
      m_grid(grid),
      m_document(document),
      m_computation(computation),
      m_settle(new QTimer(this)) {
  m_settle->setSingleShot(true);
  m_settle->setInterval(kSettleMs);
  connect(m_settle, &QTimer::timeout, this, &ReducedZoom::request);
  connect(m_grid, &HeatmapGrid::visibleCellsChanged, this, &ReducedZoom::onVisibleCells);
  connect(m_grid, &HeatmapGrid::zoomOutAtWhole, this, &ReducedZoom::onZoomOutAtWhole);
  connect(m_document, &Document::changed, this, [this](Document::Changes what) {
    if (what & Document::Change::result) onResult();
  });
}

bool ReducedZoom::isSettling() const { return m_settle->isActive(); }

void ReducedZoom::onVisibleCells(const QRectF& cells) {
  const ReducedRegion& r = m_document->computed().region;
  if (r.blockRows == 0) return;  // the maps are shown in full
  const QRectF window = toWholeMap(cells, r).intersected(wholeMap(r));
  if (window.isEmpty()) return;
  // The whole map in view is the reduced view itself, not a zoom.
  const bool whole = window.width() >= static_cast<double>(r.Sx) - 0.5 &&
                     window.height() >= static_cast<double>(r.L) - 0.5;
  if (whole) {
    m_window.reset();
    m_settle->stop();
    return;
  }
  m_window = window;
  if (shownSuffices(window)) {
    m_settle->stop();
  } else {
    m_settle->start();
  }
}

void ReducedZoom::onZoomOutAtWhole(const QPointF& cell) {
  const ReducedRegion& r = m_document->computed().region;
  if (r.blockRows == 0 || r.whole()) return;
  // Widen the region in view about the point under the cursor, as one notch in would narrow it.
  const QPointF p = toWholeMap(QRectF(cell, cell), r).topLeft();
  const QRectF from = m_window.value_or(regionCells(r));
  const double grow = 1.0 / kNotchFactor;
  const QRectF widened(
      QPointF(p.x() - (p.x() - from.left()) * grow, p.y() - (p.y() - from.top()) * grow),
      QPointF(p.x() + (from.right() - p.x()) * grow, p.y() + (from.bottom() - p.y()) * grow));
  m_window = keptInside(widened, wholeMap(r));
  m_settle->start();
}

bool ReducedZoom::shownSuffices(const QRectF& window) const {
  const ReducedRegion& r = m_document->computed().region;
  const QRectF shown = regionCells(r);
  if (!shown.adjusted(-0.5, -0.5, 0.5, 0.5).contains(window)) return false;  // partly outside
  // The finest fold the maps' pixels can show of the window.
  const QSize pixels = m_grid->mapPixels().expandedTo(QSize(16, 16));
  const auto cells = [](double span) { return static_cast<std::int64_t>(std::ceil(span - 1e-6)); };
  return r.blockCols <= mhaviz::block_size(cells(window.width()), pixels.width()) &&
         r.blockRows <= mhaviz::block_size(cells(window.height()), pixels.height());
}

void ReducedZoom::request() {
  if (!m_window) return;
  const QRectF& w = *m_window;
  const auto down = [](double v) { return static_cast<qint64>(std::floor(v + 1e-6)); };
  const auto up = [](double v) { return static_cast<qint64>(std::ceil(v - 1e-6)); };
  // Folded to the maps' pixels: the picture shows the region without reducing it again.
  m_computation->zoomReduced(down(w.top()), up(w.bottom()), down(w.left()), up(w.right()),
                             m_grid->mapPixels().expandedTo(QSize(16, 16)));
}

void ReducedZoom::onResult() {
  const ReducedRegion& r = m_document->computed().region;
  m_grid->setWheelZoomFactor(r.blockRows != 0 ? kNotchFactor : kDefaultNotchFactor);
  if (r.blockRows == 0 || r.whole()) {
    m_window.reset();  // the whole map, or maps shown in full
    return;
  }
  if (!m_window) return;
  // The region arrives where the region in view was (the wheel may have turned meanwhile).
  const QRectF inView = m_window->intersected(regionCells(r));
  if (!inView.isEmpty()) m_grid->continueZoom(toRegion(inView, r));
}

}  // namespace mhaviz::ui
