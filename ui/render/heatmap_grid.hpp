#pragma once
// The per-head heatmap grid: one QCustomPlot holding one QCPAxisRect + QCPColorMap per map of
// the current stage, a shared QCPColorScale, bias_k/zero column marking, masked/NaN drawing,
// hover/click signals and screen-sized reduction of big maps. GUI thread only.

#include <QElapsedTimer>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <array>
#include <atomic>
#include <memory>
#include <vector>

#include "mhaviz/core/result.hpp"
#include "ui/render/stage_data.hpp"
#include "ui/render/view_options.hpp"

class QCustomPlot;
class QMouseEvent;
class QWheelEvent;

namespace mhaviz::ui {

struct GridState;     // axis rects, colour maps and overlays of the current picture
struct PreparedMaps;  // statistics and reduced maps made by a background task
struct PrepInbox;     // how background tasks reach the grid (outlives it while tasks run)

class HeatmapGrid : public QWidget {
  Q_OBJECT
 public:
  explicit HeatmapGrid(QWidget* parent = nullptr);
  ~HeatmapGrid() override;

  /// Shows `result` as described by `view`. The result is shared (kept alive) while shown.
  void setResult(std::shared_ptr<const mhaviz::ForwardResult> result, const ViewOptions& view);
  /// Re-renders the same result with other view options.
  void setView(const ViewOptions& view);
  /// On: maps with many cells are summarised and reduced to the screen on a QThreadPool task,
  /// never on the GUI thread; the grid shows them when ready (pictureShown()) and zooming
  /// re-reduces the visible window in the background while the coarser picture stays. Off
  /// (default, used by export and tests): setResult/setView return with the picture drawn.
  void setBackgroundPreparation(bool on) { background_ = on; }
  /// True while a background task prepares the picture of the current result/view (not for a
  /// zoom's sharper re-reduction).
  bool isPreparing() const { return preparing_ || awaitingPicture_; }
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
  QString message() const { return message_; }
  const ViewOptions& view() const { return view_; }
  const StageData& stageData() const { return data_; }

  /// Title above the grid (used by image export); empty hides it.
  void setCaption(const QString& caption);
  /// Adds "key"/"query" axis labels to every map (export); off by default to save space.
  void setAxisTitles(bool on);
  /// On (default, the window): the plot background, axes and text take the widget palette's
  /// Base and Text colours and follow theme changes. Off (image export): black text, and the
  /// background the caller gives the plot.
  void setFollowPalette(bool on) { followPalette_ = on; }

 signals:
  void cellHovered(int map, int row, int col, double value, const QString& description);
  void cellClicked(int map, int row, int col);
  /// The picture of the current result and view has been drawn (replotted).
  void pictureShown();

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;  // palette changes restyle the picture

 private:
  void extract();           // data_ from result_ and view_ (catches InvalidInput)
  void applyRanges();       // colour ranges of the maps and the scale (needs statistics)
  void fillMap(int index);  // colour map `index` from its reduced grid state_->views[].shown
  void launchPreparation(bool withStats);  // background task for pendingJobs_ (and statistics)
  void applyPrepared(const PreparedMaps& prepared);  // GUI thread: show a task's output
  void rebuild();               // new layout for data_ (maps, scale, legend, labels)
  void renderAll();             // fill every map for its visible range and size, replot
  void renderMap(int index);    // fill one map (reduced to its pixel size when needed)
  void updateTicks(int index);  // tick labels that fit the map's visible range
  void layoutNow();             // lay out the plot so axis rects have their pixel sizes
  void queueRender();           // coalesced re-render after zoom/pan
  void onAxisRangeChanged(int index, bool horizontal);
  void onMouseMove(QMouseEvent* event);
  void onMousePress(QMouseEvent* event);
  void onMouseRelease(QMouseEvent* event);
  bool cellAt(const QPointF& pos, int* map, int* row, int* col) const;
  QString describeCell(int map, int row, int col) const;
  int chooseColumns(int n) const;
  double cellPixels(int n, int columns) const;  // side of a square cell for n maps in columns
  void placeBadge();
  QColor textColor() const;  // palette Text when following the palette, else black

  QCustomPlot* plot_ = nullptr;
  std::shared_ptr<const mhaviz::ForwardResult> result_;
  ViewOptions view_;
  StageData data_;
  QString message_;  // shown instead of maps when extraction failed
  std::unique_ptr<GridState> state_;
  QString caption_;
  bool axisTitles_ = false;
  bool followPalette_ = true;
  bool outOfDate_ = false;
  QString outOfDateWhy_;
  double lastRenderMs_ = 0;
  bool background_ = false;
  bool preparing_ = false;        // a statistics task for the current data is running
  bool awaitingPicture_ = false;  // the picture of setResult/setView comes from a task
  quint64 dataGen_ = 0;           // bumped whenever data_ changes; stale tasks are dropped
  std::shared_ptr<PrepInbox> inbox_;
  std::shared_ptr<std::atomic<bool>> cancel_;    // of the newest task
  std::vector<std::array<int, 7>> pendingJobs_;  // map, row0, col0, nRows, nCols, rowBlk, colBlk
  QElapsedTimer changeTimer_;                    // since the last setResult/setView
  QPoint pressPos_;
  int lastHoverMap_ = -1, lastHoverRow_ = -1, lastHoverCol_ = -1;
};

}  // namespace mhaviz::ui
