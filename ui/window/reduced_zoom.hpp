#pragma once
// Zooming the reduced view of a long context like any map viewer: the wheel zooms about the
// cursor (twice per notch), and once it settles the region in view is computed again by the
// compute worker (Computation::zoomReduced), folded to the pixels of the maps — exact cells once
// the region has no more cells than pixels. The region in view is kept in cells of the whole
// map, so that a recomputed region arrives where the old picture showed it (the point under the
// cursor stays there) however many notches were turned while it was computed. Wheeling out over
// a map that shows all of its region widens the region about the cursor, back to the whole
// map. GUI thread only.

#include <QObject>
#include <QRectF>
#include <optional>

class QTimer;

namespace mhaviz::ui {

class Computation;
class Document;
class HeatmapGrid;
struct ReducedRegion;

class ReducedZoom : public QObject {
  Q_OBJECT
 public:
  /// Connects `grid`'s zoom to `computation`, following the region `document` shows (all
  /// outlive this object, its parent). Construct it before whatever draws the document's results
  /// into `grid`: a zoomed result must find the grid told where to show it.
  ReducedZoom(HeatmapGrid* grid, Document* document, Computation* computation, QObject* parent);

  /// Milliseconds the visible region must stay unchanged before it is computed (the wheel
  /// sends many small steps; only where it settles is computed).
  static constexpr int kSettleMs = 350;
  /// What one notch of the wheel scales the region in view by in the reduced view.
  static constexpr double kNotchFactor = 0.5;

  /// True while a region in view waits to be computed (the wheel has not settled yet).
  [[nodiscard]] bool isSettling() const;
  /// The region in view, in cells of the whole map (x: keys, y: queries); none when the whole
  /// map is in view or the maps are not reduced.
  [[nodiscard]] std::optional<QRectF> window() const { return m_window; }

 private:
  void onVisibleCells(const QRectF& cells);
  void onZoomOutAtWhole(const QPointF& cell);
  void onResult();
  void request();
  /// Whether the shown region can show `window` as finely as the maps' pixels allow.
  [[nodiscard]] bool shownSuffices(const QRectF& window) const;

  HeatmapGrid* m_grid;
  Document* m_document;
  Computation* m_computation;
  QTimer* m_settle;
  std::optional<QRectF> m_window;
};

/// `cells` of a map showing `region` (its values, blocks of the whole map) in cells of the whole
/// map, and back.
QRectF toWholeMap(const QRectF& cells, const ReducedRegion& region);
QRectF toRegion(const QRectF& whole, const ReducedRegion& region);

}  // namespace mhaviz::ui
