#include "render/result_maps.hpp"

#include <algorithm>
#include <cstdint>

#include "mhaviz/core/base/errors.hpp"
#include "render/heatmap_grid.hpp"

namespace mhaviz::ui {
namespace {

// Maps with more cells than this in total are described (not copied) and, with background
// preparation on, summarised and reduced off the GUI thread.
constexpr std::int64_t kDirectCells = 1 << 20;

std::int64_t totalCells(const mhaviz::ForwardResult& r, const ViewOptions& view) {
  const std::int64_t side = std::max({r.L, r.Sx, r.E, r.hd, std::int64_t{1}});
  const std::int64_t maps = view.soloHead >= 0 ? 1 : r.H + 1;
  return side * side * maps;  // an upper bound: cheap and enough to choose the path
}

}  // namespace

ResultMaps resultMaps(std::shared_ptr<const mhaviz::ForwardResult> result, const ViewOptions& view,
                      std::shared_ptr<const mhaviz::ResultMeasures> measures) {
  ResultMaps out;
  if (result) {
    try {
      // Big maps are only described: their cells are read from the result (kept alive by
      // data.result) when reduced, never copied; the scores, which the pass does not store, are
      // derived by the grid (in its background preparation when that is on).
      const bool big = totalCells(*result, view) > kDirectCells;
      out.data = extractStage(*result, view, big ? ExtractMode::deferred : ExtractMode::copy,
                              measures.get());
    } catch (const mhaviz::InvalidInput& e) {
      out.data = StageData{};
      out.whyEmpty = QString::fromStdString(e.what());
    }
  }
  out.data.result = std::move(result);
  out.data.measures = std::move(measures);
  return out;
}

bool sameMaps(const ViewOptions& a, const ViewOptions& b) {
  return a.batch == b.batch && a.stage == b.stage && a.soloHead == b.soloHead &&
         a.showAverage == b.showAverage && a.keyLabels == b.keyLabels;
}

void showResult(HeatmapGrid& grid, std::shared_ptr<const mhaviz::ForwardResult> result,
                const ViewOptions& view, std::shared_ptr<const mhaviz::ResultMeasures> measures) {
  ResultMaps maps = resultMaps(std::move(result), view, std::move(measures));
  grid.setStageData(std::move(maps.data), view, maps.whyEmpty);
}

void showView(HeatmapGrid& grid, const ViewOptions& view) {
  if (grid.result() && !sameMaps(grid.view(), view)) {
    showResult(grid, grid.result(), view, grid.stageData().measures);
  } else {
    grid.setView(view);
  }
}

}  // namespace mhaviz::ui
