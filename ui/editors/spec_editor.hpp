#pragma once
// Base of the mask / input / weight editors: a group box bound to the Document through
// ConfigEdits (document/config_edits.hpp), as the parameter panel is: each edit is one undoable
// Document::changeConfig; the controls follow Document::changed, so undo/redo moves them too. GUI
// thread only.

#include <QGroupBox>

#include "document/config_edits.hpp"
#include "mhaviz/core/spec/config.hpp"

class QLabel;

namespace mhaviz::ui {

class Document;

class SpecEditor : public QGroupBox {
  Q_OBJECT

 public:
  SpecEditor(const QString& title, Document* document, QWidget* parent = nullptr);

 protected:
  /// Moves the controls to `config` (through m_edits, so that their signals are not edits).
  virtual void showConfig(const mhaviz::Config& config) = 0;
  /// Call at the end of the subclass constructor: shows the config now and on every change.
  void follow();
  /// A word-wrapped inline note label (`warning` draws it in the error style).
  static QLabel* noteLabel(const char* name, bool warning);

  Document* m_document;
  ConfigEdits m_edits;  // every edit of the config goes through m_edits.edit
};

}  // namespace mhaviz::ui
