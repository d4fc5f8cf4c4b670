#pragma once
// "Attention explained": short pages on the points of nn.MultiheadAttention that are most often
// misunderstood, reachable from Help > Attention explained. GUI thread only.

#include <QList>
#include <QString>

class QMenu;
class QWidget;

namespace mhaviz::ui {

struct ExplanationPage {
  QString title;  // menu entry and dialog title (translated)
  QString html;   // the page (translated)
};

/// Every page, in menu order.
QList<ExplanationPage> explanationPages();

/// Adds the "Attention explained" submenu to `help`; each entry opens its page in a dialog
/// parented to `parent`.
QMenu* addExplanationsMenu(QMenu* help, QWidget* parent);

}  // namespace mhaviz::ui
