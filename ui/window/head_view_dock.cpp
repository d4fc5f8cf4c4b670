#include "window/head_view_dock.hpp"

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QMainWindow>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "tokens/head_view.hpp"

namespace mhaviz::ui {

HeadViewDock installHeadView(QMainWindow* window, Document* document, Computation* computation) {
  auto* view = new HeadView;
  auto* dock =
      new QDockWidget(QCoreApplication::translate("mhaviz::ui::HeadViewDock", "Head view"), window);
  dock->setObjectName(QStringLiteral("headViewDock"));
  dock->setWidget(view);
  dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                    QDockWidget::DockWidgetClosable);
  // A column of its own right of the grid (beside the other right docks, not under them): the
  // head view wants height.
  window->addDockWidget(Qt::RightDockWidgetArea, dock, Qt::Horizontal);
  dock->hide();

  // The current result with the document's view fitted to it, as the grid draws it; only
  // while the dock is shown (it lays out on the way back).
  const auto follow = [view, dock, document, computation] {
    if (!dock->isVisible()) return;
    const ResultPtr result = computation->result();
    view->setResult(result, result ? fitViewToResult(document->view(), *result) : ViewOptions{});
  };
  QObject::connect(computation, &Computation::resultReady, view, follow);
  QObject::connect(computation, &Computation::measuresReady, view, follow);
  QObject::connect(document, &Document::viewChanged, view, follow);
  QObject::connect(dock, &QDockWidget::visibilityChanged, view, [follow](bool shown) {
    if (shown) follow();
  });
  // Shown the first time: about a third of the window wide.
  QObject::connect(dock->toggleViewAction(), &QAction::triggered, dock, [window, dock](bool on) {
    if (on && !dock->isFloating() && dock->width() < window->width() / 4) {
      window->resizeDocks({dock}, {window->width() / 3}, Qt::Horizontal);
    }
  });

  QAction* toggle = dock->toggleViewAction();
  toggle->setText(QCoreApplication::translate("mhaviz::ui::HeadViewDock", "H&ead view"));
  toggle->setToolTip(
      QCoreApplication::translate("mhaviz::ui::HeadViewDock",
                                  "Show the head view: a line from each query to each key, as "
                                  "strong as its weight, one colour per head"));
  return {view, toggle};
}

}  // namespace mhaviz::ui
