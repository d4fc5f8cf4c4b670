#pragma once
// mhaviz's five workspaces (window/workspaces.hpp) and their default arrangements:
//   Explore  the heatmap grid in the centre, Parameters and Masks and inputs tabbed on the left,
//            the head measures as a full-height column on the right;
//   Tokens   the head view and the text view side by side over most of the width, the grid
//            small in the centre on their left;
//   Compare  A | B | B - A over all the room right of the parameters (the grid steps aside:
//            B is the current settings);
//   Model    the layers x heads grid (and rollout/flow) in the centre; on the right the
//            selected layer's head measures (its parameters and masks as tabs behind them)
//            above its head view;
//   Teach    the grid in the centre, the walk-through below it, one column on the right: the
//            cell breakdown (tabbed with the shape flow) above the parameters (tabbed with the
//            masks).
// Sizes are shares of the window's width and height, bounded by what each dock needs, so that
// every default fits 1280x720 to 1920x1080. GUI thread only.

#include <QList>
#include <functional>
#include <memory>

#include "window/workspaces.hpp"

class QDockWidget;
class QMainWindow;

namespace mhaviz::ui {

class ModelPages;

/// The tab order (and Ctrl+1 ... Ctrl+5).
enum WorkspaceIndex : int { kExplore = 0, kTokens, kCompare, kModel, kTeach };

struct WorkspaceParts {
  QMainWindow* window = nullptr;
  ModelPages* pages = nullptr;  // the central widget
  QDockWidget* parameters = nullptr;
  QDockWidget* masks = nullptr;
  QDockWidget* measures = nullptr;
  QDockWidget* headView = nullptr;
  QDockWidget* textView = nullptr;
  QDockWidget* compare = nullptr;
  QDockWidget* walkthrough = nullptr;
  QDockWidget* breakdown = nullptr;
  QDockWidget* shapeFlow = nullptr;
  QDockWidget* image = nullptr;  // the Image view (a vision transformer's attention over its image)
  std::function<bool()> imageWanted;  // the model shown has an image: the Model workspace shows it
};

/// The five workspaces, in WorkspaceIndex order, arranging `parts`.
QList<Workspace> mhavizWorkspaces(const WorkspaceParts& parts);

/// Places the Text view, shown by the user in the Model workspace (whose arrangement leaves it
/// out), where it has room: under the head view where the right column holds the head
/// measures, the head view and the text view each at least at its minimum height (with room to
/// spare), else as a tab beside the head view, in front. Stacked as a third dock in a column too
/// short for three, it squeezed the head measures to a strip and itself below its minimum (the
/// key chips under the dock's edge) and made the window taller than the screen.
void placeTextViewInModel(const WorkspaceParts& parts);

}  // namespace mhaviz::ui
