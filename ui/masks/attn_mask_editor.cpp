#include "masks/attn_mask_editor.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>
#include <exception>
#include <limits>

#include "compute/compute_controller.hpp"
#include "masks/mask_grid_view.hpp"
#include "mhaviz/core/gen/masks.hpp"

namespace mhaviz::ui {

namespace {

using gen::MaskKind;

// Merge ids of spin boxes (consecutive steps of one box are one undo command).
enum Merge {
  kWidth = 7101,
  kProbability,
  kSeed,
  kMaskedValue,
  kEdgeProbability,
  kMaxDistance,
  kTableScale
};
// Previews larger than this many cells are not generated on the GUI thread.
constexpr std::int64_t kMaxPreviewCells = 4'000'000;
constexpr double kInf = std::numeric_limits<double>::infinity();

QString kindName(MaskKind kind) {
  switch (kind) {
    case MaskKind::none:
      return QObject::tr("none");
    case MaskKind::causal:
      return QObject::tr("causal");
    case MaskKind::window:
      return QObject::tr("sliding window");
    case MaskKind::band:
      return QObject::tr("band");
    case MaskKind::block:
      return QObject::tr("block diagonal");
    case MaskKind::random:
      return QObject::tr("random");
    case MaskKind::custom:
      return QObject::tr("custom (edit the grid)");
    case MaskKind::alibi:
      return QObject::tr("ALiBi bias (per head)");
    case MaskKind::graph:
      return QObject::tr("graph bias (per head)");
  }
  return {};
}

QStringList tokens(const QString& text) {
  static const QRegularExpression sep(QStringLiteral("[,;\\s]+"));
  return text.split(sep, Qt::SkipEmptyParts);
}

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

AttnMaskEditor::AttnMaskEditor(ComputeController* controller, QWidget* parent)
    : SpecEditor(tr("attn_mask"), controller, parent) {
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
  m_grid = new MaskGridView;
  m_grid->setObjectName(QStringLiteral("maskGrid"));
  m_grid->setToolTip(
      tr("The generated attn_mask: row i = query i, column j = key j. Dark = "
         "masked (bool True / -inf), red = negative bias, blue = positive. For "
         "a custom mask click or drag to toggle cells."));
  layout->addWidget(m_grid, 1);
  connect(m_grid, &MaskGridView::stroke, this, &AttnMaskEditor::onStroke);
  connect(m_grid, &MaskGridView::cellPressed, this, [this](int i, int j) {
    m_row->setValue(i);
    m_column->setValue(j);
  });
  follow();
}

void AttnMaskEditor::buildControls(QFormLayout* form) {
  m_kind = new QComboBox;
  m_kind->setObjectName(QStringLiteral("attnMaskKind"));
  for (MaskKind k : gen::kMaskKinds) m_kind->addItem(kindName(k), static_cast<int>(k));
  m_kind->setToolTip(
      tr("attn_mask — forward(attn_mask=...): which positions a query may not "
         "attend to (bool True = masked), or a float bias added to the scores."));
  m_dtype = new QComboBox;
  m_dtype->setObjectName(QStringLiteral("attnMaskDtype"));
  m_dtype->addItem(tr("bool (True = masked)"), static_cast<int>(gen::MaskDType::boolean));
  m_dtype->addItem(tr("float (added to scores)"), static_cast<int>(gen::MaskDType::floating));
  m_shape = new QComboBox;
  m_shape->setObjectName(QStringLiteral("attnMaskShape"));
  m_shape->addItem(tr("2-D (L, S), all heads"), static_cast<int>(gen::MaskShape::two_d));
  m_shape->addItem(tr("3-D (N*H, L, S), per head"), static_cast<int>(gen::MaskShape::three_d));
  m_maskedInf = new QCheckBox(QStringLiteral("-inf"));
  m_maskedInf->setObjectName(QStringLiteral("maskedInf"));
  m_maskedValue = new QDoubleSpinBox;
  m_maskedValue->setObjectName(QStringLiteral("maskedValue"));
  m_maskedValue->setRange(-1e9, 1e9);
  m_maskedValue->setDecimals(1);
  m_maskedValue->setToolTip(
      tr("Float masks: the value a masked cell adds to its score. -inf "
         "hides the key exactly; a finite value such as -10000 almost."));
  auto* masked = new QWidget;
  auto* mh = new QHBoxLayout(masked);
  mh->setContentsMargins(0, 0, 0, 0);
  mh->addWidget(m_maskedInf);
  mh->addWidget(m_maskedValue, 1);

  m_width = new QSpinBox;
  m_width->setObjectName(QStringLiteral("maskWidth"));
  m_width->setRange(1, 1 << 20);
  m_width->setToolTip(
      tr("window: query i sees keys i-width+1 .. i; band: keys with |i-j| < "
         "width."));
  m_segments = new QLineEdit;
  m_segments->setObjectName(QStringLiteral("maskSegments"));
  m_segments->setToolTip(
      tr("Segment sizes, e.g. \"3 5\": a query sees only keys of its own "
         "segment; positions past their sum form one last segment."));
  m_probability = new QDoubleSpinBox;
  m_probability->setObjectName(QStringLiteral("maskProbability"));
  m_probability->setRange(0.0, 1.0);
  m_probability->setSingleStep(0.05);
  m_probability->setDecimals(3);
  m_seed = new QSpinBox;
  m_seed->setObjectName(QStringLiteral("maskSeed"));
  m_seed->setRange(-1, std::numeric_limits<int>::max());
  m_seed->setSpecialValueText(tr("auto (seed + 3)"));
  m_causal = new QCheckBox(tr("also mask later keys (j > i)"));
  m_causal->setObjectName(QStringLiteral("maskCausal"));
  m_edges = new QLineEdit;
  m_edges->setObjectName(QStringLiteral("graphEdges"));
  m_edges->setPlaceholderText(QStringLiteral("0-1 1-2 2-5"));
  m_edges->setToolTip(
      tr("Undirected edges between positions as u-v pairs (query i is node i, "
         "key j is node j)."));
  m_edgeProbability = new QDoubleSpinBox;
  m_edgeProbability->setObjectName(QStringLiteral("graphEdgeProbability"));
  m_edgeProbability->setRange(0.0, 1.0);
  m_edgeProbability->setSingleStep(0.05);
  m_edgeProbability->setDecimals(3);
  m_graphBias = new QComboBox;
  m_graphBias->setObjectName(QStringLiteral("graphBias"));
  m_graphBias->addItem(tr("distance (-slope x d)"), static_cast<int>(gen::GraphBias::distance));
  m_graphBias->addItem(tr("table per head"), static_cast<int>(gen::GraphBias::table));
  m_maxDistance = new QSpinBox;
  m_maxDistance->setObjectName(QStringLiteral("graphMaxDistance"));
  m_maxDistance->setRange(0, 1 << 20);
  m_tableScale = new QDoubleSpinBox;
  m_tableScale->setObjectName(QStringLiteral("graphTableScale"));
  m_tableScale->setRange(0.0, 1e6);
  m_tableScale->setSingleStep(0.1);

  form->addRow(tr("kind"), m_kind);
  form->addRow(tr("dtype"), m_dtype);
  form->addRow(tr("shape"), m_shape);
  form->addRow(tr("masked value"), masked);
  form->addRow(tr("width"), m_width);
  form->addRow(tr("segments"), m_segments);
  form->addRow(tr("probability"), m_probability);
  form->addRow(tr("seed"), m_seed);
  form->addRow(QString(), m_causal);
  form->addRow(tr("edges"), m_edges);
  form->addRow(tr("edge probability"), m_edgeProbability);
  form->addRow(tr("graph bias"), m_graphBias);
  form->addRow(tr("max distance"), m_maxDistance);
  form->addRow(tr("table scale"), m_tableScale);

  connect(m_kind, &QComboBox::activated, this, [this](int index) {
    const auto kind = static_cast<MaskKind>(m_kind->itemData(index).toInt());
    editSpec(tr("Set attn_mask kind to %1").arg(QString::fromUtf8(gen::to_string(kind).data())),
             [kind](gen::AttnMaskSpec& s) {
               s.kind = kind;
               if (gen::is_bias_kind(kind)) {
                 s.dtype = gen::MaskDType::floating;
                 s.shape = gen::MaskShape::three_d;
               }
             });
  });
  connect(m_dtype, &QComboBox::activated, this, [this](int index) {
    const auto dtype = static_cast<gen::MaskDType>(m_dtype->itemData(index).toInt());
    editSpec(tr("Set attn_mask dtype to %1").arg(QString::fromUtf8(gen::to_string(dtype).data())),
             [dtype](gen::AttnMaskSpec& s) { s.dtype = dtype; });
  });
  connect(m_shape, &QComboBox::activated, this, [this](int index) {
    const auto shape = static_cast<gen::MaskShape>(m_shape->itemData(index).toInt());
    editSpec(tr("Set attn_mask shape to %1").arg(QString::fromUtf8(gen::to_string(shape).data())),
             [shape](gen::AttnMaskSpec& s) { s.shape = shape; });
  });
  connect(m_maskedInf, &QCheckBox::toggled, this, [this](bool inf) {
    const double v = inf ? -kInf : m_maskedValue->value();
    editSpec(tr("Set attn_mask masked_value"), [v](gen::AttnMaskSpec& s) { s.masked_value = v; });
  });
  connect(m_maskedValue, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    if (m_maskedInf->isChecked()) return;
    editSpec(
        tr("Set attn_mask masked_value"), [v](gen::AttnMaskSpec& s) { s.masked_value = v; },
        kMaskedValue);
  });
  connect(m_width, &QSpinBox::valueChanged, this, [this](int v) {
    editSpec(
        tr("Set attn_mask width to %1").arg(v), [v](gen::AttnMaskSpec& s) { s.width = v; }, kWidth);
  });
  connect(m_segments, &QLineEdit::editingFinished, this, [this] {
    std::vector<std::int64_t> segments;
    for (const QString& t : tokens(m_segments->text())) {
      bool ok = false;
      const int v = t.toInt(&ok);
      if (!ok || v < 1) {
        m_note->setText(tr("segments: \"%1\" is not a positive size; type sizes such as "
                           "\"3 5\".")
                            .arg(t));
        m_note->show();
        return;
      }
      segments.push_back(v);
    }
    editSpec(tr("Set attn_mask segments"),
             [&segments](gen::AttnMaskSpec& s) { s.segments = segments; });
  });
  connect(m_probability, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    editSpec(
        tr("Set attn_mask probability"), [v](gen::AttnMaskSpec& s) { s.probability = v; },
        kProbability);
  });
  connect(m_seed, &QSpinBox::valueChanged, this, [this](int v) {
    editSpec(
        tr("Set attn_mask seed"),
        [v](gen::AttnMaskSpec& s) {
          s.seed =
              v < 0 ? std::nullopt : std::optional<std::uint64_t>(static_cast<std::uint64_t>(v));
        },
        kSeed);
  });
  connect(m_causal, &QCheckBox::toggled, this, [this](bool on) {
    editSpec(tr("Set attn_mask causal"), [on](gen::AttnMaskSpec& s) { s.causal = on; });
  });
  connect(m_edges, &QLineEdit::editingFinished, this, [this] {
    std::vector<std::array<std::int64_t, 2>> edges;
    static const QRegularExpression pair(QStringLiteral("^(\\d+)-(\\d+)$"));
    for (const QString& t : tokens(m_edges->text())) {
      const auto m = pair.match(t);
      if (!m.hasMatch()) {
        m_note->setText(tr("edges: \"%1\" is not an edge; type pairs such as \"0-1 1-2\".").arg(t));
        m_note->show();
        return;
      }
      edges.push_back({m.captured(1).toLongLong(), m.captured(2).toLongLong()});
    }
    editSpec(tr("Set graph edges"), [&edges](gen::AttnMaskSpec& s) { s.edges = edges; });
  });
  connect(m_edgeProbability, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    editSpec(
        tr("Set graph edge probability"), [v](gen::AttnMaskSpec& s) { s.edge_probability = v; },
        kEdgeProbability);
  });
  connect(m_graphBias, &QComboBox::activated, this, [this](int index) {
    const auto bias = static_cast<gen::GraphBias>(m_graphBias->itemData(index).toInt());
    editSpec(tr("Set graph bias"), [bias](gen::AttnMaskSpec& s) { s.graph_bias = bias; });
  });
  connect(m_maxDistance, &QSpinBox::valueChanged, this, [this](int v) {
    editSpec(
        tr("Set graph max distance"), [v](gen::AttnMaskSpec& s) { s.max_distance = v; },
        kMaxDistance);
  });
  connect(m_tableScale, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    editSpec(
        tr("Set graph table scale"), [v](gen::AttnMaskSpec& s) { s.table_scale = v; }, kTableScale);
  });
}

void AttnMaskEditor::buildCustomTools(QFormLayout* form) {
  m_block = new QComboBox;
  m_block->setObjectName(QStringLiteral("maskBlock"));
  m_block->setToolTip(
      tr("3-D masks: the block b = n*H + h (batch element n, head h) the grid "
         "shows and edits."));
  form->addRow(tr("block"), m_block);
  connect(m_block, &QComboBox::activated, this,
          [this](int) { updatePreview(m_controller->config()); });

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
  QPushButton* clear = button("clearCells", tr("Clear"), tr("Unmask every cell of this block"));
  QPushButton* invert = button("invertCells", tr("Invert"), tr("Toggle every cell"));
  QPushButton* fillRow = button("fillRow", tr("Fill row"), tr("Mask (or set) query row i"));
  QPushButton* fillCol = button("fillColumn", tr("Fill column"), tr("Mask (or set) key column j"));
  g->addWidget(new QLabel(tr("cell value")), 0, 0);
  g->addWidget(m_cellValue, 0, 1);
  g->addWidget(m_cellMasked, 0, 2);
  g->addWidget(clear, 0, 3);
  g->addWidget(new QLabel(tr("row i")), 1, 0);
  g->addWidget(m_row, 1, 1);
  g->addWidget(fillRow, 1, 2);
  g->addWidget(invert, 1, 3);
  g->addWidget(new QLabel(tr("column j")), 2, 0);
  g->addWidget(m_column, 2, 1);
  g->addWidget(fillCol, 2, 2);
  form->addRow(m_customTools);
  connect(m_cellMasked, &QCheckBox::toggled, m_cellValue, &QWidget::setDisabled);
  m_cellValue->setDisabled(true);

  const auto blockOp = [this](const QString& text,
                              const std::function<void(gen::AttnMaskSpec&, std::int64_t L,
                                                       std::int64_t S, std::int64_t b)>& op) {
    const mhaviz::Config& c = m_controller->config();
    const std::int64_t b = selectedBlock();
    editSpec(text, [&](gen::AttnMaskSpec& s) { op(s, c.tgt_len, c.src_len, b); });
  };
  connect(clear, &QPushButton::clicked, this, [blockOp, this] {
    blockOp(tr("Clear custom attn_mask"), [](gen::AttnMaskSpec& s, std::int64_t, std::int64_t,
                                             std::int64_t b) { cells::clear(s, b); });
  });
  connect(invert, &QPushButton::clicked, this, [blockOp, this] {
    blockOp(tr("Invert custom attn_mask"), [](gen::AttnMaskSpec& s, std::int64_t L, std::int64_t S,
                                              std::int64_t b) { cells::invert(s, L, S, b); });
  });
  connect(fillRow, &QPushButton::clicked, this, [blockOp, this] {
    const int i = m_row->value();
    const cells::State state = brush();
    blockOp(tr("Fill attn_mask row %1").arg(i),
            [i, state](gen::AttnMaskSpec& s, std::int64_t, std::int64_t S, std::int64_t b) {
              cells::fillRow(s, i, S, b, state);
            });
  });
  connect(fillCol, &QPushButton::clicked, this, [blockOp, this] {
    const int j = m_column->value();
    const cells::State state = brush();
    blockOp(tr("Fill attn_mask column %1").arg(j),
            [j, state](gen::AttnMaskSpec& s, std::int64_t L, std::int64_t, std::int64_t b) {
              cells::fillColumn(s, j, L, b, state);
            });
  });
}

cells::State AttnMaskEditor::brush() const {
  if (m_controller->config().attn_mask_spec.dtype == gen::MaskDType::boolean ||
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
  updatePreview(m_controller->config());
}

void AttnMaskEditor::editSpec(const QString& text,
                              const std::function<void(gen::AttnMaskSpec&)>& change, int mergeId) {
  edit(
      text, [&change](mhaviz::Config& c) { change(c.attn_mask_spec); }, mergeId);
}

void AttnMaskEditor::onStroke(const QVector<QPoint>& stroke) {
  const mhaviz::Config& c = m_controller->config();
  if (stroke.isEmpty() || c.attn_mask_spec.kind != MaskKind::custom) return;
  const std::int64_t b = selectedBlock();
  const cells::State target =
      cells::toggled(c.attn_mask_spec,
                     cells::effective(c.attn_mask_spec, stroke[0].y(), stroke[0].x(), b), brush());
  editSpec(stroke.size() == 1
               ? tr("Toggle attn_mask cell (%1, %2)").arg(stroke[0].y()).arg(stroke[0].x())
               : tr("Paint %1 attn_mask cells").arg(stroke.size()),
           [&](gen::AttnMaskSpec& s) {
             for (const QPoint& p : stroke) cells::set(s, p.y(), p.x(), b, target);
           });
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

void AttnMaskEditor::updatePreview(const mhaviz::Config& c) {
  const gen::AttnMaskSpec& s = c.attn_mask_spec;
  m_grid->setEditable(s.kind == MaskKind::custom);
  if (s.kind == MaskKind::none) {
    m_grid->setMessage(tr("No attn_mask: every query attends to every key."));
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
  } catch (const std::exception& e) {
    m_grid->setMessage(QString::fromUtf8(e.what()));
  }
}

void AttnMaskEditor::showConfig(const mhaviz::Config& c) {
  const gen::AttnMaskSpec& s = c.attn_mask_spec;
  const MaskKind k = s.kind;
  const bool floating = s.dtype == gen::MaskDType::floating;
  m_kind->setCurrentIndex(m_kind->findData(static_cast<int>(k)));
  m_dtype->setCurrentIndex(m_dtype->findData(static_cast<int>(s.dtype)));
  m_shape->setCurrentIndex(m_shape->findData(static_cast<int>(s.shape)));
  m_dtype->setEnabled(!gen::is_bias_kind(k));
  m_shape->setEnabled(!gen::is_bias_kind(k));
  m_maskedInf->setChecked(std::isinf(s.masked_value));
  m_maskedValue->setEnabled(!std::isinf(s.masked_value));
  if (!std::isinf(s.masked_value))
    m_maskedValue->setValue(s.masked_value);
  else if (m_maskedValue->value() == 0.0)
    m_maskedValue->setValue(-10000.0);
  m_width->setValue(static_cast<int>(std::min<std::int64_t>(s.width, m_width->maximum())));
  m_segments->setText(joinInts(s.segments));
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
  m_form->setRowVisible(m_maskedValue->parentWidget(), k != MaskKind::none && floating);
  m_form->setRowVisible(m_width, k == MaskKind::window || k == MaskKind::band);
  m_form->setRowVisible(m_segments, k == MaskKind::block);
  m_form->setRowVisible(m_probability, k == MaskKind::random);
  m_form->setRowVisible(m_seed, k == MaskKind::random || k == MaskKind::graph);
  m_form->setRowVisible(m_causal, gen::is_bias_kind(k));
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
  const QString fitted = m_controller->lastFitNotes();
  if (!fitted.isEmpty()) {
    m_resizeNote->setText(fitted);
    m_resizeNote->show();
  } else if (!(s == m_shownSpec)) {
    m_resizeNote->hide();
  }
  m_shownSpec = s;
  fillBlocks(c);
  updatePreview(c);
}

}  // namespace mhaviz::ui
