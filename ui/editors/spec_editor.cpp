#include "editors/spec_editor.hpp"

#include <QLabel>

#include "document/document.hpp"

namespace mhaviz::ui {

SpecEditor::SpecEditor(const QString& title, Document* document, QWidget* parent)
    : QGroupBox(title, parent), m_document(document) {}

void SpecEditor::follow() {
  connect(m_document, &Document::configChanged, this, [this](const mhaviz::Config& c) {
    m_updating = true;
    showConfig(c);
    m_updating = false;
  });
  m_updating = true;
  showConfig(m_document->config());
  m_updating = false;
}

void SpecEditor::edit(const QString& text, const std::function<void(mhaviz::Config&)>& change,
                      int mergeId) {
  if (m_updating) return;
  mhaviz::Config next = m_document->config();
  change(next);
  m_document->changeConfig(next, text, mergeId);
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
