#include "window/token_docks.hpp"

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QMainWindow>

#include "document/document.hpp"
#include "tokens/head_view.hpp"
#include "tokens/text_view.hpp"

namespace mhaviz::ui {

namespace {

// A dock on the right, a column of its own beside the other right docks (not under them): the
// token views want height. Hidden until asked for; where it goes and how large it is, is the
// window's workspaces' (the Tokens workspace has both side by side).
QDockWidget* tokenDock(QMainWindow* window, QWidget* view, const QString& title,
                       const QString& name) {
  auto* dock = new QDockWidget(title, window);
  dock->setObjectName(name);
  dock->setWidget(view);
  dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                    QDockWidget::DockWidgetClosable);
  window->addDockWidget(Qt::RightDockWidgetArea, dock, Qt::Horizontal);
  dock->hide();
  return dock;
}

// A weights-only model's layer shown instead of the document's result (null: none).
struct StoredResult {
  ResultPtr result;
  ViewOptions view;
};

// Keeps `view` drawing the current result with the document's view fitted to it, as the grid
// draws it, and the pictures of the image the session's layer attends over (its origin's, a
// vision transformer's layer; the origin changes with the tensors, and a result follows); or the
// stored result, while there is one. Only while `dock` is shown (it catches up on the way back).
// Returns the update, for a new stored result.
std::function<void()> follow(TokenView* view, QDockWidget* dock, Document* document,
                             std::shared_ptr<const StoredResult> stored) {
  const auto update = [view, dock, document, stored] {
    if (!dock->isVisible()) return;
    if (stored->result) {
      view->setResult(stored->result, stored->view);
      return;
    }
    const ResultPtr result = document->computed().result;
    view->setResult(result, result ? fitView(document->view(), viewBounds(*result)) : ViewOptions{},
                    document->computed().measures(), document->origin().pictures);
  };
  QObject::connect(document, &Document::changed, view, [update](Document::Changes what) {
    using C = Document::Change;
    if (what & (C::view | C::result | C::measures)) update();
  });
  QObject::connect(dock, &QDockWidget::visibilityChanged, view, [update](bool shown) {
    if (shown) update();
  });
  return update;
}

}  // namespace

TokenDocks installTokenViews(QMainWindow* window, Document* document) {
  TokenDocks out;
  auto stored = std::make_shared<StoredResult>();
  out.head = new HeadView;
  out.headDock = tokenDock(window, out.head,
                           QCoreApplication::translate("mhaviz::ui::HeadViewDock", "Head view"),
                           QStringLiteral("headViewDock"));
  const std::function<void()> updateHead = follow(out.head, out.headDock, document, stored);
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
  const std::function<void()> updateText = follow(out.text, out.textDock, document, stored);
  out.showStored = [stored, updateHead, updateText](ResultPtr result, const ViewOptions& view) {
    stored->result = std::move(result);
    stored->view = view;
    updateHead();
    updateText();
  };
  // Beside the head view, in a column of its own.
  window->splitDockWidget(out.headDock, out.textDock, Qt::Horizontal);
  out.textToggle = out.textDock->toggleViewAction();
  out.textToggle->setText(QCoreApplication::translate("mhaviz::ui::HeadViewDock", "Te&xt view"));
  out.textToggle->setToolTip(QCoreApplication::translate(
      "mhaviz::ui::HeadViewDock",
      "Show the text view: the key tokens as running text, shaded by the weight the hovered "
      "(or clicked) query gives them"));
  return out;
}

}  // namespace mhaviz::ui
