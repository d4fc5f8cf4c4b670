#pragma once
// The line under the is_causal checkbox: PyTorch 2.x treats is_causal as a hint that REQUIRES
// attn_mask, so when it is set without one this says so and offers a one-click "use a causal
// attn_mask" (attn_mask kind causal, one undoable change). Hidden otherwise. GUI thread only.

#include <QWidget>

#include "mhaviz/core/spec/config.hpp"

class QLabel;
class QPushButton;

namespace mhaviz::ui {

class Document;

class CausalHint : public QWidget {
  Q_OBJECT

 public:
  explicit CausalHint(Document* document, QWidget* parent = nullptr);

  /// Tooltip text for the is_causal checkbox.
  static QString isCausalToolTip();
  /// "Use a causal attn_mask" (tests click it).
  [[nodiscard]] QPushButton* fixButton() const { return m_fix; }

 private:
  void follow(const mhaviz::Config& config);

  Document* m_document;
  QLabel* m_text;
  QPushButton* m_fix;
};

}  // namespace mhaviz::ui
