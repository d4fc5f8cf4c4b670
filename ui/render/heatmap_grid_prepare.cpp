// HeatmapGrid: preparing a picture off the GUI thread (background preparation): the statistics
// and screen-sized reductions of big maps as a background task (tasks/latest_task.hpp), and
// showing its output on the GUI thread.

#include <qcustomplot.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "mhaviz/core/parallel.hpp"
#include "render/heatmap_grid.hpp"
#include "render/heatmap_grid_state.hpp"
#include "render/reduce.hpp"
#include "tasks/latest_task.hpp"

namespace mhaviz::ui {

void HeatmapGrid::launchPreparation(bool withStats) {
  m_preparing = withStats;
  auto jobs = std::move(m_pendingJobs);
  m_pendingJobs.clear();
  // The task owns copies of everything it reads; the shared result keeps the tensors that the
  // described maps point into alive.
  // An older task's output would be replaced anyway: starting this one cancels it.
  m_preparation->start([this, result = m_result, data = m_data, jobs = std::move(jobs),
                        rule = m_view.reduce, withStats](const TaskScope& scope) mutable {
    const std::atomic<bool>* cancel = scope.cancelFlag();
    auto out = std::make_shared<PreparedMaps>();
    out->withStats = withStats;
    out->indices.resize(jobs.size());
    out->grids.resize(jobs.size());
    // One reading of each map: a reduction of a whole map gathers its statistics on the way;
    // only maps without one (zoomed in) are read for their statistics alone, as extra items.
    const std::size_t maps = data.maps.size();
    std::vector<CellStats> stats(withStats ? maps : 0);
    std::vector<int> statsOf(jobs.size(), -1);  // the map whose statistics job k gathers
    std::vector<int> alone;                     // maps read for their statistics only
    if (withStats) {
      std::vector<char> covered(maps, 0);
      for (std::size_t k = 0; k < jobs.size(); ++k) {
        const PendingReduction& j = jobs[k];
        const MapData& m = data.maps[static_cast<std::size_t>(j.map)];
        if (j.row0 == 0 && j.col0 == 0 && j.rows == m.rows && j.cols == m.cols &&
            covered[static_cast<std::size_t>(j.map)] == 0) {
          covered[static_cast<std::size_t>(j.map)] = 1;
          statsOf[k] = j.map;
        }
      }
      for (std::size_t i = 0; i < maps; ++i) {
        if (covered[i] == 0) alone.push_back(static_cast<int>(i));
      }
    }
    // From the last, as computeStats: the head average's map costs the most.
    const auto items = static_cast<std::int64_t>(jobs.size() + alone.size());
    mhaviz::parallel_for(items, mhaviz::thread_count(0, items), [&](std::int64_t n) {
      const auto k = static_cast<int>(items - 1 - n);
      if (static_cast<std::size_t>(k) >= jobs.size()) {
        const auto i = static_cast<std::size_t>(alone[static_cast<std::size_t>(k) - jobs.size()]);
        gatherStats(data.maps[i], stats[i], cancel);
        return;
      }
      const PendingReduction& j = jobs[static_cast<std::size_t>(k)];
      const int own = statsOf[static_cast<std::size_t>(k)];
      out->indices[static_cast<std::size_t>(k)] = j.map;
      out->grids[static_cast<std::size_t>(k)] =
          reduceRegion(data.maps[static_cast<std::size_t>(j.map)], j.row0, j.col0, j.rows, j.cols,
                       j.rowBlock, j.colBlock, rule, cancel,
                       own >= 0 ? &stats[static_cast<std::size_t>(own)] : nullptr);
    });
    if (cancel->load()) return;
    if (withStats) {
      applyStats(data, stats);
      for (MapData& m : data.maps) m.columns.clear();  // only the statistics are read
      out->stats = std::move(data);
    }
    scope.post([this, out] { applyPrepared(*out); });
  });
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
    }
    m_preparing = false;
    applyRanges();
  }
  for (std::size_t k = 0; k < prepared.grids.size(); ++k) {
    const auto index = static_cast<std::size_t>(prepared.indices[k]);
    if (index >= s.views.size() || prepared.grids[k].rows == 0) continue;
    s.views[index].shown = prepared.grids[k];
    s.views[index].hasShown = true;
    fillMap(static_cast<int>(index));
  }
  m_plot->replot();
  if (m_awaitingPicture) {
    m_awaitingPicture = false;
    m_lastRenderMs = static_cast<double>(m_changeTimer.nsecsElapsed()) / 1e6;
    emit pictureShown();
  }
  queueRender();  // the view may have changed (zoom, resize) while the task ran
}

}  // namespace mhaviz::ui
