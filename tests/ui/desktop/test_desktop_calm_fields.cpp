// Calm fields on plain widgets: a typed number is committed once (Enter, focus-out or a pause in
// typing), stepping stays live; the wheel over a field without focus changes nothing, gives no
// focus and scrolls the scroll area around it, and steps the field that has focus; scroll bars
// are left as they are.

#include "test_desktop.hpp"

#include <QtTest/qtestspontaneevent.h>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <QVBoxLayout>
#include <QWheelEvent>

#include "desktop/calm_fields.hpp"

namespace {

/// A window with a spin box, a combo box and a slider at the top of a scroll area taller than
/// its view, a line edit below it (somewhere else for the focus to go), calmed by calmFields.
struct CalmForm {
  QWidget window;
  QScrollArea* area = new QScrollArea(&window);
  QWidget* content = new QWidget;
  QSpinBox* spin = new QSpinBox(content);
  QComboBox* combo = new QComboBox(content);
  QSlider* slider = new QSlider(Qt::Horizontal, content);
  QLineEdit* elsewhere = new QLineEdit(&window);

  CalmForm() {
    spin->setRange(0, 100);
    spin->setValue(8);
    combo->addItems({QStringLiteral("one"), QStringLiteral("two"), QStringLiteral("three")});
    combo->setCurrentIndex(1);
    slider->setRange(0, 100);
    slider->setValue(50);
    auto* rows = new QVBoxLayout(content);
    rows->addWidget(spin);
    rows->addWidget(combo);
    rows->addWidget(slider);
    rows->addSpacing(2000);  // something to scroll to
    area->setWidget(content);
    area->setWidgetResizable(true);
    auto* layout = new QVBoxLayout(&window);
    layout->addWidget(area);
    layout->addWidget(elsewhere);
    mhaviz::ui::calmFields(&window);
    window.resize(300, 300);
  }

  /// Shown and active (focus goes only to the widgets of the active window).
  bool show() {
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) return false;
    window.activateWindow();
    return QTest::qWaitForWindowActive(&window);
  }
};

/// One wheel notch over the middle of `field` as the mouse gives it: a spontaneous event, which
/// QApplication hands to the parents while it is ignored and which gives focus to a field whose
/// policy takes focus by the wheel. (A wheel event sent with QApplication::sendEvent is not
/// spontaneous: Qt 6 passes it to no parent and gives no focus.)
void wheel(QWidget* field, int delta) {
  const QPointF at(field->width() / 2.0, field->height() / 2.0);
  QWheelEvent event(at, field->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QSpontaneKeyEvent::setSpontaneous(&event);
  QApplication::instance()->notify(field, &event);
}

}  // namespace

// Issue 15 item 2, on a plain spin box: typing "40" passes through 4 without committing it.
void TestDesktop::aTypedNumberCommitsOnce() {
  CalmForm form;
  QVERIFY(form.show());
  QSpinBox* spin = form.spin;
  spin->setFocus();
  QTRY_VERIFY(spin->hasFocus());
  QSignalSpy changes(spin, &QSpinBox::valueChanged);
  spin->selectAll();
  QTest::keyClicks(spin, QStringLiteral("40"));
  QCOMPARE(changes.count(), 0);  // not at each keystroke
  QTest::keyClick(spin, Qt::Key_Return);
  QCOMPARE(changes.count(), 1);
  QCOMPARE(changes.last().first().toInt(), 40);

  // A pause in typing commits as well, once, and not before the pause.
  spin->selectAll();
  changes.clear();
  QElapsedTimer typing;
  typing.start();
  QTest::keyClicks(spin, QStringLiteral("12"));
  QCOMPARE(changes.count(), 0);
  QTRY_COMPARE_WITH_TIMEOUT(changes.count(), 1, 3000);
  // A single-shot QTimer of this length may fire up to 5 % early (Qt::CoarseTimer).
  QVERIFY2(typing.elapsed() >= mhaviz::ui::kTypingPauseMs * 9 / 10,
           qPrintable(QString::number(typing.elapsed())));
  QCOMPARE(spin->value(), 12);

  // Arrows and Page keys step at once.
  QTest::keyClick(spin, Qt::Key_Up);
  QCOMPARE(changes.count(), 2);
  QCOMPARE(spin->value(), 13);
  QTest::keyClick(spin, Qt::Key_PageUp);
  QCOMPARE(changes.count(), 3);
  QCOMPARE(spin->value(), 23);
}

// Leaving the field commits what was typed at once, without waiting for the pause.
void TestDesktop::aTypedNumberCommitsOnFocusOut() {
  CalmForm form;
  QVERIFY(form.show());
  QSpinBox* spin = form.spin;
  spin->setFocus();
  QTRY_VERIFY(spin->hasFocus());
  QSignalSpy changes(spin, &QSpinBox::valueChanged);
  spin->selectAll();
  QTest::keyClicks(spin, QStringLiteral("71"));
  QCOMPARE(changes.count(), 0);
  form.elsewhere->setFocus();
  QTRY_VERIFY(form.elsewhere->hasFocus());
  QCOMPARE(changes.count(), 1);
  QCOMPARE(spin->value(), 71);
}

// Issue 15 item 5, on plain fields: the wheel over a field without focus leaves its value alone,
// does not give it focus, and scrolls the scroll area the field is in.
void TestDesktop::theWheelScrollsPastAnUnfocusedField() {
  CalmForm form;
  QVERIFY(form.show());
  form.elsewhere->setFocus();
  QTRY_VERIFY(form.elsewhere->hasFocus());
  QScrollBar* bar = form.area->verticalScrollBar();
  QTRY_VERIFY(bar->maximum() > 0);
  QCOMPARE(bar->value(), 0);

  for (QWidget* field : QList<QWidget*>{form.spin, form.combo, form.slider}) {
    QCOMPARE(field->focusPolicy(), Qt::StrongFocus);  // never by the wheel
  }
  wheel(form.spin, -120);
  QCOMPARE(form.spin->value(), 8);
  QVERIFY(!form.spin->hasFocus());
  QVERIFY2(bar->value() > 0, "the wheel over the spin box did not scroll the area");

  bar->setValue(0);
  wheel(form.combo, -120);
  QCOMPARE(form.combo->currentIndex(), 1);
  QVERIFY(!form.combo->hasFocus());
  QVERIFY2(bar->value() > 0, "the wheel over the combo box did not scroll the area");

  bar->setValue(0);
  wheel(form.slider, -120);
  QCOMPARE(form.slider->value(), 50);
  QVERIFY(!form.slider->hasFocus());
  QVERIFY2(bar->value() > 0, "the wheel over the slider did not scroll the area");
  QVERIFY(form.elsewhere->hasFocus());
}

// With focus, the wheel steps the field (and the area stays where it is).
void TestDesktop::theWheelStepsAFieldWithFocus() {
  CalmForm form;
  QVERIFY(form.show());
  QScrollBar* bar = form.area->verticalScrollBar();
  QTRY_VERIFY(bar->maximum() > 0);

  form.spin->setFocus();
  QTRY_VERIFY(form.spin->hasFocus());
  wheel(form.spin, 120);
  QCOMPARE(form.spin->value(), 9);

  form.combo->setFocus();
  QTRY_VERIFY(form.combo->hasFocus());
  wheel(form.combo, -120);
  QCOMPARE(form.combo->currentIndex(), 2);

  form.slider->setFocus();
  QTRY_VERIFY(form.slider->hasFocus());
  wheel(form.slider, 120);
  QVERIFY(form.slider->value() != 50);
  QCOMPARE(bar->value(), 0);
}

// A scroll bar under the root is no field: it keeps its focus policy and takes the wheel without
// focus (had it been calmed, the wheel passed on by a field would find the area unable to scroll).
void TestDesktop::scrollBarsAreNotCalmed() {
  QWidget root;
  auto* standalone = new QScrollBar(Qt::Vertical, &root);
  standalone->setRange(0, 100);
  const Qt::FocusPolicy policy = standalone->focusPolicy();
  mhaviz::ui::calmFields(&root);
  QCOMPARE(standalone->focusPolicy(), policy);
  root.resize(100, 200);
  standalone->setGeometry(0, 0, 20, 200);
  root.show();
  QVERIFY(QTest::qWaitForWindowExposed(&root));
  QVERIFY(!standalone->hasFocus());
  wheel(standalone, -120);
  QVERIFY(standalone->value() > 0);
}
