#include "window/reduced_zoom.hpp"

#include <QTimer>

#include "compute/computation.hpp"
#include "render/heatmap_grid.hpp"

namespace mhaviz::ui {

ReducedZoom::ReducedZoom(HeatmapGrid* grid, Computation* computation, QObject* parent)
    : QObject(parent), m_grid(grid), m_computation(computation), m_settle(new QTimer(this)) {
  m_settle->setSingleShot(true);
  m_settle->setInterval(kSettleMs);
  connect(m_settle, &QTimer::timeout, this, [this] {
    m_computation->zoomReduced(m_row0, m_rowEnd, m_col0, m_colEnd);
  });
  connect(m_grid, &HeatmapGrid::visibleCellsChanged, this, &ReducedZoom::onVisibleCells);
  connect(m_grid, &HeatmapGrid::zoomOutAtWhole, this, [this] {
    m_settle->stop();
    m_computation->zoomReducedOut();
  });
  // A new result (another region, other settings) starts from its whole picture.
  connect(m_computation, &Computation::resultReady, m_settle, &QTimer::stop);
}

void ReducedZoom::onVisibleCells(int row0, int rowEnd, int col0, int colEnd) {
  if (m_computation->reducedRegion().blockRows == 0) return;  // the maps are shown in full
  m_row0 = row0;
  m_rowEnd = rowEnd;
  m_col0 = col0;
  m_colEnd = colEnd;
  m_settle->start();
}

}  // namespace mhaviz::ui
