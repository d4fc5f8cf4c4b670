#pragma once
// Internal to the stages layer: what extraction (stage_data.cpp), cell reads (map_cells.cpp)
// and text (stage_text.cpp) share.

#include <QStringList>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "mhaviz/core/forward/result.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

inline std::size_t toSize(std::int64_t v) {
  return static_cast<std::size_t>(std::max<std::int64_t>(v, 0));
}

/// The labels of the result's S' key columns (source keys, then bias_k / zero).
std::vector<ColumnInfo> keyColumns(const mhaviz::ForwardResult& result, const QStringList& labels);
/// Columns labelled 0..n-1.
std::vector<ColumnInfo> indexColumns(std::int64_t n);
/// Sets data.unit / shownUnit: what a value of the stage is, for the colour scale and hover text.
void setStageUnit(StageData& data, Stage stage);

}  // namespace mhaviz::ui
