#pragma once
// What the centre and the Head measures dock show of the document: the one place that decides
// when the heatmap grid is drawn. A fresh result is drawn at once, except the value-norms
// stage, which comes with the head measures and waits for them; a change of view redraws the
// grid from the current result, except when that result is of what was open before (another
// model layer, another session) and the new one is being computed: the view is the new one's,
// and waits for it (should it fail or be cancelled, the current result is drawn, out of date);
// the status bar gets each picture's times. GUI thread only.

#include <QObject>

namespace mhaviz::ui {

class Document;
class HeadMeasuresView;
class HeatmapGrid;
class StatusWidgets;
struct ViewOptions;

class ScreenPresenter : public QObject {
  Q_OBJECT

 public:
  /// Follows `document` (its settings and what was computed of them) and draws into `grid` and
  /// `measures`; everything outlives the presenter (the window owns them all).
  ScreenPresenter(Document* document, HeatmapGrid* grid, HeadMeasuresView* measures,
                  StatusWidgets* status, QObject* parent);

 private:
  /// The value norms come with the head measures, after the result.
  [[nodiscard]] bool waitsForMeasures(const ViewOptions& view) const;
  void draw(const ViewOptions& view);  // the document's current result, as `view` says
  void redraw(const ViewOptions& view);

  Document* m_document;
  HeatmapGrid* m_grid;
  HeadMeasuresView* m_measures;
  StatusWidgets* m_status;
  // Something else was opened (Document::Change::origin) since the current result came: its
  // result is on the way, and the current one is not drawn under the new view meanwhile.
  bool m_otherOpened = false;
};

}  // namespace mhaviz::ui
