#pragma once
// Fields that do what the user means: a typed number is committed once (on Enter, focus-out
// or a short pause in typing), not at every keystroke; arrows, Page keys and the wheel still
// step live. The wheel over a field without focus scrolls what contains it and leaves the
// value alone. GUI thread only.

class QAbstractSpinBox;
class QWidget;

namespace mhaviz::ui {

/// How long typing may pause before a typed number is committed.
inline constexpr int kTypingPauseMs = 600;

/// `spin` commits typed text on Enter, focus-out or after kTypingPauseMs without a keystroke
/// (keyboardTracking off, plus an idle timer); stepping stays immediate.
void commitTypingOnPause(QAbstractSpinBox* spin);

/// For every spin box, combo box and slider under `root` (present now): typing commits as
/// commitTypingOnPause says, focus comes by click or Tab (Qt::StrongFocus, never by the
/// wheel), and the wheel changes the value only while the control has focus; otherwise it
/// scrolls the scroll area around it.
void calmFields(QWidget* root);

}  // namespace mhaviz::ui
