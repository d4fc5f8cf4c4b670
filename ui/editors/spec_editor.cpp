#include "editors/spec_editor.hpp"

#include <QLabel>

namespace mhaviz::ui {

SpecEditor::SpecEditor(const QString& title, Document* document, QWidget* parent)
    : QGroupBox(title, parent), m_document(document), m_edits(document) {}

void SpecEditor::follow() {
  m_edits.follow(this, [this](const mhaviz::Config& c) { showConfig(c); });
}

QLabel* SpecEditor::noteLabel(const char* name, bool warning) {
  auto* label = new QLabel;
  label->setObjectName(QString::fromLatin1(name));
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label->setStyleSheet(
      warning ? QStringLiteral("QLabel { color: #b00020; background: #fdecee; border: 1px solid "
                               "#e8a0a8; border-radius: 3px; padding: 3px; }")
              : QStringLiteral("QLabel { color: #5a4500; background: #fff6d6; border: 1px solid "
                               "#e6d08a; border-radius: 3px; padding: 3px; }"));
  label->hide();
  return label;
}

}  // namespace mhaviz::ui
