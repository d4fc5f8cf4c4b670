#include "editors/inputs_editor.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QVBoxLayout>

#include "document/document.hpp"

namespace mhaviz::ui {

namespace {

using gen::InputKind;
using gen::WeightKind;
enum Merge { kScale = 7301, kContentScale, kWeightScale };

QString joinLabels(const std::vector<std::string>& labels) {
  QStringList parts;
  for (const std::string& l : labels) parts << QString::fromStdString(l);
  return parts.join(QStringLiteral(" "));
}

QDoubleSpinBox* scaleSpin(const char* name, const QString& tip) {
  auto* spin = new QDoubleSpinBox;
  spin->setObjectName(QString::fromLatin1(name));
  spin->setRange(0.0, 1e6);
  spin->setDecimals(3);
  spin->setSingleStep(0.1);
  spin->setToolTip(tip);
  return spin;
}

}  // namespace

InputsEditor::InputsEditor(Document* document, QWidget* parent)
    : SpecEditor(tr("Inputs and weights"), document, parent) {
  setObjectName(QStringLiteral("inputsEditor"));
  auto* layout = new QVBoxLayout(this);
  m_form = new QFormLayout;
  layout->addLayout(m_form);
  m_labelsMessage = noteLabel("labelsMessage", true);
  layout->addWidget(m_labelsMessage);

  m_kind = new QComboBox;
  m_kind->setObjectName(QStringLiteral("inputKind"));
  m_kind->addItem(tr("random normal"), static_cast<int>(InputKind::random));
  m_kind->addItem(tr("one-hot / identity tokens"), static_cast<int>(InputKind::one_hot));
  m_kind->addItem(tr("sinusoidal positions"), static_cast<int>(InputKind::sinusoidal));
  m_kind->setToolTip(
      tr("How query, key and value are generated: standard normal from the "
         "input seed; position p as the one-hot vector e_(p mod width); or "
         "Vaswani's sinusoidal position encoding plus random content."));
  m_scale = scaleSpin("inputScale", tr("Every generated input is multiplied by this."));
  m_contentScale = scaleSpin("inputContentScale",
                             tr("Sinusoidal: standard deviation of the random content added to "
                                "the positions (0 = positions only)."));
  m_selfAttention = new QCheckBox(tr("self-attention (key = value = query)"));
  m_selfAttention->setObjectName(QStringLiteral("selfAttention"));
  m_selfAttention->setToolTip(
      tr("Self-attention passes the same tensor as query, key and value "
         "(needs S = L and kdim = vdim = E); off: cross-attention with "
         "separate key and value."));
  m_queryLabels = new QLineEdit;
  m_queryLabels->setObjectName(QStringLiteral("queryLabels"));
  m_queryLabels->setPlaceholderText(tr("one label per query, e.g. The cat sat"));
  m_queryLabels->setToolTip(
      tr("Token labels of the L query positions, separated by spaces or "
         "commas; shown on the heatmap rows. Empty: position numbers."));
  m_keyLabels = new QLineEdit;
  m_keyLabels->setObjectName(QStringLiteral("keyLabels"));
  m_keyLabels->setPlaceholderText(tr("one label per key"));
  m_keyLabels->setToolTip(
      tr("Token labels of the S key positions; shown on the heatmap "
         "columns."));
  m_weightKind = new QComboBox;
  m_weightKind->setObjectName(QStringLiteral("weightKind"));
  m_weightKind->addItem(tr("PyTorch default init"), static_cast<int>(WeightKind::default_init));
  m_weightKind->addItem(tr("identity projections"), static_cast<int>(WeightKind::identity));
  m_weightKind->setToolTip(
      tr("PyTorch's _reset_parameters from the weights seed, or identity "
         "projections with zero biases (scores are then the raw "
         "similarity of the inputs). Load a state_dict with File > Load "
         "tensors."));
  m_weightScale = scaleSpin("weightScale", tr("Every generated parameter is multiplied by this."));

  m_form->addRow(tr("inputs"), m_kind);
  m_form->addRow(tr("scale"), m_scale);
  m_form->addRow(tr("content scale"), m_contentScale);
  m_form->addRow(QString(), m_selfAttention);
  m_form->addRow(tr("query labels"), m_queryLabels);
  m_form->addRow(tr("key labels"), m_keyLabels);
  m_form->addRow(tr("weights"), m_weightKind);
  m_form->addRow(tr("weight scale"), m_weightScale);

  connect(m_kind, &QComboBox::activated, this, [this](int index) {
    const auto kind = static_cast<InputKind>(m_kind->itemData(index).toInt());
    m_edits.edit(tr("Set inputs kind to %1").arg(QString::fromUtf8(gen::to_string(kind).data())),
                 [kind](mhaviz::Config& c) { c.input_spec.kind = kind; });
  });
  connect(m_scale, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    m_edits.edit(
        tr("Set inputs scale"), [v](mhaviz::Config& c) { c.input_spec.scale = v; }, kScale);
  });
  connect(m_contentScale, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    m_edits.edit(
        tr("Set inputs content scale"), [v](mhaviz::Config& c) { c.input_spec.content_scale = v; },
        kContentScale);
  });
  connect(m_selfAttention, &QCheckBox::toggled, this, [this](bool on) {
    m_edits.edit(on ? tr("Use self-attention") : tr("Use cross-attention"),
                 [on](mhaviz::Config& c) { c.input_spec.self_attention = on; });
  });
  connect(m_queryLabels, &QLineEdit::editingFinished, this, &InputsEditor::applyLabels);
  connect(m_keyLabels, &QLineEdit::editingFinished, this, &InputsEditor::applyLabels);
  connect(m_weightKind, &QComboBox::activated, this, [this](int index) {
    const auto kind = static_cast<WeightKind>(m_weightKind->itemData(index).toInt());
    m_edits.edit(tr("Set weights kind to %1").arg(QString::fromUtf8(gen::to_string(kind).data())),
                 [kind](mhaviz::Config& c) { c.weight_spec.kind = kind; });
  });
  connect(m_weightScale, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    m_edits.edit(
        tr("Set weights scale"), [v](mhaviz::Config& c) { c.weight_spec.scale = v; }, kWeightScale);
  });
  follow();
}

QString InputsEditor::labelsMessage() const {
  return m_labelsMessage->isHidden() ? QString() : m_labelsMessage->text();
}

std::vector<std::string> InputsEditor::parseLabels(const QString& text) {
  static const QRegularExpression sep(QStringLiteral("[,\\s]+"));
  std::vector<std::string> out;
  for (const QString& part : text.split(sep, Qt::SkipEmptyParts)) out.push_back(part.toStdString());
  return out;
}

void InputsEditor::applyLabels() {
  if (m_edits.showing()) return;
  const mhaviz::Config& c = m_document->config();
  const std::vector<std::string> queries = parseLabels(m_queryLabels->text());
  const std::vector<std::string> keys = parseLabels(m_keyLabels->text());
  QStringList problems;
  const auto check = [&problems](const std::vector<std::string>& labels, std::int64_t want,
                                 const QString& what, const QString& size) {
    const auto have = static_cast<std::int64_t>(labels.size());
    if (have != 0 && have != want) {
      problems << tr("%1 %2 labels for %3 = %4: type exactly one label per position (spaces or "
                     "commas between them), or none for position numbers.")
                      .arg(have)
                      .arg(what, size)
                      .arg(want);
    }
  };
  check(queries, c.tgt_len, tr("query"), QStringLiteral("L"));
  check(keys, c.src_len, tr("key"), QStringLiteral("S"));
  if (!problems.isEmpty()) {
    m_labelsMessage->setText(problems.join(u'\n'));
    m_labelsMessage->show();
    return;
  }
  m_labelsMessage->hide();
  m_edits.edit(tr("Set token labels"), [&](mhaviz::Config& next) {
    next.query_labels = queries;
    next.key_labels = keys;
  });
}

void InputsEditor::showConfig(const mhaviz::Config& c) {
  m_kind->setCurrentIndex(m_kind->findData(static_cast<int>(c.input_spec.kind)));
  m_scale->setValue(c.input_spec.scale);
  m_contentScale->setValue(c.input_spec.content_scale);
  m_selfAttention->setChecked(c.input_spec.self_attention);
  m_form->setRowVisible(m_contentScale, c.input_spec.kind == InputKind::sinusoidal);
  m_queryLabels->setText(joinLabels(c.query_labels));
  m_keyLabels->setText(joinLabels(c.key_labels));
  m_weightKind->setCurrentIndex(m_weightKind->findData(static_cast<int>(c.weight_spec.kind)));
  m_weightScale->setValue(c.weight_spec.scale);
  // The labels follow size changes (fit_to_sizes), so an earlier count message is stale.
  m_labelsMessage->hide();
}

}  // namespace mhaviz::ui
