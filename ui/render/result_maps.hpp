#pragma once
// From a result to the grid's data: which maps of a result the grid shows for a view, copied
// (small) or only described (big: read from the result when reduced), and the two ways the
// window hands them to a grid. GUI thread for the functions that take a grid.

#include <QString>
#include <memory>

#include "mhaviz/core/forward/result.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

class HeatmapGrid;

/// The maps of `result` under `view`, and why there are none when extraction refuses (a batch
/// element that does not exist, no value norms yet).
struct ResultMaps {
  StageData data;  // data.result is `result` (also when there are no maps)
  QString whyEmpty;
};

/// Extracts the maps; maps with many cells in total are described, not copied. No statistics
/// are computed here. `measures`: the result's measures, held beside it (null: none yet), for
/// the stages drawn from them; data.measures keeps them. Any thread.
ResultMaps resultMaps(std::shared_ptr<const mhaviz::ForwardResult> result, const ViewOptions& view,
                      std::shared_ptr<const mhaviz::ResultMeasures> measures = nullptr);

/// True when `a` and `b` show the same maps (batch, stage, head, average, key labels): only the
/// drawing differs.
bool sameMaps(const ViewOptions& a, const ViewOptions& b);

/// Shows `result` as described by `view` on `grid` (a null result: nothing to show yet), with
/// its `measures` for the stages drawn from them.
void showResult(HeatmapGrid& grid, std::shared_ptr<const mhaviz::ForwardResult> result,
                const ViewOptions& view,
                std::shared_ptr<const mhaviz::ResultMeasures> measures = nullptr);

/// Shows the grid's own data under another view: new maps from the grid's result (and its
/// measures) when the view
/// shows other maps, else the same maps drawn anew. Maps made elsewhere are only redrawn.
void showView(HeatmapGrid& grid, const ViewOptions& view);

}  // namespace mhaviz::ui
