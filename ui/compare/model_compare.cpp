// Comparing two model files, the widget: its controls, the line above the grids, the titles and
// the table's selection (model_compare.hpp; the work off the GUI thread: model_compare_work.cpp).
#include "compare/model_compare.hpp"

#include "compare/compare_panel.hpp"
#include "compare/difference_table.hpp"

#include <QAbstractTableModel>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <exception>

#include "document/document.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "render/colormaps.hpp"
#include "render/heatmap_grid.hpp"
#include "render/image_export.hpp"
#include "stages/layer_name.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

namespace model = mhaviz::model;

ModelCompare::ModelCompare(Document* document, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_status(new QLabel),
      m_where(new QLabel),
      m_titleA(new QLabel),
      m_titleB(new QLabel),
      m_gridA(new HeatmapGrid),
      m_gridB(new HeatmapGrid),
      m_gridDiff(new HeatmapGrid),
      m_table(new QTableView),
      m_tableModel(new DifferenceTable(this)),
      m_swap(new QPushButton(tr("Swap A and B"))),
      m_export(new QPushButton(tr("Export B \u2212 A\u2026"))) {
  setObjectName(QStringLiteral("modelCompare"));
  m_status->setObjectName(QStringLiteral("modelCompareMessage"));
  m_status->setWordWrap(true);
  m_status->setTextFormat(Qt::PlainText);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_where->setObjectName(QStringLiteral("modelCompareWhere"));
  m_where->setWordWrap(true);
  QFont bold = m_where->font();
  bold.setBold(true);
  m_where->setFont(bold);
  m_titleA->setObjectName(QStringLiteral("modelCompareTitleA"));
  m_titleB->setObjectName(QStringLiteral("modelCompareTitleB"));
  m_gridA->setObjectName(QStringLiteral("modelCompareGridA"));
  m_gridB->setObjectName(QStringLiteral("modelCompareGridB"));
  m_gridDiff->setObjectName(QStringLiteral("modelCompareGridDiff"));
  // 512 x 512 maps of a whole layer: reduced to the screen off the GUI thread.
  for (HeatmapGrid* grid : {m_gridA, m_gridB, m_gridDiff}) {
    grid->setBackgroundPreparation(true);
    connect(grid, &HeatmapGrid::pictureShown, this, [this] {
      if (!isBusy()) emit shown();
    });
  }
  auto* choose = new QPushButton(tr("Compare with another file\u2026"));
  auto* leave = new QPushButton(tr("Close the comparison"));
  m_swap->setObjectName(QStringLiteral("modelCompareSwap"));
  m_export->setObjectName(QStringLiteral("modelCompareExport"));
  choose->setObjectName(QStringLiteral("modelCompareChoose"));
  leave->setObjectName(QStringLiteral("modelCompareClose"));
  m_swap->setToolTip(tr("A becomes B and B becomes A: the difference changes sign"));
  auto* buttons = new QHBoxLayout;
  for (QPushButton* b : {m_swap, choose, m_export, leave}) buttons->addWidget(b);
  buttons->addStretch(1);

  auto* grids = new QSplitter(Qt::Horizontal);
  grids->addWidget(titledGrid(m_titleA, m_gridA));
  grids->addWidget(titledGrid(m_titleB, m_gridB));
  grids->addWidget(titledGrid(new QLabel(tr("B \u2212 A: signed difference, diverging colours, range "
                                        "symmetric about 0")),
                          m_gridDiff));
  grids->setChildrenCollapsible(false);
  for (int i = 0; i < 3; ++i) grids->setStretchFactor(i, 1);
  grids->setSizes({1000, 1000, 1000});
  auto* top = new QWidget;
  auto* topLayout = new QVBoxLayout(top);
  topLayout->setContentsMargins(0, 0, 0, 0);
  topLayout->addWidget(m_where);
  topLayout->addWidget(grids, 1);

  m_table->setObjectName(QStringLiteral("modelCompareTable"));
  m_table->setModel(m_tableModel);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setWordWrap(false);
  const int line = fontMetrics().height();
  m_table->verticalHeader()->setDefaultSectionSize(line + 6);
  m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  m_table->horizontalHeader()->setDefaultSectionSize(fontMetrics().horizontalAdvance(
                                                         QStringLiteral("0.00e-05")) +
                                                     8);
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  m_table->setMinimumHeight(line * 5);
  auto* tableTitle = new QLabel(tr("Largest |B \u2212 A| of each layer (rows) and head "
                                   "(columns), the largest in bold: click a cell to compare that "
                                   "map"));
  tableTitle->setWordWrap(true);
  auto* bottom = new QWidget;
  m_tableBox = bottom;
  auto* bottomLayout = new QVBoxLayout(bottom);
  bottomLayout->setContentsMargins(0, 0, 0, 0);
  bottomLayout->addWidget(tableTitle);
  bottomLayout->addWidget(m_table, 1);

  auto* split = new QSplitter(Qt::Vertical);
  split->setObjectName(QStringLiteral("modelCompareSplit"));
  split->addWidget(top);
  split->addWidget(bottom);
  split->setChildrenCollapsible(false);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  split->setSizes({3000, 1000});

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(buttons);
  layout->addWidget(m_status);
  layout->addWidget(split, 1);

  connect(m_swap, &QPushButton::clicked, this, &ModelCompare::swap);
  connect(choose, &QPushButton::clicked, this, &ModelCompare::chooseFile);
  connect(m_export, &QPushButton::clicked, this, &ModelCompare::exportDifference);
  connect(leave, &QPushButton::clicked, this, &ModelCompare::close);
  // A cell clicked or reached with the arrow keys compares that map.
  const auto chosen = [this](const QModelIndex& index) {
    const Selection map{index.row(), index.column()};
    if (m_updatingTable || !index.isValid() || map == m_document->selection()) return;
    emit mapChosen(map.layer, map.head);
    if (!(m_document->selection() == map)) selectInTable();  // not selected: shown as it is
  };
  connect(m_table->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [chosen](const QModelIndex& current, const QModelIndex&) { chosen(current); });
  connect(m_table, &QTableView::clicked, this, chosen);
  connect(document, &Document::changed, this, [this, document](Document::Changes what) {
    if (what & Document::Change::selection) followSelection();
    if (!(what & Document::Change::view) || !m_active || m_data.a.maps.empty() ||
        document->view().colormap == m_gridA->view().colormap) {
      return;
    }
    present(m_data, gridStages(m_data));  // another colour map: the same maps drawn again
  });
  showStatus();
  showTitles();
}

ModelCompare::~ModelCompare() = default;

void ModelCompare::setOpenModel(ModelSide model) {
  if (model == m_open) return;
  const bool had = m_open.valid();
  m_open = std::move(model);
  if (m_active) {
    close();  // A was chosen for the model that was open
  } else {
    showStatus();  // the hint: how to compare the model now open, or to open one first
  }
  if (had != m_open.valid()) emit openModelChanged(m_open.valid());
}

void ModelCompare::chooseFile() {
  if (!m_open.valid()) return;
  // The folder of the file compared last, else the open model's: a second run is usually
  // written beside the first.
  const QString from =
      !m_path.isEmpty()
          ? QFileInfo(m_path).absolutePath()
          : QFileInfo(QString::fromStdString(m_open.model->index.path.string())).absolutePath();
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Compare the model with a file"), from,
      tr("Model files and attention weights (*.json *.npz *.safetensors);;All files (*)"));
  if (!path.isEmpty()) compareWith(path);
}

void ModelCompare::releaseFile() {
  // The file's model (A, or B after a swap; 151 MB at 12 x 12 x 512) is returned on a task's
  // thread, never the GUI thread's (the closure is destroyed there); the open model is the
  // model view's.
  ModelSide file = !(m_a == m_open) ? std::exchange(m_a, {}) : std::exchange(m_b, {});
  m_a = {};
  m_b = {};
  if (file.valid() && !(file == m_open))
    m_release.start([file = std::move(file)](const TaskScope&) {});
}

void ModelCompare::clearGrids() {
  // (a grid cleared draws its empty picture: not for one that is empty already)
  for (HeatmapGrid* grid : {m_gridA, m_gridB, m_gridDiff}) {
    if (grid->mapCount() > 0 || !grid->message().isEmpty()) grid->clear();
  }
}

void ModelCompare::compareWith(const QString& path) {
  if (!m_open.valid()) return;
  m_path = path;
  releaseFile();
  m_b = m_open;
  m_difference.reset();
  m_notes.clear();
  m_problem.clear();
  m_data = CompareData{};
  m_tableModel->set(nullptr, nullptr);
  ++m_presented;  // grids still to be shown are not
  m_gridsToShow = 0;
  clearGrids();
  m_diff.cancel();
  m_maps.cancel();
  const bool was = m_active;
  m_active = true;
  start();
  if (!was) emit activeChanged(true);
}

void ModelCompare::followSelection() {
  const int batch = m_document->selection().batch;
  if (batch != m_batch) {
    m_batch = batch;
    if (m_active && !m_reading) {
      showTitles();
      startDifference();  // then the table and the maps of the map selected
      return;
    }
  }
  selectInTable();
  showTitles();
  startMaps();
}

std::pair<int, int> ModelCompare::selected() const {
  const Selection& selected = m_document->selection();
  return {selected.layer, selected.head};
}

void ModelCompare::swap() {
  if (!m_a.valid() || !m_b.valid()) return;
  std::swap(m_a, m_b);
  showTitles();
  startDifference();
}

void ModelCompare::close() {
  if (!m_active) return;
  m_load.cancel();
  m_diff.cancel();
  m_maps.cancel();
  m_active = false;
  m_reading = false;
  releaseFile();
  m_difference.reset();
  m_notes.clear();
  m_problem.clear();
  m_data = CompareData{};
  m_tableModel->set(nullptr, nullptr);
  ++m_presented;
  m_gridsToShow = 0;
  clearGrids();
  showStatus();
  showTitles();
  emit activeChanged(false);
}

bool ModelCompare::isBusy() const {
  return m_load.isBusy() || m_diff.isBusy() || m_maps.isBusy() || m_gridsToShow > 0 ||
         m_gridA->isPreparing() ||
         m_gridB->isPreparing() || m_gridDiff->isPreparing();
}

bool ModelCompare::isUpToDate() const { return m_active && !isBusy(); }

QString ModelCompare::message() const { return m_status->text(); }

ViewOptions ModelCompare::mapView() const {
  ViewOptions view;
  view.stage = Stage::weights;
  view.batch = m_batch;
  const Selection& selected = m_document->selection();
  view.soloHead = selected.head;
  view.colormap = m_document->view().colormap;
  if (m_b.valid() && selected.layer >= 0 &&
      static_cast<std::size_t>(selected.layer) < m_b.model->layers.size()) {
    const model::LayerInfo& info = m_b.model->layers[std::size_t(selected.layer)].info;
    view = fitView(view, viewBounds(info.config));
    view.kvHeads = static_cast<int>(info.kv_heads);
  }
  return view;
}

void ModelCompare::showStatus() {
  QStringList lines;
  bool problem = false;
  if (!m_active) {
    lines << (m_open.valid()
                  ? tr("Compare > Compare the model with a file\u2026 compares the model open in "
                       "the model view (B) with another file of the same layers, heads and "
                       "lengths (A).")
                  : tr("Open a model first (File > Open): its layers are then compared with "
                       "another model file's."));
  } else if (m_reading) {
    lines << tr("Reading %1 and comparing %2 with it\u2026")
                 .arg(QFileInfo(m_path).fileName(), m_b.name);
  } else if (!m_problem.isEmpty()) {
    lines << m_problem;
    problem = true;
  } else if (m_difference) {
    const model::WeightsDifference& d = *m_difference;
    lines << tr("Largest |B \u2212 A| %1, at %2, head %3 (batch element %4); the table below has "
                "each layer's and head's.")
                 .arg(differenceText(d.worst), modelLayerName(m_b.model->index, d.worst_layer))
                 .arg(d.worst_head)
                 .arg(d.batch);
    for (const QString& note : m_notes) lines << tr("Note: %1").arg(note);
    if (!m_data.ok()) {
      lines << tr("No difference shown: %1").arg(m_data.mismatch);
      problem = true;
    } else if (!m_data.notes.isEmpty()) {
      lines << tr("Left out of B \u2212 A: %1").arg(m_data.notes.join(QStringLiteral("; ")));
    }
    lines << m_data.nanNotes;
  }
  m_status->setText(lines.join(QLatin1Char('\n')));
  m_status->setStyleSheet(problem ? QStringLiteral("color: #c0392b;") : QString());
  m_export->setEnabled(m_active && m_data.ok() && !m_data.diff.maps.empty());
  m_tableBox->setVisible(m_difference != nullptr);  // the maps get the room of an empty table
  m_swap->setEnabled(m_a.valid() && m_b.valid());
}

void ModelCompare::showTitles() {
  const auto role = [this](const ModelSide& side, const QString& letter) {
    if (!side.valid()) return QString();
    return side == m_open ? tr("%1: %2 (open in the model view)").arg(letter, side.name)
                          : tr("%1: %2").arg(letter, side.name);
  };
  m_titleA->setText(m_reading ? tr("A: %1").arg(QFileInfo(m_path).fileName())
                              : role(m_a, QStringLiteral("A")));
  m_titleB->setText(role(m_b, QStringLiteral("B")));
  const int layer = m_document->selection().layer;
  const int head = m_document->selection().head;
  if (!m_active || !m_b.valid() || layer < 0 ||
      static_cast<std::size_t>(layer) >= m_b.model->layers.size()) {
    m_where->clear();
    return;
  }
  const QString name = modelLayerName(m_b.model->index, static_cast<std::size_t>(layer));
  m_where->setText(head >= 0 ? tr("%1, head %2, batch element %3").arg(name).arg(head).arg(m_batch)
                             : tr("%1, every head, batch element %2").arg(name).arg(m_batch));
}

void ModelCompare::selectInTable() {
  m_updatingTable = true;
  const int layer = m_document->selection().layer;
  const int head = m_document->selection().head;
  QItemSelectionModel* selection = m_table->selectionModel();
  if (m_difference && layer >= 0 && layer < m_tableModel->rowCount({})) {
    const QModelIndex at = m_tableModel->index(layer, std::max(head, 0));
    if (head >= 0) {
      selection->setCurrentIndex(at, QItemSelectionModel::ClearAndSelect);
    } else {
      selection->setCurrentIndex(at, QItemSelectionModel::NoUpdate);
      const int last = std::max(m_tableModel->columnCount({}) - 1, 0);
      selection->select(QItemSelection(at, m_tableModel->index(layer, last)),
                        QItemSelectionModel::ClearAndSelect);
    }
    m_table->scrollTo(at);
  } else {
    selection->clear();
  }
  m_updatingTable = false;
}

void ModelCompare::exportDifference() {
  if (!m_data.ok() || m_data.diff.maps.empty()) return;
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Export B \u2212 A"), QStringLiteral("difference.png"),
                                   tr("Images (*.png *.svg *.pdf)"));
  if (path.isEmpty()) return;
  ExportOptions options;
  options.title = tr("B \u2212 A, %1 \u2014 A: %2; B: %3")
                      .arg(m_where->text(), m_a.name, m_b.name);
  const QString error = exportStageImage(m_data.diff, mapView(), options, path);
  if (!error.isEmpty()) QMessageBox::warning(this, tr("Export B \u2212 A"), error);
}

}  // namespace mhaviz::ui
