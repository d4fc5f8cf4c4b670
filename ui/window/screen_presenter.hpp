#pragma once
// What the centre and the Head measures dock show of the document: the one place that decides
// when the heatmap grid is drawn. A fresh result is drawn at once, except the value-norms
// stage, which comes with the head measures and waits for them; a change of view redraws the
// grid from the current result; the status bar gets each picture's times. GUI thread only.

#include <QObject>

namespace mhaviz::ui {

class Computation;
class Document;
class HeadMeasuresView;
class HeatmapGrid;
class StatusWidgets;
struct ViewOptions;

class ScreenPresenter : public QObject {
  Q_OBJECT

 public:
  /// Follows `document` and `computation` and draws into `grid` and `measures`; everything
  /// outlives the presenter (the window owns them all).
  ScreenPresenter(Document* document, Computation* computation, HeatmapGrid* grid,
                  HeadMeasuresView* measures, StatusWidgets* status, QObject* parent);

 private:
  /// The value norms come with the head measures, after the result.
  [[nodiscard]] bool waitsForMeasures(const ViewOptions& view) const;
  void draw(const ViewOptions& view);  // the computation's current result, as `view` says
  void redraw(const ViewOptions& view);

  Document* m_document;
  Computation* m_computation;
  HeatmapGrid* m_grid;
  HeadMeasuresView* m_measures;
  StatusWidgets* m_status;
  double m_computeMs = 0;  // the worker's time for the current result (status bar)
};

}  // namespace mhaviz::ui
