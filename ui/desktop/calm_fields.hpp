#pragma once
// Fields that do what the user means: a typed number is committed once (on Enter, focus-out
// or a short pause in typing), not at every keystroke; arrows, Page keys and the wheel still
// step live. GUI thread only.

class QAbstractSpinBox;
class QWidget;

namespace mhaviz::ui {

/// How long typing may pause before a typed number is committed.
inline constexpr int kTypingPauseMs = 600;

/// `spin` commits typed text on Enter, focus-out or after kTypingPauseMs without a keystroke
/// (keyboardTracking off, plus an idle timer); stepping stays immediate.
void commitTypingOnPause(QAbstractSpinBox* spin);

/// commitTypingOnPause for every spin box under `root` (present now).
void calmFields(QWidget* root);

}  // namespace mhaviz::ui
