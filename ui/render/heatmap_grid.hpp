#pragma once
// The per-head heatmap grid: one QCustomPlot holding one QCPAxisRect + QCPColorMap per map of
// the current stage, a shared QCPColorScale, bias_k/zero column marking, masked/NaN drawing and
// screen-sized reduction of big maps. Data arrives only as StageData (render/result_maps.hpp
// makes it from a result). The widget holds what it shows (GridContent) and composes parts that
// each have one job: GridPicture builds the picture's elements from the content, GridGeometry
// places them at the grid's size (GridLayout's arithmetic), GridColourScale gives the colours
// and ranges, GridRenderer fills the colour maps (GridPreparation's background task for big
// ones), GridViewport scrolls the plot and shows the out-of-date badge, GridInput answers hover,
// click, zoom and wheel. GUI thread only.

#include <QColor>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <optional>

#include "mhaviz/core/forward/result.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"

class QCustomPlot;
class QScrollArea;

namespace mhaviz::ui {

struct GridContent;  // what the grid shows: the stage's maps, the view, why there are none
struct GridState;    // the QCustomPlot objects of the current picture
class GridColourScale;
class GridGeometry;
class GridInput;
class GridLayout;
class GridPicture;
class GridRenderer;
class GridViewport;

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
  QString message() const;
  const ViewOptions& view() const;
  /// The result whose maps are shown (null for maps made elsewhere, or none).
  const std::shared_ptr<const mhaviz::ForwardResult>& result() const;
  const StageData& stageData() const;

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
  void setFollowPalette(bool on);
  /// On (default, the window): when the maps would fall under a readable size the plot grows
  /// taller than the widget and scrolls. Off (image export): everything fits the widget.
  void setScrollWhenSmall(bool on);
  /// Up to `maps` maps stay in view together, scaled down to fit (presentation mode); 0: none.
  void setInViewUpTo(int maps);
  /// The colour of masked cells and of the legend's "masked" swatch: `colour`, or with none
  /// (the default) the colormap's own (maskedColor). Compare's three grids share one.
  void setMaskedColor(std::optional<QColor> colour);
  [[nodiscard]] QColor maskedCellColor() const;
  /// Map `map`'s title as drawn (elided when the map is narrower than its full title).
  QString shownMapTitle(int map) const;
  /// Full title of map `map` (its tooltip when the drawn title is elided).
  QString mapTitleToolTip(int map) const;
  /// The scroll area holding the plot (tests: is the picture scrolled?).
  QScrollArea* scrollArea() const;

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
  void changeEvent(QEvent* event) override;    // font and palette changes restyle the picture

 private:
  void redraw();  // a new picture of the same content (a palette or font change), drawn

  QCustomPlot* m_plot;
  std::unique_ptr<GridContent> m_content;
  std::unique_ptr<GridState> m_state;
  // The parts, each given the content, the picture and the parts it uses (built in this order;
  // the layout's first estimates take the plot's font before the plot joins the scroll area).
  std::unique_ptr<GridLayout> m_layout;
  std::unique_ptr<GridViewport> m_viewport;
  std::unique_ptr<GridColourScale> m_colours;
  std::unique_ptr<GridGeometry> m_geometry;
  GridInput* m_input;  // child QObject
  std::unique_ptr<GridPicture> m_picture;
  std::unique_ptr<GridRenderer> m_renderer;
  bool m_restyleQueued = false;          // a redraw after a font change is pending
  std::optional<QRectF> m_continueZoom;  // for the next setStageData
};

}  // namespace mhaviz::ui
