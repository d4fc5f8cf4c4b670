#include "editors/mask_dock.hpp"

#include <QDockWidget>
#include <QMainWindow>
#include <QStatusBar>
#include <QVBoxLayout>

#include "desktop/steady_scroll_area.hpp"
#include "document/document.hpp"
#include "editors/attn_mask_editor.hpp"
#include "editors/inputs_editor.hpp"
#include "editors/padding_editor.hpp"

namespace mhaviz::ui {

QDockWidget* installMaskEditors(QMainWindow* window, Document* document, QDockWidget* tabWith) {
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->addWidget(new AttnMaskEditor(document));
  auto* padding = new KeyPaddingEditor(document);
  layout->addWidget(padding);
  layout->addWidget(new InputsEditor(document));
  layout->addStretch(1);

  // Rows that appear or vanish above a field (notes, the kinds' settings, the block grid) must
  // not move it from under the pointer: the next click lands where the user aimed.
  auto* scroll = new SteadyScrollArea;
  scroll->setObjectName(QStringLiteral("maskDockScroll"));
  scroll->setContent(content);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setMinimumWidth(content->sizeHint().width() + 24);

  auto* dock = new QDockWidget(QObject::tr("Masks and inputs"), window);
  dock->setObjectName(QStringLiteral("maskDock"));
  dock->setWidget(scroll);
  dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                    QDockWidget::DockWidgetClosable);
  window->addDockWidget(Qt::LeftDockWidgetArea, dock);
  if (tabWith != nullptr) {
    window->tabifyDockWidget(tabWith, dock);
    tabWith->raise();
  }
  QObject::connect(document, &Document::sizesFitted, window,
                   [window](const QString& notes) {
                     window->statusBar()->showMessage(
                         QString(notes).replace(u'\n', QStringLiteral("; ")), 10000);
                   });
  QObject::connect(padding, &KeyPaddingEditor::showingElement, window, [window](int n) {
    window->statusBar()->showMessage(
        QObject::tr("The maps show batch element %1, whose padding the Masks dock edits").arg(n),
        6000);
  });
  return dock;
}

}  // namespace mhaviz::ui
