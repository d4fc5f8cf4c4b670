#pragma once
// The path PyTorch 2.x takes for a call (mhaviz/core/spec/torch_path.hpp), in the window's
// language: the core words its reason and warnings in English for the CLI; the window words
// them from the decision's fields so they can be translated.

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include "mhaviz/core/spec/config.hpp"
#include "mhaviz/core/spec/torch_path.hpp"

namespace mhaviz::ui {

class TorchPathText {
  Q_DECLARE_TR_FUNCTIONS(TorchPathText)

 public:
  /// "PyTorch would take the fast path: eval, no_grad, self-attention, batch_first", etc.
  static QString reason(const PathDecision& path, const Config& config);
  /// One sentence per warning of the decision, in its order.
  static QStringList warnings(const PathDecision& path, const Config& config);
  /// The condition that keeps a call off the fast path.
  static QString notFast(NotFast why);
};

}  // namespace mhaviz::ui
