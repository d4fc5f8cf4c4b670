#pragma once
// What of the heatmap grid's plot is in view: the scroll area around it (the maps scroll down
// when they would fall under a readable size), the colour scale kept in view as they scroll, and
// the "out of date" badge over the plot. GUI thread.

#include <QSize>
#include <QString>

class QCustomPlot;
class QLabel;
class QScrollArea;
class QScrollBar;
class QWidget;

namespace mhaviz::ui {

struct GridState;

class GridViewport {
 public:
  /// Puts `plot` into a scroll area filling `grid` (vertical scrolling only) and the badge over
  /// it; both are children of `grid`, which outlives this object.
  GridViewport(QWidget* grid, QCustomPlot* plot);

  QScrollArea* scrollArea() const { return m_scroll; }
  QScrollBar* scrollBar() const;
  /// What the plot may use without scrolling: the grid's size.
  QSize visibleSize() const;
  /// Pixels a vertical scroll bar takes from the width.
  int scrollBarWidth() const;
  /// The grid was resized: the scroll area fills it again, the badge is placed again.
  void fit();
  /// Shows or hides the "out of date" badge (with `why`); the picture itself stays.
  void setOutOfDate(bool outOfDate, const QString& why);
  /// Maps taller than the view: the colour scale of `state` as tall as the view and moved down
  /// with the scroll (its spacers take the rest of the maps' height). True when it moved.
  bool placeScale(const GridState& state) const;

 private:
  QWidget* m_grid;
  QCustomPlot* m_plot;
  QScrollArea* m_scroll;
  QLabel* m_badge;
};

}  // namespace mhaviz::ui
