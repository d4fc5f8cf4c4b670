// The heatmap grid's QCustomPlot: a resize replots once, when the size has settled.
#pragma once

#include <qcustomplot.h>

namespace mhaviz::ui {

/// QCustomPlot replots in its resizeEvent: it allocates a paint buffer of the new size (page by
/// page) and draws every layer into it. The grid resizes its plot up to three times while it
/// arranges a picture, and a dock that slides open resizes it at every step, each time before
/// the grid has placed its maps for that size (it queues a render of its own). A GridPlot only
/// takes note of the new size: it replots before it is next painted, or on the next turn of the
/// event loop if it is shown, whichever comes first, and not at all when a replot came in
/// between.
class GridPlot final : public QCustomPlot {
 public:
  explicit GridPlot(QWidget* parent = nullptr);

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void paintEvent(QPaintEvent* event) override;

 private:
  bool m_resized = false;  // the paint buffer is of a size the plot no longer has
};

}  // namespace mhaviz::ui
