// HeatmapGrid: handing the queued work to the background preparation (render/grid_preparation.hpp)
// and showing its output on the GUI thread.

#include <qcustomplot.h>

#include "render/grid_preparation.hpp"
#include "render/heatmap_grid.hpp"
#include "render/heatmap_grid_state.hpp"

namespace mhaviz::ui {

void HeatmapGrid::launchPreparation(bool withStats) {
  m_preparation->launch(m_data, m_view.reduce, withStats,
                        [this](const PreparedMaps& prepared) { applyPrepared(prepared); });
}

void HeatmapGrid::applyPrepared(const PreparedMaps& prepared) {
  if (m_state->views.empty()) return;
  GridState& s = *m_state;
  if (prepared.withStats) {
    if (prepared.stats.maps.size() != m_data.maps.size()) return;
    m_data.lo = prepared.stats.lo;
    m_data.hi = prepared.stats.hi;
    m_data.statsReady = true;
    for (std::size_t i = 0; i < m_data.maps.size(); ++i) {
      const MapData& from = prepared.stats.maps[i];
      MapData& to = m_data.maps[i];
      to.finiteLo = from.finiteLo;
      to.finiteHi = from.finiteHi;
      to.hasFinite = from.hasFinite;
      to.hasNan = from.hasNan;
      if (to.source.derive) to.source = from.source;  // derived by the task
    }
    m_preparation->statsArrived();
    applyRanges();
  }
  for (std::size_t k = 0; k < prepared.grids.size(); ++k) {
    const auto index = static_cast<std::size_t>(prepared.indices[k]);
    if (index >= s.views.size() || prepared.grids[k].rows == 0) continue;
    s.views[index].shown = prepared.grids[k];
    s.views[index].hasShown = true;
    fillMap(static_cast<int>(index));
  }
  // Hidden (the model view or another workspace in front), the picture is drawn when the grid
  // is shown: colouring and painting every map on the GUI thread stalled the model view's
  // opening, which makes a layer the session behind it, by tens of milliseconds.
  if (isVisible()) {
    m_plot->replot();
  } else {
    s.replotWhenShown = true;
  }
  if (m_preparation->awaitingPicture()) {
    m_preparation->setAwaitingPicture(false);
    m_lastRenderMs = static_cast<double>(m_changeTimer.nsecsElapsed()) / 1e6;
    emit pictureShown();
  }
  queueRender();  // the view may have changed (zoom, resize) while the task ran
}

}  // namespace mhaviz::ui
