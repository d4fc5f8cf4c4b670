#pragma once
// Private to HeatmapGrid and its parts: what the grid shows (GridContent, owned by the grid) and
// the QCustomPlot objects of its current picture (GridState, built by GridPicture). All pointers
// in GridState are owned by the QCustomPlot (layout elements, plottables, items); GridState only
// refers to them. Including this header also gives the map texts and the wrapping GridLayout
// uses (render/map_text.hpp).

#include <qcustomplot.h>

#include <QString>
#include <memory>
#include <vector>

#include "render/map_text.hpp"
#include "render/reduce.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

class LegendKey;

/// Horizontal pixels kept free beside the caption's lines (and vertical room per caption part).
inline constexpr int kCaptionPad = 24;

/// What the grid shows: a stage's maps, the view they are drawn with, and why there are none.
/// The stage is shared with the background tasks that read it (GridPreparation), never copied
/// for them: a layer's maps made elsewhere hold tens of MB of cells (compare's A, B and B - A).
struct GridContent {
  const StageData& data() const { return *m_data; }
  /// The stage to change (GUI thread): copied first while a task still reads it.
  StageData& edit() {
    if (m_data.use_count() > 1) m_data = std::make_shared<StageData>(*m_data);
    return *m_data;
  }
  void set(StageData stage) { m_data = std::make_shared<StageData>(std::move(stage)); }
  /// The stage as it is now, for a task to read.
  std::shared_ptr<const StageData> shared() const { return m_data; }

  ViewOptions view;
  QString message;  // shown instead of maps (why there are none)

 private:
  std::shared_ptr<StageData> m_data = std::make_shared<StageData>();
};

/// One map of the picture.
struct MapView {
  QCPAxisRect* rect = nullptr;
  QCPColorMap* colorMap = nullptr;
  QCPItemPixmap* maskOverlay = nullptr;  // masked cells, drawn over the colour map
  MapText* title = nullptr;
  MapText* note = nullptr;    // under the title: "reduced 2048x2048 -> 512x512 (mean)"
  QCPAxis* extraX = nullptr;  // tick labels of the bias_k / zero columns
  QCPAxis* extraY = nullptr;  // tick labels of the bias_k / zero rows (k, v)
  QCPRange valueRange;        // colour range of this map
  ReducedGrid shown;          // region and blocks the colour map holds now
  bool hasShown = false;
};

/// The picture: its maps, the shared colour scale (in a column of its own between two spacers,
/// so that it can stay in view when the maps scroll) and the legend.
struct GridState {
  std::vector<MapView> views;
  QCPColorScale* scale = nullptr;
  QString scaleTitle;  // the colour scale's title before it is wrapped to the bar
  QCPLayoutGrid* legend = nullptr;
  QCPLayoutGrid* body = nullptr;            // maps and colour scale side by side
  QCPLayoutElement* scaleOffset = nullptr;  // above the scale: keeps it in view when scrolled
  QCPLayoutElement* scaleRest = nullptr;    // below the scale when the maps scroll
  QCPMarginGroup* margins = nullptr;
  LegendKey* nanKey = nullptr;  // legend entry whose text says why NaN appears
};

}  // namespace mhaviz::ui
