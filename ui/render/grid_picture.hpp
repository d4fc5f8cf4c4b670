#pragma once
// The heatmap grid's picture built from its content: the caption, one cell per map (title,
// note, axis rect, colour map, mask overlay, the bias_k / zero separators and tick axes, axis
// titles), the shared colour scale and the legend, or the message that says why there are no
// maps. A new picture is built at the arrangement for the grid's size, measured, and built or
// sized again for the room its tick labels, scale and legend take. GUI thread.

#include <QColor>
#include <functional>

class QCPLayoutGrid;
class QCustomPlot;
class QObject;
class QWidget;

namespace mhaviz::ui {

class GridColourScale;
class GridGeometry;
class GridLayout;
struct GridContent;
struct GridState;
struct MapView;

class GridPicture {
 public:
  /// Told when map `map`'s horizontal or vertical axis range changed (zoom, pan).
  using RangeChanged = std::function<void(int map, bool horizontal)>;
  /// Builds into `plot` and `state`; `grid` gives the palette and is the context of the axes'
  /// connections. Everything given is the grid's and outlives this object.
  GridPicture(QWidget* grid, QCustomPlot* plot, GridLayout& layout, GridGeometry& geometry,
              GridColourScale& colours, GridState& state, const GridContent& content,
              RangeChanged rangeChanged);

  /// On (default, the window): the plot background, axes and text take the grid palette's Base
  /// and Text colours. Off (image export): black text, the background the caller gives the plot.
  void setFollowPalette(bool on) { m_followPalette = on; }
  bool followPalette() const { return m_followPalette; }
  /// What one notch of the wheel scales the visible cells by, for every map now and later.
  void setWheelZoomFactor(double factor);

  /// A new picture of the content. `keepArrangement`: a zoom continued — the maps keep the
  /// current arrangement and their margins, so they stay where they were to the pixel.
  void rebuild(bool keepArrangement = false);

 private:
  struct MapStyle;
  void clear();  // removes every element, plottable and item of the picture
  void build();  // the elements of the content for the current arrangement
  MapView buildMap(int index, QCPLayoutGrid* cell, const MapStyle& style);
  void addColourScale(QCPLayoutGrid* body, const QColor& text, bool oneRow);
  QColor textColor() const;  // palette Text when following the palette, else black

  QWidget* m_grid;
  QCustomPlot* m_plot;
  GridLayout& m_layout;
  GridGeometry& m_geometry;
  GridColourScale& m_colours;
  GridState& m_state;
  const GridContent& m_content;
  RangeChanged m_rangeChanged;
  bool m_followPalette = true;
  double m_wheelZoomFactor = 0.85;
};

}  // namespace mhaviz::ui
