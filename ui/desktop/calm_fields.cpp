#include "desktop/calm_fields.hpp"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QLineEdit>
#include <QObject>
#include <QTimer>

namespace mhaviz::ui {

namespace {

/// Passes a wheel event on an unfocused field to the field's parent (a scroll area scrolls).
class WheelGuard : public QObject {
 public:
  using QObject::QObject;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() != QEvent::Wheel) return false;
    auto* field = qobject_cast<QWidget*>(watched);
    if (field == nullptr || field->hasFocus()) return false;
    event->ignore();  // propagates to the parent, as if the field had no wheel handling
    return true;
  }
};

WheelGuard* wheelGuard() {
  static auto* guard = new WheelGuard;  // lives as long as the application
  return guard;
}

void calm(QWidget* field) {
  field->setFocusPolicy(Qt::StrongFocus);
  field->installEventFilter(wheelGuard());
}

}  // namespace

void commitTypingOnPause(QAbstractSpinBox* spin) {
  if (spin->property("mhaviz_typing_pause").toBool()) return;
  spin->setProperty("mhaviz_typing_pause", true);
  spin->setKeyboardTracking(false);
  auto* pause = new QTimer(spin);
  pause->setSingleShot(true);
  pause->setInterval(kTypingPauseMs);
  QObject::connect(pause, &QTimer::timeout, spin, [spin] { spin->interpretText(); });
  // textEdited: typing only (setValue and stepping do not restart the wait).
  QObject::connect(spin->findChild<QLineEdit*>(), &QLineEdit::textEdited, pause,
                   qOverload<>(&QTimer::start));
  QObject::connect(spin, &QAbstractSpinBox::editingFinished, pause, &QTimer::stop);
}

void calmFields(QWidget* root) {
  for (QAbstractSpinBox* spin : root->findChildren<QAbstractSpinBox*>()) {
    commitTypingOnPause(spin);
    calm(spin);
  }
  for (QComboBox* combo : root->findChildren<QComboBox*>()) calm(combo);
  for (QAbstractSlider* slider : root->findChildren<QAbstractSlider*>()) {
    // Scroll bars belong to the scroll areas themselves; only value sliders are fields.
    if (slider->inherits("QScrollBar")) continue;
    calm(slider);
  }
}

}  // namespace mhaviz::ui
