// AttnMaskEditor's custom-cell tools (cell value, Clear, Invert, Fill row / column), the brush,
// grid strokes, and the selector of the (n, h) block that the grid shows and edits.
#include "editors/attn_mask_editor.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <exception>

#include "document/document.hpp"

namespace mhaviz::ui {

namespace {
using gen::MaskKind;
// The most cells a pattern may list when it becomes a custom mask (a 256 x 256 grid fully
// listed): past that, editing cell by cell is no use and the session would grow large.
constexpr std::size_t kMaxCustomCells = 65536;
}  // namespace

void AttnMaskEditor::buildCustomTools(QFormLayout* form) {
  m_block = new QComboBox;
  m_block->setObjectName(QStringLiteral("maskBlock"));
  m_block->setToolTip(
      tr("3-D masks: the block b = n*H + h (batch element n, head h) the grid "
         "shows and edits."));
  form->addRow(tr("block"), m_block);
  connect(m_block, &QComboBox::activated, this,
          [this](int) { updatePreview(m_document->config()); });

  m_customTools = new QWidget;
  auto* g = new QGridLayout(m_customTools);
  g->setContentsMargins(0, 0, 0, 0);
  m_cellMasked = new QCheckBox(tr("masked"));
  m_cellMasked->setObjectName(QStringLiteral("cellMasked"));
  m_cellMasked->setChecked(true);
  m_cellMasked->setToolTip(
      tr("Float masks: clicked cells get masked_value; uncheck to set the "
         "value in the box instead."));
  m_cellValue = new QDoubleSpinBox;
  m_cellValue->setObjectName(QStringLiteral("cellValue"));
  m_cellValue->setRange(-1e9, 1e9);
  m_cellValue->setValue(2.0);
  m_cellValue->setToolTip(tr("Float masks: the value a clicked cell adds to its score."));
  m_row = new QSpinBox;
  m_row->setObjectName(QStringLiteral("cellRow"));
  m_column = new QSpinBox;
  m_column->setObjectName(QStringLiteral("cellColumn"));
  const auto button = [this](const char* name, const QString& text, const QString& tip) {
    auto* b = new QPushButton(text);
    b->setObjectName(QString::fromLatin1(name));
    b->setToolTip(tip);
    b->setAutoDefault(false);
    return b;
  };
  m_clear = button("clearCells", tr("Clear"), tr("Unmask every cell of this block"));
  m_invert = button("invertCells", tr("Invert"), tr("Toggle every cell"));
  m_fillRow = button("fillRow", tr("Fill row"), tr("Mask (or set) query row i"));
  m_fillColumn = button("fillColumn", tr("Fill column"), tr("Mask (or set) key column j"));
  // Three columns, so that the tools fit the dock's width in every language.
  g->addWidget(new QLabel(tr("cell value")), 0, 0);
  g->addWidget(m_cellValue, 0, 1);
  g->addWidget(m_cellMasked, 0, 2);
  g->addWidget(new QLabel(tr("row i")), 1, 0);
  g->addWidget(m_row, 1, 1);
  g->addWidget(m_fillRow, 1, 2);
  g->addWidget(new QLabel(tr("column j")), 2, 0);
  g->addWidget(m_column, 2, 1);
  g->addWidget(m_fillColumn, 2, 2);
  g->addWidget(m_clear, 3, 1);
  g->addWidget(m_invert, 3, 2);
  form->addRow(m_customTools);
  connect(m_cellMasked, &QCheckBox::toggled, m_cellValue, &QWidget::setDisabled);
  m_cellValue->setDisabled(true);

  const auto blockOp = [this](const QString& text,
                              const std::function<void(gen::AttnMaskSpec&, std::int64_t L,
                                                       std::int64_t S, std::int64_t b)>& op) {
    const mhaviz::Config& c = m_document->config();
    const std::int64_t b = selectedBlock();
    editSpec(text, [&](gen::AttnMaskSpec& s) { op(s, c.tgt_len, c.src_len, b); });
  };
  connect(m_clear, &QPushButton::clicked, this, [blockOp, this] {
    blockOp(tr("Clear custom attn_mask"), [](gen::AttnMaskSpec& s, std::int64_t, std::int64_t,
                                             std::int64_t b) { cells::clear(s, b); });
  });
  connect(m_invert, &QPushButton::clicked, this, [blockOp, this] {
    blockOp(tr("Invert custom attn_mask"), [](gen::AttnMaskSpec& s, std::int64_t L, std::int64_t S,
                                              std::int64_t b) { cells::invert(s, L, S, b); });
  });
  connect(m_fillRow, &QPushButton::clicked, this, [blockOp, this] {
    const int i = m_row->value();
    const cells::State state = brush();
    blockOp(tr("Fill attn_mask row %1").arg(i),
            [i, state](gen::AttnMaskSpec& s, std::int64_t, std::int64_t S, std::int64_t b) {
              cells::fillRow(s, i, S, b, state);
            });
  });
  connect(m_fillColumn, &QPushButton::clicked, this, [blockOp, this] {
    const int j = m_column->value();
    const cells::State state = brush();
    blockOp(tr("Fill attn_mask column %1").arg(j),
            [j, state](gen::AttnMaskSpec& s, std::int64_t L, std::int64_t, std::int64_t b) {
              cells::fillColumn(s, j, L, b, state);
            });
  });
}

cells::State AttnMaskEditor::brush() const {
  if (m_document->config().attn_mask_spec.dtype == gen::MaskDType::boolean ||
      m_cellMasked->isChecked()) {
    return std::nullopt;
  }
  return m_cellValue->value();
}

std::int64_t AttnMaskEditor::selectedBlock() const {
  if (m_block->count() == 0 || m_block->currentIndex() < 0) return -1;
  return m_block->currentData().toLongLong();
}

void AttnMaskEditor::selectBlock(std::int64_t b) {
  const int index = m_block->findData(QVariant::fromValue<qlonglong>(b));
  if (index >= 0) m_block->setCurrentIndex(index);
  updatePreview(m_document->config());
}

void AttnMaskEditor::onStroke(const QVector<QPoint>& stroke) {
  const mhaviz::Config& c = m_document->config();
  const MaskKind kind = c.attn_mask_spec.kind;
  if (stroke.isEmpty() || kind == MaskKind::none) return;
  // A click on a pattern (causal, window, ...) edits that pattern: it becomes a custom mask
  // listing the cells shown, with the click applied, in one undoable step.
  gen::AttnMaskSpec start = c.attn_mask_spec;
  if (kind != MaskKind::custom) {
    std::size_t needed = 0;
    QString error;
    const std::optional<gen::AttnMaskSpec> shown = shownAsCustom(c, &needed, &error);
    if (!shown) {
      announce(error.isEmpty()
                   ? tr("The %1 mask of %2 x %3 cells would need %4 custom cells to be edited "
                        "by hand (at most %5): make L and S smaller to edit it cell by cell, "
                        "or change the pattern with the settings above.")
                         .arg(shownKindName(kind))
                         .arg(c.tgt_len)
                         .arg(c.src_len)
                         .arg(needed)
                         .arg(kMaxCustomCells)
                   : error,
               c.attn_mask_spec);
      return;
    }
    start = *shown;
  }
  const std::int64_t b = selectedBlock();
  const cells::State target =
      cells::toggled(start, cells::effective(start, stroke[0].y(), stroke[0].x(), b), brush());
  gen::AttnMaskSpec next = start;
  for (const QPoint& p : stroke) cells::set(next, p.y(), p.x(), b, target);
  QString text = stroke.size() == 1
                     ? tr("Toggle attn_mask cell (%1, %2)").arg(stroke[0].y()).arg(stroke[0].x())
                     : tr("Paint %1 attn_mask cells").arg(stroke.size());
  if (kind != MaskKind::custom) {
    text = tr("Edit the %1 mask as custom: %2").arg(shownKindName(kind), text);
    announce(tr("The %1 pattern is now a custom mask with your change applied; click or drag "
                "to edit more cells. Edit > Undo gives back the %1 mask.")
                 .arg(shownKindName(kind)),
             next);
  }
  editSpec(text, [&next](gen::AttnMaskSpec& s) { s = next; });
}

void AttnMaskEditor::switchToCustom() {
  const mhaviz::Config& c = m_document->config();
  const MaskKind from = c.attn_mask_spec.kind;
  if (from == MaskKind::custom) return;
  std::size_t needed = 0;
  QString error;
  const std::optional<gen::AttnMaskSpec> shown = shownAsCustom(c, &needed, &error);
  gen::AttnMaskSpec next = c.attn_mask_spec;
  next.kind = MaskKind::custom;
  if (shown) {
    next = *shown;
    if (from != MaskKind::none) {
      announce(tr("The custom mask starts from the %1 pattern shown before (%2 cells listed): "
                  "click or drag to change cells.")
                   .arg(shownKindName(from))
                   .arg(needed),
               next);
    }
  } else {
    next.cells.clear();
    announce(error.isEmpty()
                 ? tr("The custom mask starts empty: the %1 pattern of %2 x %3 cells would need "
                      "%4 custom cells (at most %5).")
                       .arg(shownKindName(from))
                       .arg(c.tgt_len)
                       .arg(c.src_len)
                       .arg(needed)
                       .arg(kMaxCustomCells)
                 : tr("The custom mask starts empty: %1").arg(error),
             next);
  }
  editSpec(tr("Set attn_mask kind to custom"), [&next](gen::AttnMaskSpec& s) { s = next; });
}

std::optional<gen::AttnMaskSpec> AttnMaskEditor::shownAsCustom(const mhaviz::Config& c,
                                                               std::size_t* needed,
                                                               QString* error) const {
  *needed = 0;
  try {
    return cells::fromPattern(c, kMaxCustomCells, needed);
  } catch (const std::exception& e) {
    *error = QString::fromUtf8(e.what());
    return std::nullopt;
  }
}

void AttnMaskEditor::announce(const QString& text, const gen::AttnMaskSpec& spec) {
  m_customNote->setText(text);
  m_customNote->show();
  m_customNoteSpec = spec;
}

QString AttnMaskEditor::shownKindName(MaskKind kind) const {
  return m_kind->itemText(m_kind->findData(static_cast<int>(kind)));
}

void AttnMaskEditor::fillBlocks(const mhaviz::Config& c) {
  const std::int64_t previous = selectedBlock();
  m_block->clear();
  const bool threeD =
      c.attn_mask_spec.shape == gen::MaskShape::three_d && c.attn_mask_spec.kind != MaskKind::none;
  if (threeD) {
    if (c.attn_mask_spec.kind == MaskKind::custom) {
      m_block->addItem(tr("every block (b = -1)"), QVariant::fromValue<qlonglong>(-1));
    }
    const std::int64_t H = c.num_heads;
    const std::int64_t blocks = std::min<std::int64_t>(c.batch() * H, 512);
    for (std::int64_t b = 0; b < blocks; ++b) {
      m_block->addItem(tr("b = %1 (n = %2, head %3)").arg(b).arg(b / H).arg(b % H),
                       QVariant::fromValue<qlonglong>(b));
    }
  }
  m_block->setEnabled(threeD);
  const int index = m_block->findData(QVariant::fromValue<qlonglong>(previous));
  if (index >= 0) m_block->setCurrentIndex(index);
}

}  // namespace mhaviz::ui
