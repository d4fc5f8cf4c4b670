#pragma once
// The layout audit (issue 40): what a user would call a broken layout, found in a window by
// itself, so that it cannot come back with the next dock. auditLayout() lists, for one state of
// a main window on screen:
//   - a label whose text does not fit it: wider than the label (not word-wrapped), or taller
//     (word-wrapped, cut at the bottom), unless it elides on purpose ("…" in the text and the
//     whole text as its tooltip);
//   - a button (push, tool, check, radio) whose text does not fit its width;
//   - a dock, or one of the views the window names, smaller than its minimum size hint (a
//     squeezed view, the head measures' "entropy / log(open l" of issue 40);
//   - a dock whose content scrolls sideways (a horizontal scroll bar shown: a column of bars or
//     fields squeezed, as the head measures were beside the head view);
//   - a tab (of tabbed docks, of a tab widget) whose text is elided for want of room;
//   - a visible toolbar whose widgets do not all fit (tabs moved into the extension menu).
// Text a view draws itself (a heatmap grid's titles, ticks and legend) and exported pictures are
// audited by picture_audit.hpp: each text inside its canvas, uncut by its box, not drawn over
// another.
// Docks that are tabs behind another are not looked at. Everything inside a scroll area's
// content counts where the content is laid out, not where
// the viewport cuts it (scrolling reaches it). Tolerance: one pixel.

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QRegularExpression>
#include <QScrollBar>
#include <QStringList>
#include <QStyle>
#include <QTabBar>
#include <QToolBar>

namespace mhaviz::ui::testing {

/// "QLabel \"entropy / log(open l…\" in Head measures".
inline QString describeWidget(const QWidget* widget, const QString& text) {
  QString where = QStringLiteral("the window");
  for (const QWidget* p = widget; p != nullptr; p = p->parentWidget()) {
    if (const auto* dock = qobject_cast<const QDockWidget*>(p)) {
      where = QStringLiteral("dock \"%1\"").arg(dock->windowTitle());
      break;
    }
  }
  QString shown = text.simplified();
  if (shown.size() > 60) shown = shown.left(57) + QStringLiteral("...");
  return QStringLiteral("%1 \"%2\" in %3")
      .arg(QString::fromLatin1(widget->metaObject()->className()), shown, where);
}

/// False for a widget in a dock that is a tab behind another (QMainWindow keeps such docks
/// "visible" but moves them off the window).
inline bool onScreen(const QWidget* widget, const QMainWindow& window) {
  for (const QWidget* p = widget; p != nullptr && p != &window; p = p->parentWidget()) {
    if (qobject_cast<const QDockWidget*>(p) != nullptr && p->parentWidget() == &window &&
        !window.rect().intersects(p->geometry())) {
      return false;
    }
  }
  return true;
}

inline bool elidesOnPurpose(const QString& text, const QString& toolTip) {
  return text.contains(QChar(0x2026)) && !toolTip.isEmpty();
}

/// The problems of `window`'s current layout (empty: none). `views` are the pictures the
/// window hands out (grid, head view, ...): each shown one must have its minimum size.
inline QStringList auditLayout(const QMainWindow& window, const QList<const QWidget*>& views) {
  QStringList problems;
  const auto size = [](const QSize& s) {
    return QStringLiteral("%1x%2").arg(s.width()).arg(s.height());
  };
  for (const QLabel* label : window.findChildren<QLabel*>()) {
    if (!label->isVisible() || label->text().isEmpty() || !onScreen(label, window)) continue;
    if (!label->pixmap().isNull()) continue;
    if (label->window() != &window) continue;  // a floating dock or a popup is its own window
    if (elidesOnPurpose(label->text(), label->toolTip())) continue;
    if (label->wordWrap()) {
      const int needed = label->heightForWidth(label->width());
      if (needed > label->height() + 1) {
        problems << QStringLiteral("%1: cut at the bottom (%2 px of %3 shown)")
                        .arg(describeWidget(label, label->text()))
                        .arg(label->height())
                        .arg(needed);
      }
    } else if (label->sizeHint().width() > label->width() + 1) {
      problems << QStringLiteral("%1: text %2 px wide in %3 px")
                      .arg(describeWidget(label, label->text()))
                      .arg(label->sizeHint().width())
                      .arg(label->width());
    }
  }
  for (const QAbstractButton* button : window.findChildren<QAbstractButton*>()) {
    if (!button->isVisible() || button->text().isEmpty() || !onScreen(button, window)) continue;
    if (button->window() != &window) continue;
    if (elidesOnPurpose(button->text(), button->toolTip())) continue;
    if (button->sizeHint().width() > button->width() + 1) {
      problems << QStringLiteral("%1: text needs %2 px, has %3")
                      .arg(describeWidget(button, button->text()))
                      .arg(button->sizeHint().width())
                      .arg(button->width());
    }
  }
  for (const QDockWidget* dock : window.findChildren<QDockWidget*>()) {
    if (!dock->isVisible() || dock->isFloating() || dock->parentWidget() != &window ||
        !onScreen(dock, window)) {
      continue;
    }
    const QSize min = dock->minimumSizeHint().expandedTo(dock->minimumSize());
    if (dock->width() + 1 < min.width() || dock->height() + 1 < min.height()) {
      problems << QStringLiteral("dock \"%1\" is %2, smaller than its minimum %3")
                      .arg(dock->windowTitle(), size(dock->size()), size(min));
    }
  }
  for (const QWidget* view : views) {
    if (view == nullptr || !view->isVisible() || !onScreen(view, window)) continue;
    const QSize min = view->minimumSizeHint().expandedTo(view->minimumSize());
    if (view->width() + 1 < min.width() || view->height() + 1 < min.height()) {
      problems << QStringLiteral("%1 is %2, smaller than its minimum %3")
                      .arg(describeWidget(view, view->windowTitle()), size(view->size()),
                           size(min));
    }
  }
  for (const QAbstractScrollArea* area : window.findChildren<QAbstractScrollArea*>()) {
    if (!area->isVisible() || area->window() != &window || !onScreen(area, window)) continue;
    const QScrollBar* sideways = area->horizontalScrollBar();
    if (sideways == nullptr || !sideways->isVisible()) continue;
    for (const QWidget* p = area; p != nullptr; p = p->parentWidget()) {
      if (qobject_cast<const QDockWidget*>(p) != nullptr) {
        problems << QStringLiteral("%1 scrolls sideways (%2 px more than its %3)")
                        .arg(describeWidget(area, QString()))
                        .arg(sideways->maximum())
                        .arg(area->viewport()->width());
        break;
      }
    }
  }
  for (const QTabBar* tabs : window.findChildren<QTabBar*>()) {
    if (!tabs->isVisible() || tabs->window() != &window || !onScreen(tabs, window)) continue;
    const int space = tabs->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, tabs);
    for (int i = 0; i < tabs->count(); ++i) {
      QString text = tabs->tabText(i);
      text.remove(QRegularExpression(QStringLiteral("&(?!&)")));  // the accelerator's mark
      const int needed = tabs->fontMetrics().horizontalAdvance(text) + space;
      if (tabs->tabRect(i).width() + 1 < needed) {
        problems << QStringLiteral("%1: tab elided (%2 px of %3)")
                        .arg(describeWidget(tabs, tabs->tabText(i)))
                        .arg(tabs->tabRect(i).width())
                        .arg(needed);
      }
    }
  }
  for (const QToolBar* bar : window.findChildren<QToolBar*>()) {
    if (!bar->isVisible() || bar->parentWidget() != &window) continue;
    for (QAction* action : bar->actions()) {
      if (action->isVisible() && !action->isSeparator()) {
        QWidget* w = bar->widgetForAction(action);
        if (w != nullptr && !w->isVisible()) {
          problems << QStringLiteral("toolbar \"%1\": \"%2\" moved into its extension menu")
                          .arg(bar->windowTitle(), action->text());
        }
      }
    }
  }
  return problems;
}

}  // namespace mhaviz::ui::testing
