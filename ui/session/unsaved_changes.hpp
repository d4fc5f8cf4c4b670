#pragma once
// What happens to unsaved changes before the session is replaced or the window closes. The
// decision is a pure function so it can be tested without a modal dialog.

namespace mhaviz::ui {

/// The user's answer to "Save changes to <name>?".
enum class UnsavedAnswer { save, discard, cancel };

/// What the caller does next.
enum class UnsavedAction {
  proceed,          // nothing to save, or the user chose to discard
  saveThenProceed,  // save first; proceed only when the save succeeded
  abort             // the user cancelled: keep the current session
};

/// `answer` is only consulted (the prompt only shown) when `modified`.
constexpr UnsavedAction decideUnsaved(bool modified, UnsavedAnswer answer) {
  if (!modified) return UnsavedAction::proceed;
  switch (answer) {
    case UnsavedAnswer::save:
      return UnsavedAction::saveThenProceed;
    case UnsavedAnswer::discard:
      return UnsavedAction::proceed;
    case UnsavedAnswer::cancel:
      return UnsavedAction::abort;
  }
  return UnsavedAction::abort;
}

}  // namespace mhaviz::ui
