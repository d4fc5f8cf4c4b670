#include "window/token_docks.hpp"

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QMainWindow>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "tokens/head_view.hpp"
#include "tokens/text_view.hpp"

namespace mhaviz::ui {

namespace {

// A dock on the right, a column of its own beside the other right docks (not under them): the
// token views want height. Hidden until asked for; about a third of the window wide the first
// time it is shown.
QDockWidget* tokenDock(QMainWindow* window, QWidget* view, const QString& title,
                       const QString& name) {
  auto* dock = new QDockWidget(title, window);
  dock->setObjectName(name);
  dock->setWidget(view);
  dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                    QDockWidget::DockWidgetClosable);
  window->addDockWidget(Qt::RightDockWidgetArea, dock, Qt::Horizontal);
  dock->hide();
  QObject::connect(dock->toggleViewAction(), &QAction::triggered, dock, [window, dock](bool on) {
    if (on && !dock->isFloating() && dock->width() < window->width() / 4) {
      window->resizeDocks({dock}, {window->width() / 3}, Qt::Horizontal);
    }
  });
  return dock;
}

// Keeps `view` drawing the current result with the document's view fitted to it, as the grid
// draws it; only while `dock` is shown (it catches up on the way back).
template <typename View>
void follow(View* view, QDockWidget* dock, Document* document, Computation* computation) {
  const auto update = [view, dock, document, computation] {
    if (!dock->isVisible()) return;
    const ResultPtr result = computation->result();
    view->setResult(result, result ? fitViewToResult(document->view(), *result) : ViewOptions{},
                    computation->measures());
  };
  QObject::connect(computation, &Computation::resultReady, view, update);
  QObject::connect(computation, &Computation::measuresReady, view, update);
  QObject::connect(document, &Document::viewChanged, view, update);
  QObject::connect(dock, &QDockWidget::visibilityChanged, view, [update](bool shown) {
    if (shown) update();
  });
}

}  // namespace

TokenDocks installTokenViews(QMainWindow* window, Document* document, Computation* computation) {
  TokenDocks out;
  out.head = new HeadView;
  out.headDock = tokenDock(window, out.head,
                           QCoreApplication::translate("mhaviz::ui::HeadViewDock", "Head view"),
                           QStringLiteral("headViewDock"));
  follow(out.head, out.headDock, document, computation);
  out.headToggle = out.headDock->toggleViewAction();
  out.headToggle->setText(QCoreApplication::translate("mhaviz::ui::HeadViewDock", "H&ead view"));
  out.headToggle->setToolTip(
      QCoreApplication::translate("mhaviz::ui::HeadViewDock",
                                  "Show the head view: a line from each query to each key, as "
                                  "strong as its weight, one colour per head"));

  out.text = new TextView;
  out.textDock = tokenDock(window, out.text,
                           QCoreApplication::translate("mhaviz::ui::HeadViewDock", "Text view"),
                           QStringLiteral("textViewDock"));
  follow(out.text, out.textDock, document, computation);
  // Under the head view, in its column: a few lines of text, where the head view wants height.
  window->splitDockWidget(out.headDock, out.textDock, Qt::Vertical);
  // Both shown in one column: the head view two thirds of its height.
  const auto share = [window, head = out.headDock, text = out.textDock] {
    if (!head->isVisible() || !text->isVisible() || head->isFloating() || text->isFloating())
      return;
    const int height = head->height() + text->height();
    window->resizeDocks({head, text}, {height * 2 / 3, height / 3}, Qt::Vertical);
  };
  QObject::connect(out.headDock->toggleViewAction(), &QAction::triggered, window, share);
  QObject::connect(out.textDock->toggleViewAction(), &QAction::triggered, window, share);
  out.textToggle = out.textDock->toggleViewAction();
  out.textToggle->setText(QCoreApplication::translate("mhaviz::ui::HeadViewDock", "Te&xt view"));
  out.textToggle->setToolTip(QCoreApplication::translate(
      "mhaviz::ui::HeadViewDock",
      "Show the text view: the key tokens as running text, shaded by the weight the hovered "
      "(or clicked) query gives them"));
  return out;
}

}  // namespace mhaviz::ui
