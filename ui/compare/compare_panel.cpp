// Compare mode's dock: A | B | B - A (compare_panel.hpp).
#include "compare/compare_panel.hpp"
#include "compare/config_difference.hpp"
#include "compare/model_compare.hpp"

#include <memory>

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>

#include "compute/compute_worker.hpp"
#include "document/document.hpp"
#include "render/colormaps.hpp"
#include "render/heatmap_grid.hpp"
#include "render/image_export.hpp"

namespace mhaviz::ui {

namespace {

/// The compare dock's content: the panel, or two model files compared. Its sizes are those of
/// the page shown: the other one's buttons and grids never widen the dock (a QStackedWidget
/// asks for the largest of its pages).
class ComparePages : public QStackedWidget {
 public:
  [[nodiscard]] QSize sizeHint() const override {
    return currentWidget() != nullptr ? currentWidget()->sizeHint() : QStackedWidget::sizeHint();
  }
  [[nodiscard]] QSize minimumSizeHint() const override {
    return currentWidget() != nullptr ? currentWidget()->minimumSizeHint()
                                      : QStackedWidget::minimumSizeHint();
  }
};

}  // namespace

QWidget* titledGrid(QLabel* title, HeatmapGrid* grid) {
  auto* box = new QWidget;
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  title->setWordWrap(true);
  layout->addWidget(title);
  layout->addWidget(grid, 1);
  return box;
}

ComparePanel::ComparePanel(Document* document, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_status(new QLabel),
      m_titleA(new QLabel),
      m_titleB(new QLabel),
      m_gridA(new HeatmapGrid),
      m_gridB(new HeatmapGrid),
      m_gridDiff(new HeatmapGrid) {
  setObjectName(QStringLiteral("comparePanel"));
  setMinimumHeight(260);
  m_titleA->setObjectName(QStringLiteral("compareTitleA"));
  m_titleB->setObjectName(QStringLiteral("compareTitleB"));
  m_gridA->setObjectName(QStringLiteral("compareGridA"));
  m_gridB->setObjectName(QStringLiteral("compareGridB"));
  m_gridDiff->setObjectName(QStringLiteral("compareGridDiff"));
  // A, B and B - A side by side: where every map in view would be too small to read (8 heads
  // at 1280x720), each grid scrolls, and the three scroll together, so that the maps in view
  // are the same heads' in each.
  for (HeatmapGrid* grid : {m_gridA, m_gridB, m_gridDiff}) {
    QScrollBar* bar = grid->scrollArea()->verticalScrollBar();
    for (HeatmapGrid* other : {m_gridA, m_gridB, m_gridDiff}) {
      if (other == grid) continue;
      QScrollBar* follower = other->scrollArea()->verticalScrollBar();
      connect(bar, &QScrollBar::valueChanged, follower, [bar, follower](int value) {
        // Same share of the way down: the grids' heights may differ by a title line.
        if (bar->maximum() <= 0) return;
        const int wanted = static_cast<int>(
            std::lround(static_cast<double>(value) / bar->maximum() * follower->maximum()));
        if (follower->value() != wanted) follower->setValue(wanted);
      });
    }
  }
  auto* layout = new QVBoxLayout(this);
  auto* buttons = new QHBoxLayout;
  m_swap = new QPushButton(tr("Swap A and B"));
  m_newA = new QPushButton(tr("Make B the new A"));
  m_export = new QPushButton(tr("Export B \u2212 A\u2026"));
  m_leave = new QPushButton(tr("Leave compare mode"));
  for (QPushButton* b : {m_newA, m_swap, m_export, m_leave}) buttons->addWidget(b);
  buttons->addStretch(1);
  layout->addLayout(buttons);
  m_status->setWordWrap(true);
  m_status->setAlignment(Qt::AlignLeft | Qt::AlignTop);  // at the top while the grids are hidden
  m_status->setObjectName(QStringLiteral("compareMessage"));
  layout->addWidget(m_status);
  auto* split = new QSplitter(Qt::Horizontal);
  m_grids = split;
  split->addWidget(titledGrid(m_titleA, m_gridA));
  split->addWidget(titledGrid(m_titleB, m_gridB));
  split->addWidget(titledGrid(new QLabel(tr("B \u2212 A: signed difference, diverging colours, range "
                                        "symmetric about 0")),
                          m_gridDiff));
  split->setChildrenCollapsible(false);
  for (int i = 0; i < 3; ++i) split->setStretchFactor(i, 1);  // A, B and B - A equally wide
  split->setSizes({1000, 1000, 1000});
  layout->addWidget(split, 1);

  showUnpinnedHint();
  updateButtons();
  connect(m_swap, &QPushButton::clicked, this, &ComparePanel::swap);
  connect(m_newA, &QPushButton::clicked, this, &ComparePanel::pin);
  connect(m_export, &QPushButton::clicked, this, &ComparePanel::exportDifference);
  connect(m_leave, &QPushButton::clicked, this, &ComparePanel::unpin);
  connect(this, &ComparePanel::pinnedChanged, this, &ComparePanel::updateButtons);
  connect(document, &Document::changed, this, [this](Document::Changes what) {
    if (what & Document::Change::pinned) followPinned();
    if ((what & Document::Change::view) && isPinned()) refresh();
    if (what & Document::Change::result) {
      m_b = m_document->computed().result;
      m_bMeasures = m_document->computed().measures();
      if (isPinned()) refresh();
      updateButtons();  // the first result makes pinning possible
    }
    // B's head measures: only the value norms (which come with the measures) change what B - A
    // shows.
    if (what & Document::Change::measures) {
      m_bMeasures = m_document->computed().measures();
      if (isPinned() && stageNeedsMeasures(m_document->view().stage)) refresh();
    }
  });
}

ComparePanel::~ComparePanel() = default;

void ComparePanel::updateButtons() {
  const bool pinned = isPinned();
  m_newA->setText(pinned ? tr("Make B the new A") : tr("Pin current settings as A"));
  m_newA->setEnabled(m_document->computed().result != nullptr);
  m_swap->setEnabled(pinned);
  m_leave->setEnabled(pinned);
  m_export->setEnabled(pinned && isUpToDate() && m_data.ok() && !m_data.diff.maps.empty());
  m_grids->setVisible(pinned);
}

void ComparePanel::showUnpinnedHint() {
  m_titleA->clear();
  m_titleB->clear();
  m_status->setStyleSheet(QString());
  m_status->setText(
      tr("Nothing is pinned. Pin current settings as A (the button above, or %1) keeps the "
         "current result as A; every change you make after it is B, and B \u2212 A is drawn "
         "beside them.")
          .arg(QKeySequence(QStringLiteral("Ctrl+Shift+P")).toString(QKeySequence::NativeText)));
}

QString ComparePanel::message() const { return m_status->text(); }

bool ComparePanel::isPinned() const {
  const std::optional<Pinned>& a = m_document->pinned();
  return a && a->result != nullptr;
}

void ComparePanel::followPinned() {
  const std::optional<Pinned>& a = m_document->pinned();
  m_restoring = 0;  // an A being computed is no longer the document's
  m_difference.cancel();
  m_shown = m_difference.generation();
  m_data = CompareData{};
  if (a && a->result == nullptr && a->error.isEmpty()) computeA(*a);
  if (!isPinned()) {
    m_gridA->clear();
    m_gridB->clear();
    m_gridDiff->clear();
    if (a && !a->error.isEmpty()) {
      m_status->setText(tr("A of the session cannot be computed: %1").arg(a->error));
    } else {
      showUnpinnedHint();
    }
    emit pinnedChanged(false);
    return;
  }
  if (m_b == nullptr) {
    m_b = m_document->computed().result;
    m_bMeasures = m_document->computed().measures();
  }
  emit pinnedChanged(true);
  refresh();
}

void ComparePanel::computeA(const Pinned& a) {
  if (m_aWorker == nullptr) {
    m_aWorker = std::make_unique<ComputeWorker>();
    ComputeWorker* worker = m_aWorker.get();
    connect(worker, &ComputeWorker::resultReady, this,
            [this](quint64 generation, const ResultPtr& result, const AnalysesPtr&, double) {
              if (generation != m_restoring || !m_document->pinned()) return;
              Pinned computed = *m_document->pinned();
              computed.result = result;  // its measures are not computed
              m_document->setPinned(std::move(computed));
            });
    connect(worker, &ComputeWorker::failed, this,
            [this](quint64 generation, const QString& message) {
              if (generation != m_restoring || !m_document->pinned()) return;
              Pinned failed = *m_document->pinned();
              failed.error = message;
              m_document->setPinned(std::move(failed));
            });
  }
  ComputeRequest request;
  request.generation = ++m_restoreCount;  // from 1: 0 means "nothing being computed"
  request.config = a.config;
  request.tensors = a.tensors;
  m_restoring = request.generation;
  m_aWorker->submit(request);
}

void ComparePanel::pin() {
  const Computed& current = m_document->computed();
  if (current.result == nullptr) return;
  m_b = current.result;
  m_bMeasures = current.measures();
  m_document->setPinned(Pinned{
      current.result->config, m_document->tensors(), current.result, current.measures(), {}});
  emit changedByUser();
}

void ComparePanel::swap() {
  if (!isPinned() || m_b == nullptr) return;
  const Pinned oldA = *m_document->pinned();
  const ResultPtr b = m_b;
  const auto bMeasures = m_bMeasures;
  m_b = oldA.result;  // shown at once; the worker's result for these settings replaces it
  m_bMeasures = oldA.measures;
  m_document->setPinned(Pinned{b->config, m_document->tensors(), b, bMeasures, {}});
  if (m_document->tensors() != oldA.tensors) m_document->setTensors(oldA.tensors);
  m_document->changeConfig(oldA.config, tr("Swap A and B"));
}

void ComparePanel::unpin() {
  m_document->setPinned(std::nullopt);
  emit changedByUser();
}

void ComparePanel::refresh() {
  if (!isPinned() || m_b == nullptr) return;
  const Pinned& pinned = *m_document->pinned();
  m_status->setText(tr("Computing B \u2212 A\u2026"));
  m_difference.start([this, a = pinned.result, b = m_b, am = pinned.measures, bm = m_bMeasures,
                      view = m_document->view()](const TaskScope& scope) {
    auto data = std::make_shared<CompareData>(compareStage(*a, *b, view, am.get(), bm.get()));
    scope.post(
        [this, generation = scope.generation(), data] { present(generation, std::move(*data)); });
  });
  updateButtons();  // Export waits for this difference (isUpToDate)
}

void ComparePanel::present(quint64 generation, CompareData data) {
  m_data = std::move(data);
  m_shown = generation;
  const ViewOptions view = m_document->view();
  // Every setting that differs is named, semantics and flags included, not just the sizes.
  const auto title = [&view](const QString& side, const mhaviz::Config& mine,
                             const mhaviz::Config& other) {
    QString text = tr("%1: %2").arg(side, describeConfig(mine, view.batch));
    const QStringList differ = differingSettings(mine, other);
    if (!differ.isEmpty()) text += tr("; differs: %1").arg(differ.join(QStringLiteral(", ")));
    return text;
  };
  const mhaviz::Config& a = m_document->pinned()->config;
  m_titleA->setText(title(QStringLiteral("A"), a, m_b->config));
  m_titleB->setText(title(QStringLiteral("B"), m_b->config, a));

  // One masked colour for the three grids, though B - A is drawn with the diverging colormap.
  for (HeatmapGrid* grid : {m_gridA, m_gridB, m_gridDiff}) {
    grid->setMaskedColor(maskedColorBesideDiverging(view.colormap));
  }
  if (m_data.a.maps.empty()) {
    m_gridA->clear();
  } else {
    m_gridA->setStageData(m_data.a, view);
  }
  if (m_data.b.maps.empty()) {
    m_gridB->clear();
  } else {
    m_gridB->setStageData(m_data.b, view);
  }
  if (!m_data.ok()) {
    // Nothing misleading: no difference is drawn; the line, and the grid in its place, say why.
    const QString why = tr("No difference shown: %1").arg(m_data.mismatch);
    m_gridDiff->setStageData(StageData{}, view, why);
    m_status->setText(why);
  } else {
    m_gridDiff->setStageData(m_data.diff, view);
    QStringList lines;
    if (!m_data.notes.isEmpty()) {
      lines << tr("Left out of B \u2212 A: %1").arg(m_data.notes.join(QStringLiteral("; ")));
    }
    // A NaN difference says where it comes from (which side, which queries, why).
    lines << m_data.nanNotes;
    m_status->setText(lines.join(QLatin1Char('\n')));
  }
  m_status->setStyleSheet(m_data.ok() ? QString() : QStringLiteral("color: #c0392b;"));
  updateButtons();
  emit shown();
}

void ComparePanel::exportDifference() {
  if (!m_data.ok() || m_data.diff.maps.empty()) return;
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Export B \u2212 A"), QStringLiteral("difference.png"),
                                   tr("Images (*.png *.svg *.pdf)"));
  if (path.isEmpty()) return;
  const ViewOptions view = m_document->view();
  ExportOptions options;
  options.title =
      tr("B \u2212 A, %1 \u2014 A: %2; B: %3")
          .arg(shownStageName(view.stage), describeConfig(m_document->pinned()->config, view.batch),
               describeConfig(m_b->config, view.batch));
  const QString error = exportStageImage(m_data.diff, view, options, path);
  if (!error.isEmpty()) QMessageBox::warning(this, tr("Export B \u2212 A"), error);
}

ComparePanel* installCompare(QMainWindow* window, Document* document) {
  auto* panel = new ComparePanel(document);
  auto* models = new ModelCompare(document);
  auto* pages = new ComparePages;
  pages->setObjectName(QStringLiteral("comparePages"));
  pages->addWidget(panel);
  pages->addWidget(models);
  auto* dock = new QDockWidget(QObject::tr("Compare: A | B | B \u2212 A"), window);
  dock->setObjectName(QStringLiteral("compareDock"));
  dock->setWidget(pages);
  window->addDockWidget(Qt::RightDockWidgetArea, dock);
  dock->hide();
  QMenu* menu = window->menuBar()->addMenu(QObject::tr("Co&mpare"));
  QAction* pin = menu->addAction(QObject::tr("&Pin current settings as A"));
  pin->setObjectName(QStringLiteral("comparePin"));
  pin->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+P")));
  QAction* swap = menu->addAction(QObject::tr("&Swap A and B"));
  QAction* newA = menu->addAction(QObject::tr("Make &B the new A"));
  QAction* leave = menu->addAction(QObject::tr("&Leave compare mode"));
  swap->setObjectName(QStringLiteral("compareSwap"));
  leave->setObjectName(QStringLiteral("compareLeave"));
  menu->addSeparator();
  QAction* withFile = menu->addAction(QObject::tr("Compare the model with a &file\u2026"));
  withFile->setObjectName(QStringLiteral("compareModelFile"));
  withFile->setStatusTip(QObject::tr(
      "Compare the model open in the model view with another model file of the same layers, "
      "heads and lengths: A | B | B \u2212 A per layer and head"));
  withFile->setEnabled(false);
  for (QAction* a : {swap, newA, leave}) a->setEnabled(false);
  QObject::connect(pin, &QAction::triggered, panel, &ComparePanel::pin);
  QObject::connect(swap, &QAction::triggered, panel, [panel, models] {
    if (models->isActive()) {
      models->swap();
    } else {
      panel->swap();
    }
  });
  QObject::connect(newA, &QAction::triggered, panel, &ComparePanel::pin);
  QObject::connect(leave, &QAction::triggered, panel, [panel, models] {
    if (models->isActive()) {
      models->close();  // the panel's A, pinned before, is shown again
    } else {
      panel->unpin();
    }
  });
  QObject::connect(withFile, &QAction::triggered, models, &ModelCompare::chooseFile);
  // Where the dock is and when it is shown is the window's (its Compare workspace).
  const auto update = [=] {
    const bool models_ = models->isActive();
    pages->setCurrentWidget(models_ ? static_cast<QWidget*>(models) : panel);
    pages->updateGeometry();  // the dock's smallest size is the page's shown
    swap->setEnabled(models_ || panel->isPinned());
    newA->setEnabled(!models_ && panel->isPinned());
    leave->setEnabled(models_ || panel->isPinned());
  };
  QObject::connect(panel, &ComparePanel::pinnedChanged, dock, update);
  QObject::connect(models, &ModelCompare::activeChanged, dock, update);
  QObject::connect(models, &ModelCompare::openModelChanged, withFile, &QAction::setEnabled);
  panel->m_dock = dock;
  panel->m_modelCompare = models;
  panel->m_menu = {pin, swap, newA, leave, withFile};
  return panel;
}

}  // namespace mhaviz::ui
