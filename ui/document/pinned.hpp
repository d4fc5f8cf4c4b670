#pragma once
// Compare mode's A (compare/compare_panel.hpp): the settings pinned and what was computed of
// them. The document holds it (Document::pinned) beside the settings, which are B: the compare
// panel, the session (which saves and restores it) and the window read it from there.

#include <QString>
#include <memory>

#include "document/computed.hpp"
#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::ui {

struct Pinned {
  mhaviz::Config config;
  /// A's tensors; null: generated.
  std::shared_ptr<const mhaviz::io::TensorMap> tensors;
  /// A's result; null while it is computed (a session's A is computed again when opened) or
  /// when it could not be (`error`).
  ResultPtr result;
  /// A's head measures; null: none (not yet arrived when A was pinned, or a session's A).
  std::shared_ptr<const mhaviz::ResultMeasures> measures;
  /// Why A could not be computed; empty otherwise.
  QString error;
};

}  // namespace mhaviz::ui
