#pragma once
// A dock that stands in for the central widget while that is hidden (the Compare workspace:
// A | B | B - A is the centre, the grid steps aside). QMainWindow then has no centre to give a
// change of the window's width to and shares it among the docks side by side: 1280 -> 1600
// widened the Parameters beside the comparison by 194 px. CentreDock gives the whole change to
// its dock; the docks beside it keep the widths they had (the arrangement's, or the user's after
// dragging a separator). With the central widget shown it does nothing. GUI thread only.

#include <QHash>
#include <QObject>

class QDockWidget;
class QMainWindow;

namespace mhaviz::ui {

class CentreDock : public QObject {
 public:
  /// Watches `window` and its docks (those it has now); `centre` is one of them.
  CentreDock(QMainWindow* window, QDockWidget* centre);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void keepWidths(int oldWidth);

  QMainWindow* m_window;
  QDockWidget* m_centre;
  int m_windowWidth;  // the window's width the docks' widths below were laid out for
  QHash<QDockWidget*, int> m_widths;
};

}  // namespace mhaviz::ui
