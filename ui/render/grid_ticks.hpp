#pragma once
// Tick labels of one map that fit its visible range and pixel size: every n-th index or token
// (turned on its side when tokens are wider than a cell), and the appended bias_k / zero keys
// on an axis of their own. GUI thread.

#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"

class QCPRange;
class QFont;

namespace mhaviz::ui {

struct MapView;

/// Cell index range [first, last] of `count` cells visible in an axis range (cell i spans
/// [i - 0.5, i + 0.5]).
void visibleCells(const QCPRange& range, int count, int* first, int* last);

/// Pixels the column labels of `m` (drawn in `font`) take under a map `width` pixels wide (with
/// `left` pixels of margin beside it) beyond one line each: token labels turned on their side
/// when wider than a column, the bias_k / zero label when it cannot stand upright. The grid's
/// layout keeps that room under every map of a candidate arrangement (whether labels turn
/// depends on the map's width, and the map's height on the room under it).
int turnedLabelsHeight(const MapData& m, const ViewOptions& view, const QFont& font, int width,
                       int left);

/// Sets the tick labels of map `v` (showing `m`) for its current ranges and size.
void updateMapTicks(MapView& v, const MapData& m, const ViewOptions& view);

}  // namespace mhaviz::ui
