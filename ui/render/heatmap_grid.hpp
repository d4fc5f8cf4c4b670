#pragma once
// The per-head heatmap grid: one QCustomPlot holding one QCPAxisRect + QCPColorMap per map of
// the current stage, a shared QCPColorScale, bias_k/zero column marking, masked/NaN drawing and
// screen-sized reduction of big maps. Data arrives only as StageData (render/result_maps.hpp
// makes it from a result). Its helpers, each with one job: GridLayout (sizes, caption),
// GridPreparation (background tasks), GridInput (hover, click, zoom, wheel). GUI thread only.

#include <QElapsedTimer>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "mhaviz/core/forward/result.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"

class QCPLayoutGrid;
class QCustomPlot;
class QScrollArea;

namespace mhaviz::ui {

struct GridState;  // axis rects, colour maps and overlays of the current picture
struct MapView;    // one map of the grid: its axis rect, colour map and overlays
struct MapStyle;   // what every map of one layout shares: colours, fonts, size limit
struct PreparedMaps;
struct GridArrangement;
class GridInput;
class GridLayout;
class GridPreparation;

class HeatmapGrid : public QWidget {
  Q_OBJECT
 public:
  explicit HeatmapGrid(QWidget* parent = nullptr);
  ~HeatmapGrid() override;

  /// Shows `stage` (its own colour range and unit); `view` supplies the colormap, scale and
  /// labels. Maps of a result come from resultMaps() (stage.result keeps them alive), maps
  /// made elsewhere (compare mode's B - A) have no result. With no maps, `whyEmpty` says why
  /// (e.g. a batch element that does not exist). Statistics not in `stage` are computed here,
  /// or with background preparation on, by a background task.
  void setStageData(StageData stage, const ViewOptions& view, const QString& whyEmpty = {});
  /// Re-renders the same data with other view options (colormap, scale, reduction, labels);
  /// a view that shows other maps needs new data (showView in render/result_maps.hpp).
  void setView(const ViewOptions& view);
  /// On: maps with many cells are summarised and reduced to the screen as a background task,
  /// never on the GUI thread; the grid shows them when ready (pictureShown()) and zooming
  /// re-reduces the visible window in the background while the coarser picture stays. Off
  /// (default, used by export and tests): setStageData/setView return with the picture drawn.
  void setBackgroundPreparation(bool on);
  bool backgroundPreparation() const;
  /// True while a background task prepares the picture of the current data/view (not for a
  /// zoom's sharper re-reduction).
  bool isPreparing() const;
  /// Visible "out of date" badge (with `why`); the picture itself stays.
  void setOutOfDate(bool outOfDate, const QString& why = {});
  void clear();

  int mapCount() const;  // maps currently drawn (heads + average)
  QStringList mapTitles() const;
  QStringList columnLabels(
      int map) const;         // tick labels of map's columns ("0".."S-1","bias_k","zero")
  QCustomPlot* plot() const;  // for export and tests
  double lastRenderMs() const;
  /// Why no maps are shown (e.g. a batch element that does not exist), else empty.
  QString message() const { return m_message; }
  const ViewOptions& view() const { return m_view; }
  /// The result whose maps are shown (null for maps made elsewhere, or none).
  const std::shared_ptr<const mhaviz::ForwardResult>& result() const { return m_data.result; }
  const StageData& stageData() const { return m_data; }

  /// Title above the grid (image export, presentation mode); empty hides it. The first line is
  /// a bold heading, the rest a body; both wrap to the plot's width (never clipped).
  void setCaption(const QString& caption);
  /// The caption as drawn: its wrapped lines, heading first.
  QStringList captionLines() const;
  /// Adds "key"/"query" axis labels to every map (export); off by default to save space.
  void setAxisTitles(bool on);
  /// On (default, the window): the plot background, axes and text take the widget palette's
  /// Base and Text colours and follow theme changes. Off (image export): black text, and the
  /// background the caller gives the plot.
  void setFollowPalette(bool on) { m_followPalette = on; }
  /// On (default, the window): when the maps would fall under a readable size the plot grows
  /// taller than the widget and scrolls. Off (image export): everything fits the widget.
  void setScrollWhenSmall(bool on);
  /// The colour of masked cells and of the legend's "masked" swatch: `colour`, or with none
  /// (the default) the colormap's own (maskedColor). Compare's three grids share one.
  void setMaskedColor(std::optional<QColor> colour);
  [[nodiscard]] QColor maskedCellColor() const;
  /// Map `map`'s title as drawn (elided when the map is narrower than its full title).
  QString shownMapTitle(int map) const;
  /// Full title of map `map` (its tooltip when the drawn title is elided).
  QString mapTitleToolTip(int map) const;
  /// The scroll area holding the plot (tests: is the picture scrolled?).
  QScrollArea* scrollArea() const { return m_scroll; }

  /// The cells the maps show (zoomed and panned together): x across the columns, y down the
  /// rows, in cells from the maps' top-left corner (cell (c, r) spans [c, c+1) x [r, r+1)).
  QRectF visibleCells() const;
  /// Pixels of a map's axis rect (every map has the same size).
  QSize mapPixels() const;
  /// The next setStageData (a zoomed region computed again) keeps the maps' pixel sizes when it
  /// has as many maps, and shows `cells` of its maps: what was under the cursor stays there.
  void continueZoom(const QRectF& cells) { m_continueZoom = cells; }
  /// What one notch of the wheel scales the visible cells by (QCustomPlot's default 0.85).
  void setWheelZoomFactor(double factor);

 signals:
  void cellHovered(int map, int row, int col, double value, const QString& description);
  void cellClicked(int map, int row, int col);
  /// The picture of the current result and view has been drawn (replotted).
  void pictureShown();
  /// The user zoomed or panned the maps: visibleCells() is now `cells`.
  void visibleCellsChanged(const QRectF& cells);
  /// The wheel zoomed out over a map that already shows all of its cells; `cell` is the point
  /// under the cursor (in visibleCells()'s units).
  void zoomOutAtWhole(const QPointF& cell);

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;  // draws a picture that arrived while hidden
  void changeEvent(QEvent* event) override;  // font and palette changes restyle the picture

 private:
  void applyRanges();       // colour ranges of the maps and the scale (needs statistics)
  void fillMap(int index);  // colour map `index` from its reduced grid m_state->views[].shown
  void launchPreparation(bool withStats);            // background task for the queued regions
  void applyPrepared(const PreparedMaps& prepared);  // GUI thread: show a task's output
  void rebuild();       // new layout for m_data (maps, scale, legend, labels)
  void buildPicture();  // the elements of m_data for m_state->arrangement
  MapView buildMap(int index, QCPLayoutGrid* cell, const MapStyle& style);  // one map's cell
  void buildLegend(QCPLayoutGrid* legend, const QColor& text, const QColor& background);
  void renderAll();                     // fill every map for its visible range and size, replot
  void renderMap(int index);            // fill one map (reduced to its pixel size when needed)
  void updateTicks(int index);          // tick labels that fit the map's visible range
  void layoutNow();                     // lay out the plot so axis rects have their pixel sizes
  void queueRender();                   // coalesced re-render after zoom/pan
  QSize visibleSize() const;            // what the plot may use without scrolling
  GridArrangement arrangement() const;  // where the maps go at the grid's current size
  void applyArrangement();   // m_state->arrangement's plot size, map sizes and title widths
  bool placeScale();         // the colour scale in view when the maps scroll; true when it moved
  bool fitScaleTitle();      // the scale's title wrapped to the bar's length; true when it changed
  QColor textColor() const;  // palette Text when following the palette, else black

  QScrollArea* m_scroll = nullptr;
  QCustomPlot* m_plot = nullptr;
  ViewOptions m_view;
  StageData m_data;
  QString m_message;  // shown instead of maps (why there are none)
  std::unique_ptr<GridState> m_state;
  std::unique_ptr<GridLayout> m_layout;
  std::unique_ptr<GridPreparation> m_preparation;
  GridInput* m_input = nullptr;  // child QObject
  bool m_followPalette = true;
  std::optional<QColor> m_maskedColor;
  bool m_restyleQueued = false;  // a rebuild after a font or palette change is pending
  bool m_outOfDate = false;
  QString m_outOfDateWhy;
  std::optional<QRectF> m_continueZoom;  // for the next setStageData
  bool m_keepArrangement = false;        // rebuild keeps m_state->arrangement
  double m_wheelZoomFactor = 0.85;
  double m_lastRenderMs = 0;
  QElapsedTimer m_changeTimer;  // since the last setStageData/setView
};

}  // namespace mhaviz::ui
