// Two model files compared in the window (compare/model_compare.hpp): B is the model open in the
// model view; the map and batch element compared are the document's selection, and a map chosen
// in the comparison is selected (its layer opened as the session) as a click in the model view
// would; comparing shows the Compare workspace (main_window.hpp).
#include <QDockWidget>

#include "compare/compare_panel.hpp"
#include "compare/model_compare.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "window/main_window.hpp"
#include "window/workspace_arrangements.hpp"
#include "window/workspaces.hpp"

namespace mhaviz::ui {

void MainWindow::installModelCompare() {
  ModelCompare* models = m_compare->modelCompare();
  ModelView* view = m_pages->modelView();
  connect(view, &ModelView::modelLoaded, models, [models, view] {
    const std::shared_ptr<const LoadedModel> loaded = view->loaded();
    ModelSide side;
    if (loaded) {
      side.name = loaded->displayName;
      side.model = std::shared_ptr<const model::Model>(loaded, &loaded->model);
      side.computed = std::shared_ptr<const model::ComputedModel>(loaded, &loaded->computed);
    }
    models->setOpenModel(side);
  });
  connect(view, &ModelView::modelClosed, models, [models] { models->setOpenModel({}); });
  connect(models, &ModelCompare::mapChosen, m_pages, &ModelPages::selectLayer);
  // Back from Compare to the workspace shown before it (Explore when that was Compare too).
  const auto back = [this](int from) {
    if (m_workspaces->current() != from) return;
    const int before = m_workspaces->previous();
    m_workspaces->setCurrent(before != from ? before : kExplore);
  };
  // Comparing two model files shows Compare, over the whole width: the Parameters and the Masks
  // and inputs docks, which describe the session and not the two files, step aside until the
  // comparison ends (View > Parameter panel shows them meanwhile). Closing it goes back.
  connect(models, &ModelCompare::activeChanged, this, [this, back](bool on) {
    if (on) {
      // The Compare arrangement to come back to: the one remembered (empty: its default), or
      // the one on screen when Compare is shown already.
      const bool shown = m_workspaces->current() == kCompare;
      m_asideFor = shown ? QByteArray() : m_workspaces->arrangement(kCompare);
      m_workspaces->setCurrent(kCompare);
      if (shown) m_asideFor = m_workspaces->arrangement(kCompare);
      for (QDockWidget* dock : {m_dock, m_maskDock}) {
        if (dock->isVisible() && !dock->isFloating()) {
          m_aside << dock;
          dock->hide();
        }
      }
      return;
    }
    if (m_workspaces->current() == kCompare) {
      for (QDockWidget* dock : std::as_const(m_aside)) dock->show();
      if (m_aside.contains(m_dock)) m_dock->raise();
    } else {
      m_workspaces->setArrangement(kCompare, m_asideFor);  // as it was before the comparison
    }
    m_aside.clear();
    m_asideFor.clear();
    if (!m_compare->isPinned()) back(kCompare);
  });
}

}  // namespace mhaviz::ui
