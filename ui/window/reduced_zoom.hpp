#pragma once
// Zooming the reduced view of a long context: when the user zooms into a reduced map, the
// region they look at is computed again by the compute worker (Computation::zoomReduced)
// at the finest fold that fits the screen, exact cells once it is small enough; zooming out
// over a map that shows all of its region returns to the whole map. GUI thread only.

#include <QObject>

class QTimer;

namespace mhaviz::ui {

class Computation;
class HeatmapGrid;

class ReducedZoom : public QObject {
  Q_OBJECT
 public:
  /// Connects `grid`'s zoom to `computation` (both outlive this object, its parent).
  ReducedZoom(HeatmapGrid* grid, Computation* computation, QObject* parent);

  /// Milliseconds the visible region must stay unchanged before it is computed (the wheel
  /// sends many small steps; only where it settles is computed).
  static constexpr int kSettleMs = 350;

 private:
  void onVisibleCells(int row0, int rowEnd, int col0, int colEnd);

  HeatmapGrid* m_grid;
  Computation* m_computation;
  QTimer* m_settle;
  int m_row0 = 0, m_rowEnd = 0, m_col0 = 0, m_colEnd = 0;
};

}  // namespace mhaviz::ui
