#pragma once
// Base of the mask / input / weight editors: a group box bound to the Document. Edits
// go through Document::changeConfig (one undoable command each); the controls follow
// configChanged, so undo/redo moves them too. GUI thread only.

#include <QGroupBox>
#include <functional>

#include "mhaviz/core/config.hpp"

class QLabel;

namespace mhaviz::ui {

class Document;

class SpecEditor : public QGroupBox {
  Q_OBJECT

 public:
  SpecEditor(const QString& title, Document* document, QWidget* parent = nullptr);

 protected:
  /// Applies `change` to a copy of the current config and pushes it as one undoable command
  /// (ignored while the controls are being updated from the config).
  void edit(const QString& text, const std::function<void(mhaviz::Config&)>& change,
            int mergeId = -1);
  /// Moves the controls to `config` (called with m_updating set).
  virtual void showConfig(const mhaviz::Config& config) = 0;
  /// Call at the end of the subclass constructor.
  void follow();
  /// A word-wrapped inline note label (`warning` draws it in the error style).
  static QLabel* noteLabel(const char* name, bool warning);

  Document* m_document;
  bool m_updating = false;
};

}  // namespace mhaviz::ui
