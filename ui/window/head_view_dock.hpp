#pragma once
// The head view (tokens/head_view.hpp) as a dock of the main window, fed from the computation's
// current result and the document's view, the same place the grid is drawn from. GUI thread.

class QAction;
class QMainWindow;

namespace mhaviz::ui {

class Computation;
class Document;
class HeadView;

struct HeadViewDock {
  HeadView* view = nullptr;
  QAction* toggle = nullptr;  // View > Head view and the toolbar's toggle
};

/// Creates the "Head view" dock (right, hidden until asked for) and keeps it following
/// `computation` and `document`, which outlive it.
HeadViewDock installHeadView(QMainWindow* window, Document* document, Computation* computation);

}  // namespace mhaviz::ui
