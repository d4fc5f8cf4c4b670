#pragma once
// What the heatmap grid's colour maps hold: each map's visible region at its pixel size (reduced
// by blocks when it has more cells than pixels) with its masked cells and its note, filled on
// the GUI thread for small maps, or with background preparation on, by GridPreparation's task
// for big ones (their statistics too); and the replot that shows them, deferred while the grid
// is hidden. GUI thread.

#include <QElapsedTimer>
#include <QObject>
#include <memory>

class QCustomPlot;
class QWidget;

namespace mhaviz::ui {

class GridColourScale;
class GridGeometry;
class GridPreparation;
struct GridContent;
struct GridState;
struct PreparedMaps;

class GridRenderer : public QObject {
  Q_OBJECT
 public:
  /// Everything given is the grid's and outlives this object; `content`'s statistics and derived
  /// maps are filled in when a background task brings them.
  GridRenderer(QWidget* grid, QCustomPlot* plot, GridGeometry& geometry, GridColourScale& colours,
               GridState& state, GridContent& content);
  ~GridRenderer() override;  // a preparation still running is cancelled

  /// HeatmapGrid::setBackgroundPreparation.
  void setBackgroundPreparation(bool on);
  bool backgroundPreparation() const;
  /// True while a background task prepares the picture of the current content (not for a zoom's
  /// sharper re-reduction).
  bool isPreparing() const;
  /// Nothing prepared for the content shown so far arrives: it is about to change.
  void cancel();
  /// cancel(), and no picture is awaited any more (the grid is emptied).
  void clear();

  /// A change of content or view starts: lastRenderMs() will measure from here.
  void startChange();
  /// The change's picture is drawn (synchronously): lastRenderMs() is its time.
  void finishChange();
  /// Milliseconds of the last change until its picture was drawn, or of the last re-render.
  double lastRenderMs() const { return m_lastRenderMs; }

  /// Fills every map of a newly built picture for its visible range and size and replots, or
  /// hands big maps and missing statistics to a background task (the plot keeps its last
  /// picture until the task's output arrives).
  void renderAll();
  /// A coalesced re-render after a zoom, pan or resize (only what changed is filled again).
  void queueRender();
  /// The grid was shown: draws a picture that arrived while it was hidden.
  void shown();

 signals:
  /// The picture of the current content and view has been drawn (replotted).
  void pictureShown();

 private:
  void renderMap(int index);  // fill one map (reduced to its pixel size when needed)
  void fillMap(int index);    // colour map `index` from its reduced grid MapView::shown
  void launchPreparation(bool withStats);            // background task for the queued regions
  void applyPrepared(PreparedMaps& prepared);  // a task's output (grids moved out), GUI thread
  void replotOrDefer(bool queued);  // replot now when visible, else when the grid is shown

  QWidget* m_grid;
  QCustomPlot* m_plot;
  GridGeometry& m_geometry;
  GridColourScale& m_colours;
  GridState& m_state;
  GridContent& m_content;
  std::unique_ptr<GridPreparation> m_preparation;
  bool m_renderQueued = false;     // a re-render after zoom/pan is pending
  bool m_replotWhenShown = false;  // a picture arrived while the grid was hidden
  double m_lastRenderMs = 0;
  QElapsedTimer m_changeTimer;  // since the last startChange
};

}  // namespace mhaviz::ui
