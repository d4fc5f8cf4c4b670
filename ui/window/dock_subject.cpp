#include "window/dock_subject.hpp"

#include <QDockWidget>
#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "document/document.hpp"
#include "model/model_pages.hpp"

namespace mhaviz::ui {

DockSubject::DockSubject(Document* document, ModelPages* pages, const QList<QDockWidget*>& docks,
                         QObject* parent)
    : QObject(parent), m_document(document), m_pages(pages) {
  for (QDockWidget* dock : docks) {
    if (dock == nullptr || dock->widget() == nullptr) continue;
    auto* label = new QLabel;
    label->setObjectName(QStringLiteral("dockSubject"));
    label->setWordWrap(true);  // never widens the dock
    label->setTextFormat(Qt::PlainText);
    label->setContentsMargins(6, 3, 6, 3);
    label->setAutoFillBackground(true);
    label->setBackgroundRole(QPalette::AlternateBase);
    label->hide();
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(label);
    layout->addWidget(dock->widget(), 1);  // takes the content out of the dock, into the box
    dock->setWidget(box);
    m_labels << label;
  }
  connect(document, &Document::originChanged, this, &DockSubject::update);
  connect(document, &Document::configChanged, this, &DockSubject::update);
  connect(document, &Document::viewChanged, this, &DockSubject::update);
  connect(pages, &QStackedWidget::currentChanged, this, &DockSubject::update);
  update();
}

QString DockSubject::text() const {
  const QString layer = m_pages->layerText();
  if (m_pages->showingModel()) {
    return layer.isEmpty()
               ? tr("The model view is on screen; these docks still show the session open "
                    "before it.")
               : tr("The model view is on screen; these docks show %1. Click a map to open "
                    "another layer.")
                     .arg(layer);
  }
  return layer.isEmpty() ? QString() : tr("These docks show %1.").arg(layer);
}

void DockSubject::update() {
  const QString shown = text();
  for (QLabel* label : m_labels) {
    label->setText(shown);
    label->setVisible(!shown.isEmpty());
  }
}

}  // namespace mhaviz::ui
