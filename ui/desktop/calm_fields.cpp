#include "desktop/calm_fields.hpp"

#include <QAbstractSpinBox>
#include <QLineEdit>
#include <QObject>
#include <QTimer>

namespace mhaviz::ui {

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
  for (QAbstractSpinBox* spin : root->findChildren<QAbstractSpinBox*>()) commitTypingOnPause(spin);
}

}  // namespace mhaviz::ui
