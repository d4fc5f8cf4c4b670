#include "window/parameter_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

#include "document/document.hpp"
#include "editors/causal_hint.hpp"
#include "window/torch_path_text.hpp"
#include "window/view_controls.hpp"

namespace mhaviz::ui {

namespace {

/// Undo merge ids: consecutive edits of the same spin box become one command.
enum MergeId : int {
  kTgtLen = 1,
  kSrcLen,
  kBatchSize,
  kEmbedDim,
  kNumHeads,
  kKdim,
  kVdim,
  kDropout,
  kSeed,
  kInputSeed,
  kDropoutSeed
};

constexpr int kMaxLen = 1 << 16;
constexpr int kMaxDim = 1 << 14;
constexpr int kMaxSeed = std::numeric_limits<int>::max();

QWidget* row(QWidget* main, QWidget* side) {
  auto* w = new QWidget;
  auto* h = new QHBoxLayout(w);
  h->setContentsMargins(0, 0, 0, 0);
  h->addWidget(main, 1);
  h->addWidget(side);
  return w;
}

/// Says a spin box's limit, so that it does not stop there silently.
QString limitNote(int max) {
  return ParameterPanel::tr(" At most %1 here; the memory limit usually stops earlier.").arg(max);
}

QString pyBool(bool on) { return on ? QStringLiteral("True") : QStringLiteral("False"); }

}  // namespace

ParameterPanel::ParameterPanel(Document* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_edits(document) {
  // The fields scroll; the error line sits below the scroll area, so showing it shrinks the
  // viewport from the bottom and never moves a field under the pointer.
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* fields = new QWidget;
  m_fields = fields;
  auto* layout = new QVBoxLayout(fields);
  layout->addWidget(buildSizes());
  layout->addWidget(buildModule());
  layout->addWidget(buildForward());
  layout->addWidget(buildData());
  m_view = new ViewControls(document);
  layout->addWidget(m_view);
  layout->addStretch(1);
  auto* scroll = new QScrollArea;
  scroll->setObjectName(QStringLiteral("panelScroll"));
  scroll->setWidget(fields);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setFrameShape(QFrame::NoFrame);
  // Wide enough for the fields plus a vertical scroll bar, so nothing is cut off horizontally.
  scroll->setMinimumWidth(fields->sizeHint().width() + 24);
  outer->addWidget(scroll, 1);
  m_error = new QLabel;
  m_error->setObjectName(QStringLiteral("errorLabel"));
  m_error->setWordWrap(true);
  m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_error->setStyleSheet(
      QStringLiteral("QLabel { color: #b00020; background: #fdecee; border: 1px solid #e8a0a8;"
                     " border-radius: 3px; padding: 4px; margin: 4px; }"));
  m_error->hide();
  outer->addWidget(m_error);

  m_edits.follow(this, [this](const mhaviz::Config& c) { showConfig(c); });
  connect(document, &Document::changed, this, [this, document](Document::Changes what) {
    if (what & Document::Change::error) showError(document->computed().error);
    if (what & Document::Change::result) {
      const ResultPtr result = document->computed().result;
      showPath(TorchPathText::reason(result->path, result->config),
               TorchPathText::warnings(result->path, result->config));
    }
  });
  showError(document->computed().error);
}

ParameterPanel::Controls ParameterPanel::controls() const {
  return {m_tgtLen,   m_srcLen,      m_batch,       m_unbatched,  m_embed,
          m_heads,    m_kdim,        m_kdimSame,    m_vdim,       m_vdimSame,
          m_bias,     m_addBiasKv,   m_addZeroAttn, m_batchFirst, m_dropout,
          m_training, m_needWeights, m_average,     m_causal,     m_gradMode,
          m_dtype,    m_semantics,   m_seed,        m_inputSeed,  m_dropoutSeed};
}

QSpinBox* ParameterPanel::intSpin(const char* name, int min, int max, const QString& tip) {
  auto* spin = new QSpinBox;
  spin->setObjectName(QString::fromLatin1(name));
  spin->setRange(min, max);
  spin->setToolTip(tip);
  spin->setAccelerated(true);
  return spin;
}

QCheckBox* ParameterPanel::check(const char* name, const QString& text, const QString& tip) {
  auto* box = new QCheckBox(text);
  box->setObjectName(QString::fromLatin1(name));
  box->setToolTip(tip);
  return box;
}

void ParameterPanel::connectSpin(QSpinBox* spin, int mergeId, const char* arg,
                                 std::function<void(mhaviz::Config&, int)> set) {
  const QString name = QString::fromLatin1(arg);
  connect(spin, &QSpinBox::valueChanged, this, [this, spin, mergeId, name, set](int value) {
    const QString shown = value == spin->minimum() && !spin->specialValueText().isEmpty()
                              ? QStringLiteral("auto")
                              : QString::number(value);
    m_edits.edit(
        tr("Set %1 to %2").arg(name, shown), [&set, value](mhaviz::Config& c) { set(c, value); },
        mergeId);
  });
}

void ParameterPanel::connectCheck(QCheckBox* box, const char* arg,
                                  std::function<void(mhaviz::Config&, bool)> set) {
  const QString name = QString::fromLatin1(arg);
  connect(box, &QCheckBox::toggled, this, [this, name, set](bool on) {
    m_edits.edit(tr("Set %1 to %2").arg(name, pyBool(on)),
                 [&set, on](mhaviz::Config& c) { set(c, on); });
  });
}

QGroupBox* ParameterPanel::buildSizes() {
  auto* group = new QGroupBox(tr("Sizes"));
  auto* form = new QFormLayout(group);
  m_tgtLen = intSpin("tgt_len", 1, kMaxLen,
                     tr("L (target length) — rows of query: (L, N, E), or (N, L, E) with "
                        "batch_first. Each map has L rows, one per query.") +
                         limitNote(kMaxLen));
  m_srcLen = intSpin("src_len", 1, kMaxLen,
                     tr("S (source length) — rows of key (S, N, kdim) and value (S, N, vdim). "
                        "Each map has S columns, plus bias_k / zero when those are on.") +
                         limitNote(kMaxLen));
  m_batch = intSpin("batch_size", 1, 4096,
                    tr("N (batch size) — batch dimension of query, key and value. Every batch "
                       "element has its own maps; pick the one shown under View."));
  m_unbatched = check("unbatched", tr("unbatched"),
                      tr("Unbatched input — pass 2-D query (L, E), key (S, kdim) and value "
                         "(S, vdim), as PyTorch allows; treated as N = 1 and squeezed back. "
                         "batch_first is ignored then."));
  m_embed = intSpin("embed_dim", 1, kMaxDim,
                    tr("embed_dim — nn.MultiheadAttention(embed_dim): model width E. Must be "
                       "divisible by num_heads; each head gets head_dim = E / H features."));
  m_heads = intSpin("num_heads", 1, 1024,
                    tr("num_heads — nn.MultiheadAttention(num_heads): number of parallel heads "
                       "H. The grid shows one map per head, plus their average."));
  m_kdim = intSpin("kdim", 1, kMaxDim,
                   tr("kdim — nn.MultiheadAttention(kdim=...): feature size of key. With kdim "
                      "and vdim equal to E the projections are packed in in_proj_weight; "
                      "otherwise k_proj_weight is (E, kdim)."));
  m_kdimSame = check("kdim_same", tr("= E"),
                     tr("kdim=None — key has embed_dim features (PyTorch's default)."));
  m_vdim = intSpin("vdim", 1, kMaxDim,
                   tr("vdim — nn.MultiheadAttention(vdim=...): feature size of value. With "
                      "kdim and vdim equal to E the projections are packed in in_proj_weight; "
                      "otherwise v_proj_weight is (E, vdim)."));
  m_vdimSame = check("vdim_same", tr("= E"),
                     tr("vdim=None — value has embed_dim features (PyTorch's default)."));
  form->addRow(tr("L (tgt_len)"), m_tgtLen);
  form->addRow(tr("S (src_len)"), m_srcLen);
  form->addRow(tr("N (batch)"), row(m_batch, m_unbatched));
  form->addRow(tr("E (embed_dim)"), m_embed);
  form->addRow(tr("H (num_heads)"), m_heads);
  form->addRow(tr("kdim"), row(m_kdim, m_kdimSame));
  form->addRow(tr("vdim"), row(m_vdim, m_vdimSame));

  connectSpin(m_tgtLen, kTgtLen, "tgt_len", [](mhaviz::Config& c, int v) { c.tgt_len = v; });
  connectSpin(m_srcLen, kSrcLen, "src_len", [](mhaviz::Config& c, int v) { c.src_len = v; });
  connectSpin(m_batch, kBatchSize, "batch_size",
              [](mhaviz::Config& c, int v) { c.batch_size = v; });
  connectSpin(m_embed, kEmbedDim, "embed_dim", [](mhaviz::Config& c, int v) { c.embed_dim = v; });
  connectSpin(m_heads, kNumHeads, "num_heads", [](mhaviz::Config& c, int v) { c.num_heads = v; });
  connectSpin(m_kdim, kKdim, "kdim", [](mhaviz::Config& c, int v) { c.kdim = v; });
  connectSpin(m_vdim, kVdim, "vdim", [](mhaviz::Config& c, int v) { c.vdim = v; });
  connect(m_unbatched, &QCheckBox::toggled, this, [this](bool on) {
    m_edits.edit(
        on ? tr("Use unbatched input") : tr("Use batched input (N = %1)").arg(m_batch->value()),
        [this, on](mhaviz::Config& c) {
          c.batch_size = on ? std::nullopt : std::optional<std::int64_t>(m_batch->value());
        });
  });
  connect(m_kdimSame, &QCheckBox::toggled, this, [this](bool on) {
    m_edits.edit(on ? tr("Set kdim to None") : tr("Set kdim to %1").arg(m_kdim->value()),
                 [this, on](mhaviz::Config& c) {
                   c.kdim = on ? std::nullopt : std::optional<std::int64_t>(m_kdim->value());
                 });
  });
  connect(m_vdimSame, &QCheckBox::toggled, this, [this](bool on) {
    m_edits.edit(on ? tr("Set vdim to None") : tr("Set vdim to %1").arg(m_vdim->value()),
                 [this, on](mhaviz::Config& c) {
                   c.vdim = on ? std::nullopt : std::optional<std::int64_t>(m_vdim->value());
                 });
  });
  return group;
}

QGroupBox* ParameterPanel::buildModule() {
  auto* group = new QGroupBox(tr("Module"));
  auto* form = new QFormLayout(group);
  m_bias = check("bias", QStringLiteral("bias"),
                 tr("bias — nn.MultiheadAttention(bias=True): adds in_proj_bias and "
                    "out_proj.bias (initialised to zero, as PyTorch does)."));
  m_addBiasKv = check("add_bias_kv", QStringLiteral("add_bias_kv"),
                      tr("add_bias_kv — nn.MultiheadAttention(add_bias_kv=True): appends learned "
                         "bias_k / bias_v rows to key and value at the end, after the "
                         "in-projection (not prepended like a [CLS] token); every query gets one "
                         "extra column \"bias_k\" that is never masked. bias_k is a key only: "
                         "it has no query row, so it never attends, not even to itself. It acts "
                         "as a learned \"null\" key, an attention sink that takes the weight a "
                         "query gives none of the source keys."));
  m_addZeroAttn = check("add_zero_attn", QStringLiteral("add_zero_attn"),
                        tr("add_zero_attn — nn.MultiheadAttention(add_zero_attn=True): appends an "
                           "all-zero key and value after the head split; its score is exactly 0, "
                           "so no query row can be fully masked. Its weight is the \"attention to "
                           "nothing\" of softmax₁ (Miller 2023) and of a sink logit fixed at 0 "
                           "(gpt-oss): the share a query sends nowhere, since the zero value adds "
                           "nothing to the output."));
  m_batchFirst = check("batch_first", QStringLiteral("batch_first"),
                       tr("batch_first — nn.MultiheadAttention(batch_first=True): query, key, "
                          "value and attn_output are (N, L, E) instead of (L, N, E). The maps "
                          "do not change; attn_output_weights are never transposed."));
  m_dropout = new QDoubleSpinBox;
  m_dropout->setObjectName(QStringLiteral("dropout"));
  m_dropout->setRange(0.0, 1.0);
  m_dropout->setDecimals(3);
  m_dropout->setSingleStep(0.05);
  m_dropout->setToolTip(
      tr("dropout — nn.MultiheadAttention(dropout=p): probability of zeroing "
         "an attention weight; kept weights are scaled by 1/(1-p). Applied "
         "only in training mode."));
  m_training = check("training", tr("training"),
                     tr("module.train() / module.eval() — dropout is applied only in training "
                        "mode. The mask comes from the dropout seed (torch's random stream is "
                        "not reproduced)."));
  auto* flags = new QGridLayout;
  flags->addWidget(m_bias, 0, 0);
  flags->addWidget(m_batchFirst, 0, 1);
  flags->addWidget(m_addBiasKv, 1, 0);
  flags->addWidget(m_addZeroAttn, 1, 1);
  form->addRow(flags);
  form->addRow(tr("dropout"), row(m_dropout, m_training));

  connectCheck(m_bias, "bias", [](mhaviz::Config& c, bool on) { c.bias = on; });
  connectCheck(m_addBiasKv, "add_bias_kv", [](mhaviz::Config& c, bool on) { c.add_bias_kv = on; });
  connectCheck(m_addZeroAttn, "add_zero_attn",
               [](mhaviz::Config& c, bool on) { c.add_zero_attn = on; });
  connectCheck(m_batchFirst, "batch_first", [](mhaviz::Config& c, bool on) { c.batch_first = on; });
  connectCheck(m_training, "training", [](mhaviz::Config& c, bool on) { c.training = on; });
  connect(m_dropout, &QDoubleSpinBox::valueChanged, this, [this](double p) {
    m_edits.edit(
        tr("Set dropout to %1").arg(p), [p](mhaviz::Config& c) { c.dropout = p; }, kDropout);
  });
  return group;
}

QGroupBox* ParameterPanel::buildForward() {
  auto* group = new QGroupBox(tr("Forward"));
  auto* form = new QFormLayout(group);
  m_needWeights = check("need_weights", QStringLiteral("need_weights"),
                        tr("need_weights — forward(need_weights=True): return "
                           "attn_output_weights as the second value. The grid shows the weights "
                           "either way."));
  m_average = check("average_attn_weights", QStringLiteral("average_attn_weights"),
                    tr("average_attn_weights — forward(average_attn_weights=True): the returned "
                       "weights are the mean over heads (N, L, S) instead of per head "
                       "(N, H, L, S). The grid's \"average\" map shows that mean."));
  m_causal = check("is_causal", QStringLiteral("is_causal"), CausalHint::isCausalToolTip());
  auto* flags = new QGridLayout;
  flags->addWidget(m_needWeights, 0, 0);
  flags->addWidget(m_causal, 0, 1);
  flags->addWidget(m_average, 1, 0, 1, 2);
  form->addRow(flags);
  form->addRow(new CausalHint(m_document));  // shown while is_causal is set without attn_mask
  // The call's context, beside need_weights: with it PyTorch 2.x picks its path.
  m_gradMode = new QComboBox;
  m_gradMode->setObjectName(QStringLiteral("grad_mode"));
  m_gradMode->addItem(tr("grad enabled"));
  m_gradMode->addItem(QStringLiteral("torch.no_grad()"));
  m_gradMode->addItem(QStringLiteral("torch.inference_mode()"));
  m_gradMode->setToolTip(
      tr("grad mode — the grad mode around the call. With grad disabled, in eval mode "
         "(training off), for batched self-attention with batch_first, PyTorch 2.x takes its "
         "fast path, which gives NaN for a fully masked query even with need_weights off."));
  form->addRow(tr("grad mode"), m_gradMode);
  connect(m_gradMode, &QComboBox::currentIndexChanged, this, [this](int index) {
    const auto mode = index == 2   ? mhaviz::GradMode::inference_mode
                      : index == 1 ? mhaviz::GradMode::no_grad
                                   : mhaviz::GradMode::enabled;
    m_edits.edit(tr("Set grad mode to %1").arg(m_gradMode->itemText(index)),
                 [mode](mhaviz::Config& c) { c.grad_mode = mode; });
  });
  m_path = new QLabel;
  m_path->setObjectName(QStringLiteral("torchPath"));
  m_path->setWordWrap(true);
  m_path->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // Dimmed as the window's other notes are (the theme's placeholder colour, readable in light
  // and dark); a warning's style sheet below overrides it.
  m_path->setForegroundRole(QPalette::PlaceholderText);
  m_path->hide();
  form->addRow(m_path);
  m_semantics = new QComboBox;
  m_semantics->setObjectName(QStringLiteral("semantics"));
  m_semantics->addItem(tr("PyTorch 2.x"));
  m_semantics->addItem(tr("PyTorch 1.13"));
  m_semantics->setToolTip(
      tr("semantics — which PyTorch version's behaviour to follow where versions differ: a "
         "fully masked query with need_weights off (2.x: weights 0 on its SDPA path, NaN on its "
         "fast path; 1.13: NaN), a bool "
         "attn_mask with a float key_padding_mask (1.13: any non-zero padding value masks), "
         "uint8 masks (1.13: used as bool, with a warning), is_causal (absent in 1.13)."));
  form->addRow(tr("semantics"), m_semantics);
  connect(m_semantics, &QComboBox::currentIndexChanged, this, [this](int index) {
    const auto version = index == 1 ? mhaviz::Semantics::v1_13 : mhaviz::Semantics::v2;
    m_edits.edit(tr("Follow %1").arg(m_semantics->itemText(index)),
                 [version](mhaviz::Config& c) { c.semantics = version; });
  });
  connectCheck(m_needWeights, "need_weights",
               [](mhaviz::Config& c, bool on) { c.need_weights = on; });
  connectCheck(m_average, "average_attn_weights",
               [](mhaviz::Config& c, bool on) { c.average_attn_weights = on; });
  connectCheck(m_causal, "is_causal", [](mhaviz::Config& c, bool on) { c.is_causal = on; });
  return group;
}

QGroupBox* ParameterPanel::buildData() {
  auto* group = new QGroupBox(tr("Data type and seeds"));
  auto* form = new QFormLayout(group);
  m_dtype = new QComboBox;
  m_dtype->setObjectName(QStringLiteral("dtype"));
  m_dtype->addItem(QStringLiteral("float32"));
  m_dtype->addItem(QStringLiteral("float64"));
  m_dtype->setToolTip(
      tr("dtype — torch.float32 or torch.float64 for the parameters, the inputs "
         "and every intermediate."));
  m_seed = intSpin("seed", 0, kMaxSeed,
                   tr("Weights seed — draws the parameters with PyTorch's initialisation scheme "
                      "(xavier_uniform in_proj, kaiming_uniform out_proj, xavier_normal "
                      "bias_k/bias_v; the generator is mhaviz's own, not torch's)."));
  m_inputSeed = intSpin("input_seed", -1, kMaxSeed,
                        tr("Input seed — draws the standard-normal query, key and value. "
                           "auto = weights seed + 1."));
  m_inputSeed->setSpecialValueText(tr("auto (seed + 1)"));
  m_dropoutSeed = intSpin("dropout_seed", -1, kMaxSeed,
                          tr("Dropout seed — draws the dropout mask in training mode. "
                             "auto = weights seed + 2."));
  m_dropoutSeed->setSpecialValueText(tr("auto (seed + 2)"));
  form->addRow(tr("dtype"), m_dtype);
  form->addRow(tr("weights seed"), m_seed);
  form->addRow(tr("input seed"), m_inputSeed);
  form->addRow(tr("dropout seed"), m_dropoutSeed);

  connect(m_dtype, &QComboBox::currentIndexChanged, this, [this](int index) {
    const auto type = index == 1 ? mhaviz::DType::float64 : mhaviz::DType::float32;
    m_edits.edit(tr("Set dtype to torch.%1").arg(m_dtype->itemText(index)),
                 [type](mhaviz::Config& c) { c.dtype = type; });
  });
  connectSpin(m_seed, kSeed, "seed",
              [](mhaviz::Config& c, int v) { c.seed = static_cast<std::uint64_t>(v); });
  connectSpin(m_inputSeed, kInputSeed, "input seed", [](mhaviz::Config& c, int v) {
    c.input_seed = v < 0 ? std::nullopt : std::optional<std::uint64_t>(v);
  });
  connectSpin(m_dropoutSeed, kDropoutSeed, "dropout seed", [](mhaviz::Config& c, int v) {
    c.dropout_seed = v < 0 ? std::nullopt : std::optional<std::uint64_t>(v);
  });
  return group;
}

void ParameterPanel::showConfig(const mhaviz::Config& c) {
  const auto clampInt = [](std::int64_t v) {
    return static_cast<int>(std::clamp<std::int64_t>(v, std::numeric_limits<int>::min(),
                                                     std::numeric_limits<int>::max()));
  };
  // Only touch a spin box whose value differs, so that one being typed into keeps its cursor.
  const auto setSpin = [](QSpinBox* spin, int v) {
    if (spin->value() != v) spin->setValue(v);
  };
  setSpin(m_tgtLen, clampInt(c.tgt_len));
  setSpin(m_srcLen, clampInt(c.src_len));
  m_unbatched->setChecked(!c.batch_size.has_value());
  if (c.batch_size) setSpin(m_batch, clampInt(*c.batch_size));
  m_batch->setEnabled(c.batch_size.has_value());
  setSpin(m_embed, clampInt(c.embed_dim));
  setSpin(m_heads, clampInt(c.num_heads));
  m_kdimSame->setChecked(!c.kdim.has_value());
  setSpin(m_kdim, clampInt(c.k_dim()));
  m_kdim->setEnabled(c.kdim.has_value());
  m_vdimSame->setChecked(!c.vdim.has_value());
  setSpin(m_vdim, clampInt(c.v_dim()));
  m_vdim->setEnabled(c.vdim.has_value());
  m_bias->setChecked(c.bias);
  m_addBiasKv->setChecked(c.add_bias_kv);
  m_addZeroAttn->setChecked(c.add_zero_attn);
  m_batchFirst->setChecked(c.batch_first);
  m_batchFirst->setEnabled(c.batch_size.has_value());
  if (m_dropout->value() != c.dropout) m_dropout->setValue(c.dropout);
  m_training->setChecked(c.training);
  m_needWeights->setChecked(c.need_weights);
  m_average->setChecked(c.average_attn_weights);
  m_causal->setChecked(c.is_causal);
  m_gradMode->setCurrentIndex(static_cast<int>(c.grad_mode));
  m_dtype->setCurrentIndex(c.dtype == mhaviz::DType::float64 ? 1 : 0);
  m_semantics->setCurrentIndex(c.semantics == mhaviz::Semantics::v1_13 ? 1 : 0);
  setSpin(m_seed, clampInt(static_cast<std::int64_t>(c.seed)));
  setSpin(m_inputSeed, c.input_seed ? clampInt(static_cast<std::int64_t>(*c.input_seed)) : -1);
  setSpin(m_dropoutSeed,
          c.dropout_seed ? clampInt(static_cast<std::int64_t>(*c.dropout_seed)) : -1);
}

void ParameterPanel::showError(const QString& message) {
  m_error->setText(message);
  m_error->setVisible(!message.isEmpty());
}

void ParameterPanel::showPath(const QString& reason, const QStringList& warnings) {
  QString text = reason;
  for (const QString& w : warnings) text += QStringLiteral("\n\u26a0 ") + w;
  m_path->setText(text);
  m_path->setStyleSheet(warnings.isEmpty()
                            ? QString()
                            : QStringLiteral("QLabel { color: #8a5300; background: #fff4e0; "
                                             "border-radius: 3px; padding: 2px; }"));
  m_path->setVisible(!text.isEmpty());
}

}  // namespace mhaviz::ui
