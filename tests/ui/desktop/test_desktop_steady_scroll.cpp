// The steady scroll area on plain widgets: the field with focus keeps its place on screen when
// rows above it appear or go (and the user's own scrolling moves that place), a moved pointer
// chooses the field under it while a still one does not, the anchor falls back to the focus when
// the pointer leaves, and Tab brings a field into view by as little as it takes.

#include "test_desktop.hpp"

#include <QApplication>
#include <QEnterEvent>
#include <QEvent>
#include <QLabel>
#include <QLineEdit>
#include <QList>
#include <QPushButton>
#include <QScrollBar>
#include <QTest>
#include <QVBoxLayout>

#include "desktop/steady_scroll_area.hpp"

using mhaviz::ui::SteadyScrollArea;

namespace {

/// A SteadyScrollArea of `count` fields of type T (40 px high) under a row hidden at first (80 px
/// high), in a window with one field outside the area, shown and active.
template <typename T>
struct SteadyForm {
  QWidget window;
  SteadyScrollArea* area = new SteadyScrollArea(&window);
  QWidget* content = new QWidget;
  QLabel* row = new QLabel(QStringLiteral("A row that comes and goes"), content);
  QList<T*> fields;
  QLineEdit* outside = new QLineEdit(&window);

  explicit SteadyForm(int count) {
    auto* rows = new QVBoxLayout(content);
    row->setFixedHeight(80);
    row->hide();
    rows->addWidget(row);
    for (int i = 0; i < count; ++i) {
      auto* field = new T(content);
      field->setFixedHeight(40);
      field->setObjectName(QStringLiteral("field%1").arg(i));
      rows->addWidget(field);
      fields << field;
    }
    area->setContent(content);
    auto* layout = new QVBoxLayout(&window);
    layout->addWidget(area);
    layout->addWidget(outside);
    window.resize(320, 360);
  }

  bool show() {
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) return false;
    window.activateWindow();
    return QTest::qWaitForWindowActive(&window);
  }

  [[nodiscard]] QScrollBar* bar() const { return area->verticalScrollBar(); }
  /// Where `w` is in the area's view.
  [[nodiscard]] QPoint place(const QWidget* w) const {
    return w->mapTo(area->viewport(), QPoint(0, 0));
  }
};

/// The middle of `w`, global.
QPoint middle(const QWidget* w) { return w->mapToGlobal(w->rect().center()); }

/// The pointer entering `target`, at `global`: what Qt sends when the pointer moves onto a
/// widget, and also when a widget appears or moves under a pointer that stays where it is.
void enter(QWidget* target, QPoint global) {
  const QPointF at(global);
  QEnterEvent event(target->mapFromGlobal(at), target->window()->mapFromGlobal(at), at);
  QApplication::sendEvent(target, &event);
}

}  // namespace

// Issue 28 item 11 on a plain scroll area: the field being worked in stays where it was on
// screen when a row appears above it and when it goes again; a scroll by the user in between
// is the new place to keep.
void TestDesktop::theFieldWithFocusKeepsItsPlace() {
  SteadyForm<QLineEdit> form(30);
  QVERIFY(form.show());
  QTRY_VERIFY(form.bar()->maximum() > 200);
  QLineEdit* field = form.fields.at(20);
  // The field a third of the way down the view.
  form.bar()->setValue(field->mapTo(form.content, QPoint(0, 0)).y() -
                       form.area->viewport()->height() / 3);
  field->setFocus();
  QTRY_COMPARE(form.area->anchor(), field);
  const QPoint before = form.place(field);
  QVERIFY(before.y() > 0 && before.y() < form.area->viewport()->height());
  const int scrolled = form.bar()->value();
  const int top = field->y();  // in the content

  form.row->show();                     // 80 px and a spacing above the field
  QTRY_VERIFY(field->y() >= top + 80);  // laid out again: the field moved down in the content
  QTRY_COMPARE(form.place(field), before);
  QVERIFY(form.bar()->value() >= scrolled + 80);  // and the view followed it

  // The user scrolls up a little: the field is lower on screen, and that is where it stays.
  form.bar()->setValue(form.bar()->value() - 30);
  const QPoint moved = form.place(field);
  QCOMPARE(moved.y(), before.y() + 30);
  form.row->hide();
  QTRY_COMPARE(field->y(), top);
  QTRY_COMPARE(form.place(field), moved);
  QCOMPARE(form.area->anchor(), field);
}

// The anchor is the field the pointer moved onto; an Enter with the pointer where it was (a field
// that moved under a still pointer) chooses nothing. Fields added after setContent are watched as
// well.
void TestDesktop::aMovedPointerChoosesTheFieldAStillOneDoesNot() {
  SteadyForm<QLineEdit> form(30);
  QVERIFY(form.show());
  QTRY_VERIFY(form.bar()->maximum() > 200);
  QCOMPARE(form.bar()->value(), 0);
  QLineEdit* first = form.fields.at(1);
  QLineEdit* second = form.fields.at(3);

  const QPoint pointer = middle(first);
  enter(first, pointer);
  QCOMPARE(form.area->anchor(), first);
  // The view scrolls by one field under the still pointer: the next field is there now, and it
  // is told that the pointer entered it. The anchor stays.
  form.bar()->setValue(form.fields.at(2)->y() - first->y());
  QWidget* under = form.content->childAt(form.content->mapFromGlobal(pointer));
  QCOMPARE(under, form.fields.at(2));
  enter(under, pointer);
  QCOMPARE(form.area->anchor(), first);
  // The pointer moves: the field under it is chosen, whichever widget the Enter reached.
  enter(second, middle(second));
  QCOMPARE(form.area->anchor(), second);
  enter(second, middle(form.fields.at(4)));
  QCOMPARE(form.area->anchor(), form.fields.at(4));

  auto* added = new QLineEdit(form.content);
  added->setFixedHeight(40);
  form.content->layout()->addWidget(added);
  QTRY_VERIFY(added->isVisible());
  QTRY_VERIFY(added->y() > form.fields.last()->y());
  form.area->ensureWidgetVisible(added);  // the pointer can only be over it in sight
  QTRY_VERIFY(
      form.area->viewport()->rect().contains(form.area->viewport()->mapFromGlobal(middle(added))));
  enter(added, middle(added));
  QCOMPARE(form.area->anchor(), added);
}

// When the pointer leaves the content, the field with focus in the area is the one kept; with no
// focus in the area, none.
void TestDesktop::leavingGivesTheAnchorBackToTheFocus() {
  SteadyForm<QLineEdit> form(6);
  QVERIFY(form.show());
  QLineEdit* focused = form.fields.at(0);
  QLineEdit* pointed = form.fields.at(4);
  focused->setFocus();
  QTRY_COMPARE(form.area->anchor(), focused);
  enter(pointed, middle(pointed));
  QCOMPARE(form.area->anchor(), pointed);
  QEvent leave(QEvent::Leave);
  QApplication::sendEvent(form.content, &leave);
  QCOMPARE(form.area->anchor(), focused);

  // The focus goes outside the area: it is no anchor, and leaving keeps none.
  form.outside->setFocus();
  QTRY_VERIFY(form.outside->hasFocus());
  QCOMPARE(form.area->anchor(), focused);
  enter(pointed, middle(form.fields.at(5)));
  QCOMPARE(form.area->anchor(), form.fields.at(5));
  QApplication::sendEvent(form.content, &leave);
  QVERIFY(form.area->anchor() == nullptr);
}

// Tab to a field below the view scrolls until it shows with a 4 px margin, not the 50 px that
// QScrollArea leaves.
void TestDesktop::tabScrollsByAsLittleAsItTakes() {
  SteadyForm<QPushButton> form(20);
  QVERIFY(form.show());
  QTRY_VERIFY(form.bar()->maximum() > 0);
  QCOMPARE(form.bar()->value(), 0);
  const int viewHeight = form.area->viewport()->height();
  // The first button that does not show whole, and the one before it, which does.
  qsizetype next = 0;
  while (next < form.fields.size() &&
         form.place(form.fields.at(next)).y() + form.fields.at(next)->height() <= viewHeight) {
    ++next;
  }
  QVERIFY(next > 0 && next < form.fields.size());
  QPushButton* shown = form.fields.at(next - 1);
  QPushButton* below = form.fields.at(next);
  shown->setFocus();
  QTRY_VERIFY(shown->hasFocus());
  QCOMPARE(form.bar()->value(), 0);

  QTest::keyClick(shown, Qt::Key_Tab);
  QTRY_VERIFY(below->hasFocus());
  QCOMPARE(form.place(below).y() + below->height(), viewHeight - 4);
}
