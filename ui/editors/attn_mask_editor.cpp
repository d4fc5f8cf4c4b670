// AttnMaskEditor: construction, spec edits, the preview and showConfig. The controls are built in
// attn_mask_controls.cpp, the custom-cell tools and the block selector in attn_mask_cells.cpp.
#include "editors/attn_mask_editor.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

#include "document/document.hpp"
#include "editors/block_sparsity_view.hpp"
#include "editors/mask_grid_view.hpp"
#include "editors/mask_value_controls.hpp"
#include "mhaviz/core/gen/masks.hpp"

namespace mhaviz::ui {

namespace {

using gen::MaskKind;

// Previews larger than this many cells are not generated on the GUI thread.
constexpr std::int64_t kMaxPreviewCells = 4'000'000;

QString joinInts(const std::vector<std::int64_t>& values) {
  QStringList parts;
  for (std::int64_t v : values) parts << QString::number(v);
  return parts.join(QStringLiteral(" "));
}

QString joinEdges(const std::vector<std::array<std::int64_t, 2>>& edges) {
  QStringList parts;
  for (const auto& e : edges) parts << QStringLiteral("%1-%2").arg(e[0]).arg(e[1]);
  return parts.join(QStringLiteral(" "));
}

}  // namespace

AttnMaskEditor::AttnMaskEditor(Document* document, QWidget* parent)
    : SpecEditor(tr("attn_mask"), document, parent) {
  setObjectName(QStringLiteral("attnMaskEditor"));
  auto* layout = new QVBoxLayout(this);
  m_note = noteLabel("maskNote", false);
  m_resizeNote = noteLabel("maskResizeNote", false);
  layout->addWidget(m_note);
  layout->addWidget(m_resizeNote);
  m_form = new QFormLayout;
  layout->addLayout(m_form);
  buildControls(m_form);
  buildCustomTools(m_form);
  m_customNote = noteLabel("maskCustomNote", false);
  m_grid = new MaskGridView;
  m_grid->setObjectName(QStringLiteral("maskGrid"));
  m_grid->setToolTip(
      tr("The generated attn_mask: row i = query i, column j = key j. Dark = "
         "masked (bool True / -inf), red = negative bias, blue = positive. Click or "
         "drag to toggle cells; on a pattern such as causal the first click makes it a "
         "custom mask that starts from the pattern shown."));
  layout->addWidget(m_customNote);
  layout->addWidget(m_grid, 1);
  m_blocks = new BlockSparsityView;
  m_blocks->setMaximumHeight(260);
  layout->addWidget(m_blocks);
  connect(document, &Document::changed, m_blocks, [this, document](Document::Changes what) {
    if (what & Document::Change::result) {
      m_blocks->setResult(document->computed().result, document->computed().analyses);
    }
  });
  m_blocks->setResult(document->computed().result, document->computed().analyses);
  connect(m_grid, &MaskGridView::stroke, this, &AttnMaskEditor::onStroke);
  connect(m_grid, &MaskGridView::cellPressed, this, [this](int i, int j) {
    m_row->setValue(i);
    m_column->setValue(j);
  });
  follow();
}

AttnMaskEditor::Controls AttnMaskEditor::controls() const {
  return {m_kind,       m_dtype,     m_width,      m_prefixLength, m_documents,  m_dilation,
          m_sinkTokens, m_cellValue, m_cellMasked, m_row,          m_column,     m_clear,
          m_invert,     m_fillRow,   m_fillColumn, m_note,         m_resizeNote, m_customNote};
}

void AttnMaskEditor::editSpec(const QString& text,
                              const std::function<void(gen::AttnMaskSpec&)>& change, int mergeId) {
  m_edits.edit(
      text, [&change](mhaviz::Config& c) { change(c.attn_mask_spec); }, mergeId);
}

void AttnMaskEditor::updatePreview(const mhaviz::Config& c) {
  const gen::AttnMaskSpec& s = c.attn_mask_spec;
  m_blocks->setMap(selectedBlock());
  // Every mask drawn as cells can be clicked (a pattern becomes custom); a message cannot.
  m_grid->setEditable(false);
  if (s.kind == MaskKind::none) {
    m_grid->setMessage(
        tr("No attn_mask: every query attends to every key. Choose a kind above; "
           "\"custom\" masks the cells you click."));
    return;
  }
  const std::int64_t blocks = s.shape == gen::MaskShape::three_d ? c.batch() * c.num_heads : 1;
  if (c.tgt_len * c.src_len * blocks > kMaxPreviewCells) {
    m_grid->setMessage(tr("The mask is too large to preview here (%1 cells); the heatmap's "
                          "\"mask\" stage shows it.")
                           .arg(c.tgt_len * c.src_len * blocks));
    return;
  }
  try {
    const std::optional<Tensor> mask = gen::make_attn_mask(c);
    if (!mask) {
      m_grid->setMessage(tr("No attn_mask."));
      return;
    }
    const std::int64_t L = mask->size(-2);
    const std::int64_t S = mask->size(-1);
    const std::int64_t b = mask->dim() == 3 ? std::max<std::int64_t>(selectedBlock(), 0) : 0;
    std::vector<double> values(static_cast<std::size_t>(L * S));
    for (std::int64_t k = 0; k < L * S; ++k) {
      values[static_cast<std::size_t>(k)] = mask->value(b * L * S + k);
    }
    m_grid->setValues(static_cast<int>(L), static_cast<int>(S), std::move(values),
                      mask->type() == ElemType::boolean);
    m_grid->setEditable(true);
  } catch (const std::exception& e) {
    m_grid->setMessage(QString::fromUtf8(e.what()));
  }
}

void AttnMaskEditor::showConfig(const mhaviz::Config& c) {
  const gen::AttnMaskSpec& s = c.attn_mask_spec;
  const MaskKind k = s.kind;
  const bool floating = s.dtype == gen::MaskDType::floating;
  m_kind->setCurrentIndex(m_kind->findData(static_cast<int>(k)));
  m_dtype->setDtype(s.dtype);
  m_shape->setCurrentIndex(m_shape->findData(static_cast<int>(s.shape)));
  m_dtype->setEnabled(!gen::is_bias_kind(k));
  m_shape->setEnabled(!gen::is_bias_kind(k));
  m_maskedValue->showValue(s.masked_value);
  m_width->setValue(static_cast<int>(std::min<std::int64_t>(s.width, m_width->maximum())));
  m_segments->setText(joinInts(s.segments));
  m_prefixLength->setValue(
      static_cast<int>(std::clamp<std::int64_t>(s.prefix_length, 0, m_prefixLength->maximum())));
  m_documents->setText(joinInts(s.document_lengths));
  m_dilation->setValue(
      static_cast<int>(std::clamp<std::int64_t>(s.dilation, 1, m_dilation->maximum())));
  m_sinkTokens->setValue(
      static_cast<int>(std::clamp<std::int64_t>(s.sink_tokens, 0, m_sinkTokens->maximum())));
  m_probability->setValue(s.probability);
  m_seed->setValue(s.seed ? static_cast<int>(std::min<std::uint64_t>(
                                *s.seed, static_cast<std::uint64_t>(m_seed->maximum())))
                          : -1);
  m_causal->setChecked(s.causal);
  m_edges->setText(joinEdges(s.edges));
  m_edgeProbability->setValue(s.edge_probability);
  m_graphBias->setCurrentIndex(m_graphBias->findData(static_cast<int>(s.graph_bias)));
  m_maxDistance->setValue(static_cast<int>(s.max_distance));
  m_tableScale->setValue(s.table_scale);
  m_row->setRange(0, static_cast<int>(c.tgt_len - 1));
  m_column->setRange(0, static_cast<int>(c.src_len - 1));

  const bool table = k == MaskKind::graph && s.graph_bias == gen::GraphBias::table;
  m_form->setRowVisible(m_dtype, k != MaskKind::none);
  m_form->setRowVisible(m_shape, k != MaskKind::none);
  m_form->setRowVisible(m_maskedValue, k != MaskKind::none && floating);
  m_form->setRowVisible(m_width, k == MaskKind::window || k == MaskKind::band ||
                                     k == MaskKind::dilated || k == MaskKind::sink);
  m_form->setRowVisible(m_prefixLength, k == MaskKind::prefix_lm);
  m_form->setRowVisible(m_documents, k == MaskKind::document);
  m_form->setRowVisible(m_dilation, k == MaskKind::dilated);
  m_form->setRowVisible(m_sinkTokens, k == MaskKind::sink);
  m_form->setRowVisible(m_segments, k == MaskKind::block);
  m_form->setRowVisible(m_probability, k == MaskKind::random);
  m_form->setRowVisible(m_seed, k == MaskKind::random || k == MaskKind::graph);
  m_form->setRowVisible(m_causal,
                        gen::is_bias_kind(k) || k == MaskKind::document || k == MaskKind::dilated);
  m_form->setRowVisible(m_edges, k == MaskKind::graph);
  m_form->setRowVisible(m_edgeProbability, k == MaskKind::graph);
  m_form->setRowVisible(m_graphBias, k == MaskKind::graph);
  m_form->setRowVisible(m_maxDistance, table);
  m_form->setRowVisible(m_tableScale, table);
  m_form->setRowVisible(m_customTools, k == MaskKind::custom);
  m_form->setRowVisible(m_block, s.shape == gen::MaskShape::three_d && k != MaskKind::none);
  m_cellMasked->setVisible(floating);
  m_cellValue->setVisible(floating);

  if (gen::is_bias_kind(k)) {
    m_note->setText(tr("%1 is an additive bias that differs per head, so attn_mask is set to "
                       "float and 3-D (N*H, L, S): block b = n*H + h is added to head h's "
                       "scores of batch element n.")
                        .arg(k == MaskKind::alibi ? tr("ALiBi") : tr("The graph bias")));
    m_note->show();
  } else {
    m_note->hide();
  }
  const QString fitted = m_document->lastFitNotes();
  if (!fitted.isEmpty()) {
    m_resizeNote->setText(fitted);
    m_resizeNote->show();
  } else if (!(s == m_shownSpec)) {
    m_resizeNote->hide();
  }
  m_shownSpec = s;
  if (!(s == m_customNoteSpec)) m_customNote->hide();
  fillBlocks(c);
  updatePreview(c);
}

}  // namespace mhaviz::ui
