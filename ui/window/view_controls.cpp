#include "window/view_controls.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QSpinBox>
#include <algorithm>
#include <functional>

#include "document/document.hpp"
#include "render/colormaps.hpp"

namespace mhaviz::ui {

ViewControls::ViewControls(Document* document, QWidget* parent)
    : QGroupBox(tr("View"), parent), m_document(document) {
  setObjectName(QStringLiteral("viewControls"));
  auto* form = new QFormLayout(this);

  m_stage = new QComboBox;
  m_stage->setObjectName(QStringLiteral("stage"));
  for (Stage s : allStages()) {
    // stageName() stays English (file names, messages); the list shows it translated.
    m_stage->addItem(
        QCoreApplication::translate("mhaviz::ui::Stage", stageName(s).toLatin1().constData()),
        static_cast<int>(s));
  }
  m_stage->setToolTip(
      tr("Which intermediate of F.multi_head_attention_forward the grid shows, "
         "in computation order: projected q/k/v per head, raw scores "
         "q·k/sqrt(head_dim), the merged additive mask, masked scores, softmax "
         "weights (before and after dropout), weights @ v, merged heads and "
         "out_proj output. Ctrl+PgDown / Ctrl+PgUp step through them."));

  m_batch = new QSpinBox;
  m_batch->setObjectName(QStringLiteral("view_batch"));
  m_batch->setRange(0, 0);
  m_batch->setToolTip(
      tr("Batch element n shown (0..N-1). Every batch element has its own "
         "attention maps."));

  m_head = new QComboBox;
  m_head->setObjectName(QStringLiteral("show_head"));
  m_head->setToolTip(tr("Show all heads in a grid, or one head large."));

  m_average = new QCheckBox(tr("+ average"));
  m_average->setObjectName(QStringLiteral("show_average"));
  m_average->setToolTip(
      tr("Add the mean of the heads' weights: what PyTorch returns as "
         "attn_output_weights with average_attn_weights=True."));

  m_colormap = new QComboBox;
  m_colormap->setObjectName(QStringLiteral("colormap"));
  for (Colormap c : allColormaps()) m_colormap->addItem(colormapName(c), static_cast<int>(c));
  m_colormap->setToolTip(
      tr("Colour map. Signed stages (scores, q, k, v, outputs) are drawn "
         "with the diverging map centred on 0 unless grayscale is chosen."));

  m_perHead = new QCheckBox(tr("per-head colour scale"));
  m_perHead->setObjectName(QStringLiteral("per_head_scale"));
  m_perHead->setToolTip(
      tr("Scale each map's colours to its own range. Off: one shared scale "
         "(fixed 0..1 for weights) so heads compare directly."));

  m_autoRange = new QCheckBox(tr("automatic colour range"));
  m_autoRange->setObjectName(QStringLiteral("auto_range"));
  m_autoRange->setToolTip(
      tr("Weights and other unsigned stages: scale the shared colours from 0 to the largest "
         "value shown, so small differences use the whole colormap. Off: the fixed 0..1. "
         "The colour scale's title says which."));

  m_reduce = new QComboBox;
  m_reduce->setObjectName(QStringLiteral("reduce"));
  m_reduce->addItem(tr("mean of block"), static_cast<int>(Reduce::mean));
  m_reduce->addItem(tr("max of block"), static_cast<int>(Reduce::max));
  m_reduce->setToolTip(
      tr("When a map has more cells than screen pixels, each pixel shows the "
         "mean or the max of the block of cells it covers. Zoom in (mouse "
         "wheel) to see exact cells."));

  form->addRow(tr("stage"), m_stage);
  form->addRow(tr("batch element"), m_batch);
  auto* heads = new QWidget;
  auto* headsRow = new QHBoxLayout(heads);
  headsRow->setContentsMargins(0, 0, 0, 0);
  headsRow->addWidget(m_head, 1);
  headsRow->addWidget(m_average);
  form->addRow(tr("heads"), heads);
  form->addRow(tr("colormap"), m_colormap);
  form->addRow(QString(), m_perHead);
  form->addRow(QString(), m_autoRange);
  form->addRow(tr("big maps"), m_reduce);

  connect(m_stage, &QComboBox::currentIndexChanged, this, [this](int i) {
    const auto stage = static_cast<Stage>(m_stage->itemData(i).toInt());
    edit([stage](ViewOptions& v) { v.stage = stage; });
  });
  connect(m_batch, &QSpinBox::valueChanged, this,
          [this](int n) { edit([n](ViewOptions& v) { v.batch = n; }); });
  connect(m_head, &QComboBox::currentIndexChanged, this,
          [this](int i) { edit([i](ViewOptions& v) { v.soloHead = i - 1; }); });
  connect(m_average, &QCheckBox::toggled, this,
          [this](bool on) { edit([on](ViewOptions& v) { v.showAverage = on; }); });
  connect(m_colormap, &QComboBox::currentIndexChanged, this, [this](int i) {
    const auto map = static_cast<Colormap>(m_colormap->itemData(i).toInt());
    edit([map](ViewOptions& v) { v.colormap = map; });
  });
  connect(m_perHead, &QCheckBox::toggled, this,
          [this](bool on) { edit([on](ViewOptions& v) { v.perHeadScale = on; }); });
  connect(m_autoRange, &QCheckBox::toggled, this,
          [this](bool on) { edit([on](ViewOptions& v) { v.autoRange = on; }); });
  connect(m_reduce, &QComboBox::currentIndexChanged, this, [this](int i) {
    const auto rule = static_cast<Reduce>(m_reduce->itemData(i).toInt());
    edit([rule](ViewOptions& v) { v.reduce = rule; });
  });

  connect(document, &Document::changed, this, [this, document](Document::Changes what) {
    if (what & Document::Change::result) showResultShape(document->computed().result);
    if (what & (Document::Change::view | Document::Change::result)) showView(document->view());
  });
  showResultShape(document->computed().result);
  showView(document->view());
}

void ViewControls::edit(const std::function<void(ViewOptions&)>& change) {
  if (m_updating) return;
  ViewOptions next = m_document->view();
  change(next);
  m_document->setView(next);
}

void ViewControls::showResultShape(const ResultPtr& result) {
  m_updating = true;
  const int n = result ? static_cast<int>(result->N) : 1;
  const int h = result ? static_cast<int>(result->H) : 0;
  m_batch->setRange(0, std::max(n, 1) - 1);
  m_batch->setEnabled(n > 1);
  if (m_head->count() != h + 1) {
    m_head->clear();
    m_head->addItem(tr("all heads"));
    for (int i = 0; i < h; ++i) m_head->addItem(tr("head %1 only").arg(i));
  }
  m_updating = false;
}

void ViewControls::showView(const ViewOptions& v) {
  m_updating = true;
  m_stage->setCurrentIndex(m_stage->findData(static_cast<int>(v.stage)));
  m_batch->setValue(v.batch);
  m_head->setCurrentIndex(std::clamp(v.soloHead + 1, 0, std::max(m_head->count() - 1, 0)));
  m_average->setChecked(v.showAverage);
  m_colormap->setCurrentIndex(m_colormap->findData(static_cast<int>(v.colormap)));
  m_perHead->setChecked(v.perHeadScale);
  m_autoRange->setChecked(v.autoRange);
  m_reduce->setCurrentIndex(m_reduce->findData(static_cast<int>(v.reduce)));
  m_updating = false;
}

}  // namespace mhaviz::ui
