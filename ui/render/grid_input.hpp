#pragma once
// The heatmap grid's input: hover descriptions and tooltips, clicks, zoom and pan shared by all
// maps, and the wheel (zoom over a map, scroll elsewhere). It reads the grid's picture and data
// and never changes the data. GUI thread only.

#include <QObject>
#include <QPoint>
#include <QRectF>
#include <QString>

class QCustomPlot;
class QMouseEvent;
class QScrollArea;
class QWheelEvent;
class QPointF;

namespace mhaviz::ui {

struct GridContent;
struct GridState;
struct StageData;
struct ViewOptions;

class GridInput : public QObject {
  Q_OBJECT
 public:
  /// Watches `plot`'s mouse and wheel. `state` and `content` are the grid's (they outlive this
  /// object, a child of the grid).
  GridInput(QCustomPlot* plot, QScrollArea* scroll, const GridState& state,
            const GridContent& content, QObject* parent);

  /// Map `index`'s axis changed (zoom, pan): every map follows, the visible cells are reported.
  void onAxisRangeChanged(int index, bool horizontal);
  /// The cells every map shows (HeatmapGrid::visibleCells).
  QRectF visibleCells() const;
  /// Shows `cells` on every map (clamped to the maps), reporting them as a user's zoom would.
  void showCells(const QRectF& cells);
  /// The maps changed under the pointer (a new result, view or none): the hover tooltip, which
  /// described the cell as it was (a bias_k column that is gone), is taken down; the next move
  /// describes the cell as it is.
  void forgetHover();

 signals:
  void cellHovered(int map, int row, int col, double value, const QString& description);
  void cellClicked(int map, int row, int col);
  void visibleCellsChanged(const QRectF& cells);
  void zoomOutAtWhole(const QPointF& cell);
  /// The maps' ranges changed: they need drawing again for the new visible region.
  void rangesChanged();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;  // wheel outside maps scrolls

 private:
  bool wheelZoomsOutAtWhole(const QWheelEvent& wheel, QPointF* cell) const;  // out, map whole
  void onMouseMove(QMouseEvent* event);
  void onMousePress(QMouseEvent* event);
  void onMouseRelease(QMouseEvent* event);
  bool cellAt(const QPointF& pos, int* map, int* row, int* col) const;
  QString describeCell(int map, int row, int col) const;

  QCustomPlot* m_plot;
  QScrollArea* m_scroll;
  const GridState& m_state;
  const GridContent& m_content;
  const ViewOptions& m_view;
  bool m_syncing = false;  // true while a range is copied to every map
  QPoint m_pressPos;
  int m_lastHoverMap = -1, m_lastHoverRow = -1, m_lastHoverCol = -1;
  QString m_tip;  // the tooltip this grid showed last
};

}  // namespace mhaviz::ui
