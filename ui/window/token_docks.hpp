#pragma once
// The token views (ui/tokens: the head view and the text view) as docks of the main window,
// fed from the document's current result and view, the same place the grid
// is drawn from. GUI thread.

#include <functional>
#include <memory>

#include "mhaviz/core/forward/result.hpp"
#include "stages/view_options.hpp"

class QAction;
class QDockWidget;
class QMainWindow;

namespace mhaviz::ui {

class Document;
class HeadView;
class TextView;

struct TokenDocks {
  HeadView* head = nullptr;
  QDockWidget* headDock = nullptr;
  QAction* headToggle = nullptr;  // View > Head view and the toolbar's toggle
  TextView* text = nullptr;
  QDockWidget* textDock = nullptr;
  QAction* textToggle = nullptr;  // View > Text view and the toolbar's toggle
  /// Shows a stored result (a weights-only model's layer, ModelPages::storedLayerShown) in both
  /// views instead of the document's, until called with null.
  std::function<void(std::shared_ptr<const mhaviz::ForwardResult>, const ViewOptions&)> showStored;
};

/// Creates the "Head view" and "Text view" docks (right, side by side; hidden until asked for;
/// the window's workspaces arrange them) and keeps each following `document`, which outlives
/// them, while it is shown.
TokenDocks installTokenViews(QMainWindow* window, Document* document);

}  // namespace mhaviz::ui
