#pragma once
// Where the heatmap grid's picture goes at the grid's size: the arrangement GridLayout (the
// arithmetic) gives for the size in view, applied to the plot and its maps, and the plot laid out
// now — the axis rects at their pixel sizes, the tick labels that fit them, the colour scale in
// view and its title wrapped to the bar. GUI thread.

#include "render/grid_layout.hpp"

class QCustomPlot;

namespace mhaviz::ui {

class GridColourScale;
class GridViewport;
struct GridContent;
struct GridState;

class GridGeometry {
 public:
  /// Everything given is the grid's and outlives this object.
  GridGeometry(QCustomPlot* plot, GridLayout& layout, const GridViewport& viewport,
               GridColourScale& colours, GridState& state, const GridContent& content);

  /// Where the content's maps go at the size in view (GridLayout::arrange).
  GridArrangement fitting();
  /// The arrangement the picture has now.
  const GridArrangement& current() const { return m_current; }
  /// Makes `arrangement` current: the plot's size and every map's size and title width.
  void apply(const GridArrangement& arrangement);
  /// Lays the plot out now so that the axis rects have their pixel sizes.
  void layoutNow();
  /// The tick labels of every map that fit its visible range and pixel size.
  void updateTicks();
  /// layoutNow, the tick labels for the sizes it gave, and layoutNow again for the margins
  /// they take.
  void layoutWithTicks();

 private:
  QCustomPlot* m_plot;
  GridLayout& m_layout;
  const GridViewport& m_viewport;
  GridColourScale& m_colours;
  GridState& m_state;
  const GridContent& m_content;
  GridArrangement m_current;  // columns, map and plot sizes of the picture
};

}  // namespace mhaviz::ui
