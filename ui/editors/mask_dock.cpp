#include "editors/mask_dock.hpp"

#include <QDockWidget>
#include <QMainWindow>
#include <QScrollArea>
#include <QStatusBar>
#include <QVBoxLayout>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "editors/attn_mask_editor.hpp"
#include "editors/inputs_editor.hpp"
#include "editors/padding_editor.hpp"

namespace mhaviz::ui {

QDockWidget* installMaskEditors(QMainWindow* window, Document* document,
                                Computation* computation,
                                QDockWidget* tabWith) {
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->addWidget(new AttnMaskEditor(document, computation));
  layout->addWidget(new KeyPaddingEditor(document));
  layout->addWidget(new InputsEditor(document));
  layout->addStretch(1);

  auto* scroll = new QScrollArea;
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
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
  return dock;
}

}  // namespace mhaviz::ui
