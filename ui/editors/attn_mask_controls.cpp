// AttnMaskEditor::buildControls: the kind, dtype, shape and masked value of attn_mask and the
// parameters of each kind, one group of controls per function, with their edits of the spec.
#include "editors/attn_mask_editor.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <limits>

#include "editors/mask_value_controls.hpp"

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
  kTableScale,
  kPrefixLength,
  kDilation,
  kSinkTokens
};

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
    case MaskKind::prefix_lm:
      return QObject::tr("prefix-LM");
    case MaskKind::document:
      return QObject::tr("documents (packed sequences)");
    case MaskKind::dilated:
      return QObject::tr("dilated sliding window");
    case MaskKind::sink:
      return QObject::tr("attention sink + window (StreamingLLM)");
  }
  return {};
}

QStringList tokens(const QString& text) {
  static const QRegularExpression sep(QStringLiteral("[,;\\s]+"));
  return text.split(sep, Qt::SkipEmptyParts);
}

}  // namespace

void AttnMaskEditor::buildControls(QFormLayout* form) {
  buildKindControls(form);
  buildWindowControls(form);
  buildBlockAndRandomControls(form);
  buildGraphControls(form);
}

/// What the mask is: its kind, dtype, shape and the value of a masked cell.
void AttnMaskEditor::buildKindControls(QFormLayout* form) {
  m_kind = new QComboBox;
  m_kind->setObjectName(QStringLiteral("attnMaskKind"));
  for (MaskKind k : gen::kMaskKinds) m_kind->addItem(kindName(k), static_cast<int>(k));
  // Long kind names ("attention sink + window (StreamingLLM)") must not widen the dock: the
  // closed box shows as much as fits, the open list shows them in full.
  m_kind->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_kind->setMinimumContentsLength(16);
  m_kind->setToolTip(
      tr("attn_mask — forward(attn_mask=...): which positions a query may not "
         "attend to (bool True = masked), or a float bias added to the scores."));
  m_dtype = new MaskDtypeCombo(tr("bool (True = masked)"));
  m_dtype->setObjectName(QStringLiteral("attnMaskDtype"));
  m_shape = new QComboBox;
  m_shape->setObjectName(QStringLiteral("attnMaskShape"));
  m_shape->addItem(tr("2-D (L, S), all heads"), static_cast<int>(gen::MaskShape::two_d));
  m_shape->addItem(tr("3-D (N*H, L, S), per head"), static_cast<int>(gen::MaskShape::three_d));
  m_maskedValue = new MaskedValueEdit(QStringLiteral("maskedInf"), QStringLiteral("maskedValue"));
  m_maskedValue->setValueToolTip(
      tr("Float masks: the value a masked cell adds to its score. -inf "
         "hides the key exactly; a finite value such as -10000 almost."));

  form->addRow(tr("kind"), m_kind);
  form->addRow(tr("dtype"), m_dtype);
  form->addRow(tr("shape"), m_shape);
  form->addRow(tr("masked value"), m_maskedValue);

  connect(m_kind, &QComboBox::activated, this, [this](int index) {
    const auto kind = static_cast<MaskKind>(m_kind->itemData(index).toInt());
    if (kind == MaskKind::custom) {
      switchToCustom();  // starts from the pattern shown, not from an empty grid
      return;
    }
    m_edits.edit(tr("Set attn_mask kind to %1").arg(QString::fromUtf8(gen::to_string(kind).data())),
                 [kind](mhaviz::Config& c) {
                   gen::AttnMaskSpec& s = c.attn_mask_spec;
                   s.kind = kind;
                   if (gen::is_bias_kind(kind)) {
                     s.dtype = gen::MaskDType::floating;
                     s.shape = gen::MaskShape::three_d;
                   }
                   // Documents start as two halves of the sequence (edit the lengths after).
                   if (kind == MaskKind::document && s.document_lengths.empty()) {
                     const std::int64_t half = c.tgt_len / 2;
                     s.document_lengths = half > 0
                                              ? std::vector<std::int64_t>{half, c.tgt_len - half}
                                              : std::vector<std::int64_t>{c.tgt_len};
                   }
                 });
  });
  connect(m_dtype, &MaskDtypeCombo::dtypeChosen, this, [this](gen::MaskDType dtype) {
    editSpec(tr("Set attn_mask dtype to %1").arg(QString::fromUtf8(gen::to_string(dtype).data())),
             [dtype](gen::AttnMaskSpec& s) { s.dtype = dtype; });
  });
  connect(m_shape, &QComboBox::activated, this, [this](int index) {
    const auto shape = static_cast<gen::MaskShape>(m_shape->itemData(index).toInt());
    editSpec(tr("Set attn_mask shape to %1").arg(QString::fromUtf8(gen::to_string(shape).data())),
             [shape](gen::AttnMaskSpec& s) { s.shape = shape; });
  });
  connect(m_maskedValue, &MaskedValueEdit::infToggled, this, [this](double v) {
    editSpec(tr("Set attn_mask masked_value"), [v](gen::AttnMaskSpec& s) { s.masked_value = v; });
  });
  connect(m_maskedValue, &MaskedValueEdit::finiteValueChanged, this, [this](double v) {
    editSpec(
        tr("Set attn_mask masked_value"), [v](gen::AttnMaskSpec& s) { s.masked_value = v; },
        kMaskedValue);
  });
}

/// The sizes of the window-like kinds: window and band width, prefix-LM, packed documents,
/// dilation, attention sinks.
void AttnMaskEditor::buildWindowControls(QFormLayout* form) {
  m_width = new QSpinBox;
  m_width->setObjectName(QStringLiteral("maskWidth"));
  m_width->setRange(1, 1 << 20);
  m_width->setToolTip(
      tr("window: query i sees keys i-width+1 .. i; band: keys with |i-j| < "
         "width."));
  m_prefixLength = new QSpinBox;
  m_prefixLength->setObjectName(QStringLiteral("maskPrefixLength"));
  m_prefixLength->setRange(0, 1 << 20);
  m_prefixLength->setToolTip(
      tr("prefix-LM: the first p positions see each other in both directions; later queries "
         "see keys j <= i (attn_mask.prefix_length, 0 <= p <= min(L, S))."));
  m_documents = new QLineEdit;
  m_documents->setObjectName(QStringLiteral("maskDocumentLengths"));
  m_documents->setPlaceholderText(QStringLiteral("3 5"));
  m_documents->setToolTip(
      tr("Lengths of the packed documents, e.g. \"3 5\"; they must add up to L = S. A query "
         "sees only keys of its own document (attn_mask.document_lengths)."));
  m_dilation = new QSpinBox;
  m_dilation->setObjectName(QStringLiteral("maskDilation"));
  m_dilation->setRange(1, 1 << 20);
  m_dilation->setToolTip(
      tr("dilated window: query i sees keys at distance 0, d, 2d, ... (width keys in all) "
         "(attn_mask.dilation)."));
  m_sinkTokens = new QSpinBox;
  m_sinkTokens->setObjectName(QStringLiteral("maskSinkTokens"));
  m_sinkTokens->setRange(0, 1 << 20);
  m_sinkTokens->setToolTip(
      tr("StreamingLLM: the first k keys every query sees besides its causal window of width "
         "keys (attn_mask.sink_tokens)."));

  form->addRow(tr("width"), m_width);
  form->addRow(tr("prefix length"), m_prefixLength);
  form->addRow(tr("document lengths"), m_documents);
  form->addRow(tr("dilation"), m_dilation);
  form->addRow(tr("sink tokens"), m_sinkTokens);

  connect(m_width, &QSpinBox::valueChanged, this, [this](int v) {
    editSpec(
        tr("Set attn_mask width to %1").arg(v), [v](gen::AttnMaskSpec& s) { s.width = v; }, kWidth);
  });
  connect(m_prefixLength, &QSpinBox::valueChanged, this, [this](int v) {
    editSpec(
        tr("Set attn_mask prefix length to %1").arg(v),
        [v](gen::AttnMaskSpec& s) { s.prefix_length = v; }, kPrefixLength);
  });
  connect(m_dilation, &QSpinBox::valueChanged, this, [this](int v) {
    editSpec(
        tr("Set attn_mask dilation to %1").arg(v), [v](gen::AttnMaskSpec& s) { s.dilation = v; },
        kDilation);
  });
  connect(m_sinkTokens, &QSpinBox::valueChanged, this, [this](int v) {
    editSpec(
        tr("Set attn_mask sink tokens to %1").arg(v),
        [v](gen::AttnMaskSpec& s) { s.sink_tokens = v; }, kSinkTokens);
  });
  connect(m_documents, &QLineEdit::editingFinished, this, [this] {
    // Any integers are taken; lengths that cannot be used get the core's message inline.
    std::vector<std::int64_t> lengths;
    for (const QString& t : tokens(m_documents->text())) {
      bool ok = false;
      const qlonglong v = t.toLongLong(&ok);
      if (!ok) {
        m_note->setText(tr("document lengths: \"%1\" is not a whole number; type lengths such "
                           "as \"3 5\".")
                            .arg(t));
        m_note->show();
        return;
      }
      lengths.push_back(v);
    }
    editSpec(tr("Set attn_mask document lengths"),
             [&lengths](gen::AttnMaskSpec& s) { s.document_lengths = lengths; });
  });
}

/// Block-diagonal segments, the random mask's probability, the seed of the random and graph
/// kinds, and "also mask later keys" for the kinds that take it.
void AttnMaskEditor::buildBlockAndRandomControls(QFormLayout* form) {
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

  form->addRow(tr("segments"), m_segments);
  form->addRow(tr("probability"), m_probability);
  form->addRow(tr("seed"), m_seed);
  form->addRow(QString(), m_causal);

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
}

/// The graph bias: edges, random edges, distance or table bias and its parameters.
void AttnMaskEditor::buildGraphControls(QFormLayout* form) {
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

  form->addRow(tr("edges"), m_edges);
  form->addRow(tr("edge probability"), m_edgeProbability);
  form->addRow(tr("graph bias"), m_graphBias);
  form->addRow(tr("max distance"), m_maxDistance);
  form->addRow(tr("table scale"), m_tableScale);

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

}  // namespace mhaviz::ui
