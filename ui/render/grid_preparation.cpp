#include "render/grid_preparation.hpp"

#include <cstdint>
#include <memory>
#include <vector>

#include "mhaviz/core/base/parallel.hpp"
#include "tasks/latest_task.hpp"

namespace mhaviz::ui {
namespace {

// The task's body: one reading of each map. A reduction of a whole map gathers its statistics
// on the way; only maps without one (zoomed in) are read for their statistics alone, as extra
// items. Null when cancelled. `data` is the grid's, shared and read only: a map still to derive
// (the scores of a deferred extraction, one product per head) is derived in a copy of its own.
std::shared_ptr<PreparedMaps> prepare(const StageData& data,
                                      const std::vector<PendingReduction>& jobs, Reduce rule,
                                      bool withStats, const std::atomic<bool>* cancel) {
  const std::size_t maps = data.maps.size();
  StageData derived;  // copies of the maps to derive (described: no cells of their own)
  std::vector<const MapData*> map(maps);
  for (std::size_t i = 0; i < maps; ++i) {
    if (data.maps[i].source.derive) derived.maps.push_back(data.maps[i]);
  }
  deriveMaps(derived);
  for (std::size_t i = 0, d = 0; i < maps; ++i)
    map[i] = data.maps[i].source.derive ? &derived.maps[d++] : &data.maps[i];
  if (cancel->load()) return nullptr;
  auto out = std::make_shared<PreparedMaps>();
  out->withStats = withStats;
  out->indices.resize(jobs.size());
  out->grids.resize(jobs.size());
  std::vector<CellStats> stats(withStats ? maps : 0);
  std::vector<int> statsOf(jobs.size(), -1);  // the map whose statistics job k gathers
  std::vector<int> alone;                     // maps read for their statistics only
  if (withStats) {
    std::vector<char> covered(maps, 0);
    for (std::size_t k = 0; k < jobs.size(); ++k) {
      const PendingReduction& j = jobs[k];
      const MapData& m = *map[static_cast<std::size_t>(j.map)];
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
      gatherStats(*map[i], stats[i], cancel);
      return;
    }
    const PendingReduction& j = jobs[static_cast<std::size_t>(k)];
    const int own = statsOf[static_cast<std::size_t>(k)];
    out->indices[static_cast<std::size_t>(k)] = j.map;
    out->grids[static_cast<std::size_t>(k)] = reduceRegion(
        *map[static_cast<std::size_t>(j.map)], j.row0, j.col0, j.rows, j.cols, j.rowBlock,
        j.colBlock, rule, cancel, own >= 0 ? &stats[static_cast<std::size_t>(own)] : nullptr);
  });
  if (cancel->load()) return nullptr;
  if (withStats) {
    // The statistics, and the sources of the maps derived here (takeStats reads nothing else).
    out->stats.isSigned = data.isSigned;
    out->stats.rangeFromData = data.rangeFromData;
    out->stats.maps.resize(maps);
    for (std::size_t i = 0; i < maps; ++i) {
      if (map[i] != &data.maps[i]) out->stats.maps[i].source = map[i]->source;
    }
    applyStats(out->stats, stats);
  }
  return out;
}

}  // namespace

bool takeStats(const PreparedMaps& prepared, StageData& data) {
  if (prepared.stats.maps.size() != data.maps.size()) return false;
  data.lo = prepared.stats.lo;
  data.hi = prepared.stats.hi;
  data.statsReady = true;
  for (std::size_t i = 0; i < data.maps.size(); ++i) {
    const MapData& from = prepared.stats.maps[i];
    MapData& to = data.maps[i];
    to.finiteLo = from.finiteLo;
    to.finiteHi = from.finiteHi;
    to.hasFinite = from.hasFinite;
    to.hasNan = from.hasNan;
    if (to.source.derive) to.source = from.source;  // derived by the task
  }
  return true;
}

GridPreparation::GridPreparation(QObject* context)
    : m_task(std::make_unique<LatestTask>(context)) {}

GridPreparation::~GridPreparation() = default;

void GridPreparation::launch(std::shared_ptr<const StageData> data, Reduce rule, bool withStats,
                             Deliver deliver) {
  m_preparing = withStats;
  auto jobs = std::move(m_jobs);
  m_jobs.clear();
  // The task shares the data (whose result keeps the tensors that the described maps point into
  // alive) and lets it go before its output is delivered, so that the grid, taking the
  // statistics, changes the data in place (GridContent::edit). An older task's output would be
  // replaced anyway: starting this one cancels it.
  m_task->start([data = std::move(data), jobs = std::move(jobs), rule, withStats,
                 deliver = std::move(deliver)](const TaskScope& scope) mutable {
    auto out = prepare(*data, jobs, rule, withStats, scope.cancelFlag());
    data.reset();
    if (out == nullptr) return;
    scope.post([deliver, out] { deliver(*out); });
  });
}

void GridPreparation::cancel() {
  m_task->cancel();  // output of tasks for the previous data is dropped
  m_preparing = false;
  m_jobs.clear();
}

}  // namespace mhaviz::ui
