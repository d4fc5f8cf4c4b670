#include "window/workspace_arrangements.hpp"

#include <QCoreApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QMainWindow>
#include <QScrollBar>
#include <QStyle>
#include <QTableView>
#include <algorithm>

#include "model/model_pages.hpp"

namespace mhaviz::ui {

namespace {

// A share of `total`, at least `low` and at most `high` (and never more than half of it).
int share(int total, double fraction, int low, int high) {
  const int wanted = std::clamp(static_cast<int>(total * fraction), low, high);
  return std::min(wanted, total / 2);
}

// Every dock of `parts` taken out of the window's layout (hidden), so that the arrangement
// places each anew: splitting a dock that is a tab of a group would not take it out of it.
void takeAll(const WorkspaceParts& parts) {
  for (QDockWidget* dock :
       {parts.parameters, parts.masks, parts.measures, parts.headView, parts.textView,
        parts.compare, parts.walkthrough, parts.breakdown, parts.shapeFlow, parts.image}) {
    if (dock == nullptr) continue;
    // (setFloating(false) on a docked dock still hides, re-flags and shows it again: about a
    // millisecond of the GUI thread per dock on every default arrangement)
    if (dock->isFloating()) dock->setFloating(false);
    parts.window->removeDockWidget(dock);
  }
}

// The docks of the arrangement shown; the others back in the layout, hidden, on the right
// (where View > ... or a dock's own request shows them docked, not floating).
void showAll(const WorkspaceParts& parts, const QList<QDockWidget*>& shown) {
  for (QDockWidget* dock : {parts.parameters, parts.masks, parts.measures, parts.headView,
                            parts.textView, parts.compare, parts.walkthrough, parts.breakdown,
                            parts.shapeFlow, parts.image}) {
    if (dock == nullptr) continue;
    if (shown.contains(dock)) {
      dock->show();
    } else {
      parts.window->addDockWidget(Qt::RightDockWidgetArea, dock);
      dock->hide();
    }
  }
}

// Parameters and Masks and inputs tabbed on the left, the parameters in front.
void leftPanels(const WorkspaceParts& parts) {
  parts.window->addDockWidget(Qt::LeftDockWidgetArea, parts.parameters);
  parts.window->tabifyDockWidget(parts.parameters, parts.masks);
}

// The width the shape flow's table needs to show its shape columns whole beside the narrowest
// step column (the step's text elides, with a tooltip).
int shapeFlowWidth(const QDockWidget* dock) {
  // (the dock's widget is the table under the line that names the layer: dock_subject.hpp)
  const auto* table = dock->findChild<const QTableView*>();
  if (table == nullptr) return 0;
  const QHeaderView* header = table->horizontalHeader();
  int width = header->minimumSectionSize();
  for (int c = 1; c < header->count(); ++c) width += header->sectionSize(c);  // to contents
  width += 2 * table->frameWidth() + table->verticalScrollBar()->sizeHint().width();
  return width + 2 * dock->style()->pixelMetric(QStyle::PM_DockWidgetFrameWidth, nullptr, dock) + 4;
}

int leftWidth(const QMainWindow* window) { return share(window->width(), 0.21, 270, 360); }

}  // namespace

QList<Workspace> mhavizWorkspaces(const WorkspaceParts& parts) {
  QMainWindow* window = parts.window;
  ModelPages* pages = parts.pages;
  const auto layerCentre = [pages] {
    pages->setVisible(true);
    pages->showLayerView();
  };

  QList<Workspace> list;
  list.append(Workspace{
      QStringLiteral("explore"), QCoreApplication::translate("mhaviz::ui::Workspaces", "Explore"),

      QCoreApplication::translate("mhaviz::ui::Workspaces",
                                  "The heatmap grid with the parameters and the head measures"),
      QKeySequence(Qt::CTRL | Qt::Key_1), layerCentre,
      [=] {
        const QList<QDockWidget*> shown = {parts.parameters, parts.masks, parts.measures};
        takeAll(parts);
        leftPanels(parts);
        window->addDockWidget(Qt::RightDockWidgetArea, parts.measures);
        showAll(parts, shown);
        parts.parameters->raise();
      },
      [=] {
        const int right = share(window->width(), 0.19, 300, 360);
        window->resizeDocks({parts.parameters, parts.measures}, {leftWidth(window), right},
                            Qt::Horizontal);
      }});
  list.append(Workspace{
      QStringLiteral("tokens"), QCoreApplication::translate("mhaviz::ui::Workspaces", "Tokens"),

      QCoreApplication::translate("mhaviz::ui::Workspaces",
                                  "The head view and the text view side by side, the grid small"),
      QKeySequence(Qt::CTRL | Qt::Key_2), layerCentre,
      [=] {
        const QList<QDockWidget*> shown = {parts.headView, parts.textView};
        takeAll(parts);
        window->addDockWidget(Qt::RightDockWidgetArea, parts.headView);
        window->splitDockWidget(parts.headView, parts.textView, Qt::Horizontal);
        showAll(parts, shown);
      },
      [=] {
        const int w = window->width();
        window->resizeDocks({parts.headView, parts.textView},
                            {static_cast<int>(w * 0.40), static_cast<int>(w * 0.33)},
                            Qt::Horizontal);
      }});
  list.append(Workspace{
      QStringLiteral("compare"), QCoreApplication::translate("mhaviz::ui::Workspaces", "Compare"),

      QCoreApplication::translate(
          "mhaviz::ui::Workspaces",
          "A, B and B \u2212 A side by side: pin A, then change the settings"),
      QKeySequence(Qt::CTRL | Qt::Key_3),
      [pages] { pages->setVisible(false); },  // B is the current settings: A | B | B - A has it
      [=] {
        const QList<QDockWidget*> shown = {parts.parameters, parts.masks, parts.compare};
        takeAll(parts);
        leftPanels(parts);
        window->addDockWidget(Qt::RightDockWidgetArea, parts.compare);
        showAll(parts, shown);
        parts.parameters->raise();
      },
      [=] {
        const int left = leftWidth(window);
        window->resizeDocks({parts.parameters, parts.compare}, {left, window->width() - left},
                            Qt::Horizontal);
      }});
  list.append(Workspace{
      QStringLiteral("model"), QCoreApplication::translate("mhaviz::ui::Workspaces", "Model"),

      QCoreApplication::translate(
          "mhaviz::ui::Workspaces",
          "The layers \u00d7 heads grid of a model; the docks show the layer selected"),
      QKeySequence(Qt::CTRL | Qt::Key_4),
      [pages] {
        pages->setVisible(true);
        pages->showModelView();
      },
      [=] {
        // One column on the right: the selected layer's head measures (its parameters,
        // read-only, and masks as tabs behind them) above its head view.
        // A vision transformer's Image view is a tab beside the head view, in front; for a
        // model without an image it waits there hidden (it comes with the next that has one).
        const bool image = parts.image != nullptr && parts.imageWanted && parts.imageWanted();
        QList<QDockWidget*> shown = {parts.measures, parts.parameters, parts.masks, parts.headView};
        if (image) shown.append(parts.image);
        takeAll(parts);
        window->addDockWidget(Qt::RightDockWidgetArea, parts.measures);
        window->tabifyDockWidget(parts.measures, parts.parameters);
        window->tabifyDockWidget(parts.measures, parts.masks);
        window->addDockWidget(Qt::RightDockWidgetArea, parts.headView, Qt::Vertical);
        if (image) window->tabifyDockWidget(parts.headView, parts.image);
        showAll(parts, shown);
        // Hidden docks wait as tabs beside the head view: shown, they come back there. The text
        // view (placeTextViewInModel then moves it under the head view where the column has
        // room), never as a third dock squeezed into the column; the Image view of a model
        // without an image, for the next model that has one.
        for (QDockWidget* tab : {image ? nullptr : parts.image, parts.textView}) {
          if (tab == nullptr) continue;
          window->tabifyDockWidget(parts.headView, tab);
          tab->hide();
        }
        parts.measures->raise();
        (image ? parts.image : parts.headView)->raise();
      },
      [=] {
        // The head view's key column and head chips without scrolling sideways.
        const int right = share(window->width(), 0.24, 340, 440);
        window->resizeDocks({parts.measures}, {right}, Qt::Horizontal);
        const int h = parts.measures->height() + parts.headView->height();
        // a vision transformer's Image view (in front of the head view) takes more of it
        const int below = parts.imageWanted && parts.imageWanted() ? 68 : 55;
        window->resizeDocks({parts.measures, parts.headView},
                            {h * (100 - below) / 100, h * below / 100}, Qt::Vertical);
      }});
  list.append(Workspace{
      QStringLiteral("teach"), QCoreApplication::translate("mhaviz::ui::Workspaces", "Teach"),

      QCoreApplication::translate(
          "mhaviz::ui::Workspaces",
          "The walk-through, the grid and the arithmetic of the clicked cell"),
      QKeySequence(Qt::CTRL | Qt::Key_5), layerCentre,
      [=] {
        const QList<QDockWidget*> shown = {parts.parameters, parts.masks, parts.walkthrough,
                                           parts.breakdown, parts.shapeFlow};
        takeAll(parts);
        // One column on the right, the grid the rest of the width: a lecturer's 1280x720
        // projector has no room for a column on each side.
        // The breakdown (tabbed with the shape flow) above the parameters (tabbed with the
        // masks): two tabs each, whose titles fit the column.
        window->addDockWidget(Qt::RightDockWidgetArea, parts.breakdown);
        window->tabifyDockWidget(parts.breakdown, parts.shapeFlow);
        window->addDockWidget(Qt::RightDockWidgetArea, parts.parameters, Qt::Vertical);
        window->tabifyDockWidget(parts.parameters, parts.masks);
        window->addDockWidget(Qt::BottomDockWidgetArea, parts.walkthrough);
        showAll(parts, shown);
        parts.breakdown->raise();
        parts.parameters->raise();
      },
      [=] {
        window->resizeDocks(
            {parts.breakdown},
            // every column of the shape flow's table
            {std::max(share(window->width(), 0.24, 320, 420),
                      std::min(shapeFlowWidth(parts.shapeFlow), window->width() / 3))},
            Qt::Horizontal);
        window->resizeDocks({parts.walkthrough}, {share(window->height(), 0.26, 170, 260)},
                            Qt::Vertical);
      }});
  return list;
}

void placeTextViewInModel(const WorkspaceParts& parts) {
  QMainWindow* window = parts.window;
  QDockWidget* text = parts.textView;
  QDockWidget* head = parts.headView;
  QDockWidget* measures = parts.measures;
  if (text == nullptr || head == nullptr || measures == nullptr || text->isFloating()) return;
  const auto inColumn = [window](QDockWidget* dock) {
    return dock->isVisible() && !dock->isFloating() &&
           window->dockWidgetArea(dock) == Qt::RightDockWidgetArea;
  };
  const auto least = [](const QDockWidget* dock) {
    return dock->minimumSizeHint().expandedTo(dock->minimumSize()).height();
  };
  if (!inColumn(head)) {  // the column is the user's own now: where Qt put it is as good as any
    text->raise();
    return;
  }
  // The column: the head measures (when docked there) and the head view's tab group, each at
  // least its minimum (the group's is its largest tab's, the Image view's among them).
  QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
  int column = head->height();
  int needed = least(text);
  int group = least(head);
  for (QDockWidget* tab : window->tabifiedDockWidgets(head)) {
    if (tab != text && tab->isVisible()) group = std::max(group, least(tab));
  }
  needed += group;
  const bool withMeasures = inColumn(measures) && window->rect().intersects(measures->geometry());
  if (withMeasures) {
    column += measures->height();
    needed += least(measures);
  }
  const int spare = text->fontMetrics().height() * 8;  // a few rows of tokens or bars more
  if (column >= needed + spare) {
    window->removeDockWidget(text);
    window->addDockWidget(Qt::RightDockWidgetArea, text, Qt::Vertical);
    text->show();
    // Each at least its minimum, the rest shared: the text view a third of it.
    const int rest = column - needed;
    QList<QDockWidget*> docks;
    QList<int> heights;
    if (withMeasures) {
      docks << measures;
      heights << least(measures) + rest / 3;
    }
    docks << head << text;
    heights << group + (withMeasures ? rest / 3 : rest * 2 / 3) << least(text) + rest / 3;
    window->resizeDocks(docks, heights, Qt::Vertical);
  } else if (!window->tabifiedDockWidgets(head).contains(text)) {
    window->tabifyDockWidget(head, text);
    text->show();
  }
  text->raise();
}

}  // namespace mhaviz::ui
