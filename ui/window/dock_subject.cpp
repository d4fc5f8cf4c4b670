#include "window/dock_subject.hpp"

#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "document/document.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"

namespace mhaviz::ui {

namespace {

// The part of an editing dock that edits: the fields inside its scroll areas (which keep
// scrolling while the fields are read-only), else the whole content.
QList<QWidget*> fieldsOf(QWidget* content) {
  QList<QWidget*> out;
  for (QScrollArea* scroll : content->findChildren<QScrollArea*>()) {
    if (scroll->widget() != nullptr) out << scroll->widget();
  }
  if (out.isEmpty()) out << content;
  return out;
}

}  // namespace

DockSubject::DockSubject(Document* document, ModelPages* pages, const QList<QDockWidget*>& docks,
                         const QList<QDockWidget*>& editors, QObject* parent)
    : QObject(parent), m_document(document), m_pages(pages) {
  for (QDockWidget* dock : docks) {
    if (dock == nullptr || dock->widget() == nullptr) continue;
    auto* label = new QLabel;
    label->setObjectName(QStringLiteral("dockSubject"));
    label->setWordWrap(true);  // never widens the dock
    label->setTextFormat(Qt::PlainText);
    label->setContentsMargins(6, 3, 6, 3);
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* header = new QWidget;
    header->setAutoFillBackground(true);
    header->setBackgroundRole(QPalette::AlternateBase);
    auto* column = new QVBoxLayout(header);
    column->setContentsMargins(0, 0, 0, 3);
    column->setSpacing(0);
    column->addWidget(label);
    QPushButton* open = nullptr;
    if (editors.contains(dock)) {
      open = new QPushButton(tr("Open this layer to edit"));
      open->setObjectName(QStringLiteral("openLayerToEdit"));
      open->setToolTip(tr("Show the layer in the full view, where its settings can be changed"));
      connect(open, &QPushButton::clicked, pages, &ModelPages::showLayerView);
      column->addWidget(open, 0, Qt::AlignLeft);
      m_locked << fieldsOf(dock->widget());
    }
    header->hide();
    layout->addWidget(header);
    layout->addWidget(dock->widget(), 1);  // takes the content out of the dock, into the box
    dock->setWidget(box);
    m_headers << Header{dock, label, open};
  }
  connect(document, &Document::changed, this, [this](Document::Changes what) {
    using C = Document::Change;
    if (what & (C::config | C::view | C::origin)) update();
  });
  connect(pages, &QStackedWidget::currentChanged, this, &DockSubject::update);
  connect(pages, &ModelPages::shownChanged, this, &DockSubject::update);
  // A model asked for, read (or not), or closed: whether one is open at all.
  connect(pages, &ModelPages::modelOpening, this, &DockSubject::update);
  connect(pages->modelView(), &ModelView::openEnded, this, &DockSubject::update);
  connect(pages->modelView(), &ModelView::modelClosed, this, &DockSubject::update);
  connect(pages, &ModelPages::storedLayerShown, this, &DockSubject::update);
  update();
}

const DockSubject::Header* DockSubject::headerOf(const QDockWidget* dock) const {
  const auto it = std::find_if(m_headers.cbegin(), m_headers.cend(),
                               [dock](const Header& h) { return h.dock == dock; });
  return it == m_headers.cend() ? nullptr : &*it;
}

QLabel* DockSubject::line(const QDockWidget* dock) const {
  const Header* h = headerOf(dock);
  return h ? h->line : nullptr;
}

QPushButton* DockSubject::openButton(const QDockWidget* dock) const {
  const Header* h = headerOf(dock);
  return h ? h->open : nullptr;
}

bool DockSubject::locked() const {
  return m_pages->modelOnScreen() && !m_pages->layerText().isEmpty();
}

QString DockSubject::text() const {
  const QString layer = m_pages->layerText();
  if (const QString stored = m_pages->storedLayerText();
      m_pages->modelOnScreen() && !stored.isEmpty()) {
    return tr("Selected in the model view: %1. The head view and the text view show it; the "
              "other docks still show the session open before the model: a weights-only layer "
              "has no parameters or inputs to compute or edit.")
        .arg(stored);
  }
  if (m_pages->modelOnScreen()) {
    const ModelView* view = m_pages->modelView();
    if (layer.isEmpty() && view->loaded() == nullptr && !view->isBusy()) {
      return tr("No model is open; these docks show the session of the full view.");
    }
    return layer.isEmpty()
               ? tr("The model view is on screen; these docks still show the session open "
                    "before it.")
               : tr("Selected in the model view: %1.").arg(layer);
  }
  return layer.isEmpty() ? QString() : tr("These docks show %1.").arg(layer);
}

void DockSubject::update() {
  const QString shown = text();
  const bool lock = locked();
  for (const Header& h : m_headers) {
    h.line->setText(shown);
    h.line->setVisible(!shown.isEmpty());
    h.line->parentWidget()->setVisible(!shown.isEmpty());  // the header, with its button
    if (h.open != nullptr) h.open->setVisible(lock);
  }
  for (QWidget* fields : m_locked) fields->setEnabled(!lock);
}

}  // namespace mhaviz::ui
