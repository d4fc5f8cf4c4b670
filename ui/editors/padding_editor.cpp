#include "editors/padding_editor.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

#include "document/document.hpp"
#include "editors/mask_value_controls.hpp"

namespace mhaviz::ui {

namespace {

using gen::PaddingKind;
enum Merge { kLength = 7201, kMaskedValue };

/// Every batch element gets an entry: lengths default to S (nothing padded), key lists to none.
void sizeEntries(gen::KeyPaddingSpec& s, const mhaviz::Config& c) {
  const auto n = static_cast<std::size_t>(c.batch());
  if (s.kind == PaddingKind::lengths && s.valid_lengths.size() != n) {
    s.valid_lengths.resize(n, c.src_len);
  }
  if (s.kind == PaddingKind::keys && s.padded_keys.size() != n) s.padded_keys.resize(n);
}

/// Batch elements whose every key is padded.
QList<int> fullyPadded(const mhaviz::Config& c) {
  QList<int> out;
  const gen::KeyPaddingSpec& s = c.key_padding_spec;
  for (std::int64_t n = 0; n < c.batch(); ++n) {
    const auto k = static_cast<std::size_t>(n);
    if (s.kind == PaddingKind::lengths && k < s.valid_lengths.size() && s.valid_lengths[k] == 0) {
      out << static_cast<int>(n);
    }
    if (s.kind == PaddingKind::keys && k < s.padded_keys.size()) {
      std::vector<std::int64_t> keys = s.padded_keys[k];
      std::sort(keys.begin(), keys.end());
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
      if (static_cast<std::int64_t>(keys.size()) >= c.src_len) out << static_cast<int>(n);
    }
  }
  return out;
}

/// One form row holding `a` and `b` side by side with the given stretch factors.
QWidget* sideBySide(QWidget* a, int stretchA, QWidget* b, int stretchB) {
  auto* row = new QWidget;
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(a, stretchA);
  layout->addWidget(b, stretchB);
  return row;
}

}  // namespace

KeyPaddingEditor::KeyPaddingEditor(Document* document, QWidget* parent)
    : SpecEditor(tr("key_padding_mask"), document, parent) {
  setObjectName(QStringLiteral("keyPaddingEditor"));
  auto* layout = new QVBoxLayout(this);
  m_note = noteLabel("paddingNote", false);
  m_form = new QFormLayout;
  layout->addLayout(m_form);
  layout->addWidget(m_note);

  m_kind = new QComboBox;
  m_kind->setObjectName(QStringLiteral("paddingKind"));
  m_kind->addItem(tr("none"), static_cast<int>(PaddingKind::none));
  m_kind->addItem(tr("valid length per element"), static_cast<int>(PaddingKind::lengths));
  m_kind->addItem(tr("padded keys per element"), static_cast<int>(PaddingKind::keys));
  m_kind->setToolTip(
      tr("key_padding_mask — forward(key_padding_mask=...): (N, S), True = this "
         "key of batch element n is padding and no query attends to it."));
  m_dtype = new MaskDtypeCombo(tr("bool (True = padded)"));
  m_dtype->setObjectName(QStringLiteral("paddingDtype"));
  m_maskedValue =
      new MaskedValueEdit(QStringLiteral("paddingMaskedInf"), QStringLiteral("paddingMaskedValue"));
  m_element = new QSpinBox;
  m_element->setObjectName(QStringLiteral("paddingElement"));
  m_element->setToolTip(
      tr("Batch element n whose padding is edited. It is the batch element the maps show: "
         "choosing one here shows it, and choosing one in the View group moves this box."));
  m_elementShown = new QLabel(tr("= the batch element the maps show"));
  m_elementShown->setObjectName(QStringLiteral("paddingElementShown"));
  m_elementShown->setWordWrap(true);
  QWidget* element = sideBySide(m_element, 0, m_elementShown, 1);
  m_lengthSlider = new QSlider(Qt::Horizontal);
  m_lengthSlider->setObjectName(QStringLiteral("paddingLengthSlider"));
  m_length = new QSpinBox;
  m_length->setObjectName(QStringLiteral("paddingLength"));
  m_length->setToolTip(
      tr("Valid keys of element n: keys j >= length are padded. 0 pads every "
         "key."));
  QWidget* length = sideBySide(m_lengthSlider, 1, m_length, 0);
  m_keys = new QListWidget;
  m_keys->setObjectName(QStringLiteral("paddedKeys"));
  m_keys->setToolTip(tr("Checked keys of element n are padded."));
  m_keys->setMaximumHeight(140);

  m_form->addRow(tr("kind"), m_kind);
  m_form->addRow(tr("dtype"), m_dtype);
  m_form->addRow(tr("padded value"), m_maskedValue);
  m_form->addRow(tr("batch element"), element);
  m_form->addRow(tr("valid length"), length);
  m_form->addRow(tr("padded keys"), m_keys);

  connect(m_kind, &QComboBox::activated, this, [this](int index) {
    const auto kind = static_cast<PaddingKind>(m_kind->itemData(index).toInt());
    const mhaviz::Config c = m_document->config();
    editSpec(
        tr("Set key_padding_mask kind to %1").arg(QString::fromUtf8(gen::to_string(kind).data())),
        [kind, &c](gen::KeyPaddingSpec& s) {
          s.kind = kind;
          sizeEntries(s, c);
        });
  });
  connect(m_dtype, &MaskDtypeCombo::dtypeChosen, this, [this](gen::MaskDType dtype) {
    editSpec(tr("Set key_padding_mask dtype"),
             [dtype](gen::KeyPaddingSpec& s) { s.dtype = dtype; });
  });
  connect(m_maskedValue, &MaskedValueEdit::infToggled, this, [this](double v) {
    editSpec(tr("Set key_padding_mask masked_value"),
             [v](gen::KeyPaddingSpec& s) { s.masked_value = v; });
  });
  connect(m_maskedValue, &MaskedValueEdit::finiteValueChanged, this, [this](double v) {
    editSpec(
        tr("Set key_padding_mask masked_value"),
        [v](gen::KeyPaddingSpec& s) { s.masked_value = v; }, kMaskedValue);
  });
  connect(m_element, &QSpinBox::valueChanged, this, [this](int n) {
    if (m_edits.showing()) return;  // clamped to a smaller batch: the computation fits the view
    m_edits.show();
    // The maps show the batch element whose padding is being edited.
    ViewOptions view = m_document->view();
    if (view.batch == n) return;
    view.batch = n;
    m_document->setView(view);
    emit showingElement(n);
  });
  // ... and the other way round: another batch element chosen for the maps is edited here.
  connect(m_document, &Document::changed, this, [this](Document::Changes what) {
    const int batch = m_document->view().batch;
    if (!(what & Document::Change::view) || batch == m_element->value() ||
        batch > m_element->maximum()) {
      return;
    }
    const QSignalBlocker quiet(m_element);
    m_element->setValue(batch);
    m_edits.show();
  });
  connect(m_lengthSlider, &QSlider::valueChanged, this, &KeyPaddingEditor::setLength);
  connect(m_length, &QSpinBox::valueChanged, this, &KeyPaddingEditor::setLength);
  connect(m_keys, &QListWidget::itemChanged, this, &KeyPaddingEditor::onKeyToggled);
  follow();
}

QString KeyPaddingEditor::note() const { return m_note->isHidden() ? QString() : m_note->text(); }

int KeyPaddingEditor::element() const { return m_element->value(); }

void KeyPaddingEditor::editSpec(const QString& text,
                                const std::function<void(gen::KeyPaddingSpec&)>& change,
                                int mergeId) {
  m_edits.edit(
      text, [&change](mhaviz::Config& c) { change(c.key_padding_spec); }, mergeId);
}

void KeyPaddingEditor::setLength(int length) {
  const int n = m_element->value();
  const mhaviz::Config c = m_document->config();
  editSpec(
      tr("Set valid length of element %1 to %2").arg(n).arg(length),
      [&](gen::KeyPaddingSpec& s) {
        sizeEntries(s, c);
        if (static_cast<std::size_t>(n) < s.valid_lengths.size()) {
          s.valid_lengths[static_cast<std::size_t>(n)] = length;
        }
      },
      kLength + n * 16);
}

void KeyPaddingEditor::onKeyToggled(QListWidgetItem* item) {
  const int n = m_element->value();
  const auto j = static_cast<std::int64_t>(m_keys->row(item));
  const bool padded = item->checkState() == Qt::Checked;
  const mhaviz::Config c = m_document->config();
  editSpec(tr("%1 key %2 of element %3").arg(padded ? tr("Pad") : tr("Unpad")).arg(j).arg(n),
           [&](gen::KeyPaddingSpec& s) {
             sizeEntries(s, c);
             if (static_cast<std::size_t>(n) >= s.padded_keys.size()) return;
             auto& keys = s.padded_keys[static_cast<std::size_t>(n)];
             std::erase(keys, j);
             if (padded) {
               keys.push_back(j);
               std::sort(keys.begin(), keys.end());
             }
           });
}

// The list of keys is filled only while it is shown (padded keys), and refilled only when what
// it shows changes: refilling up to 4096 items at every change of a long context took the GUI
// thread milliseconds (8 ms for 2048 items, measured on a loaded machine).
void KeyPaddingEditor::showKeys(int count, const std::vector<std::int64_t>& padded) {
  if (count == m_keys->count() && (count == 0 || padded == m_keysPadded)) return;
  m_keys->clear();
  m_keysPadded = padded;
  for (int j = 0; j < count; ++j) {
    auto* item = new QListWidgetItem(tr("key %1").arg(j), m_keys);
    item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
    const bool on = std::find(padded.begin(), padded.end(), j) != padded.end();
    item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
  }
}

void KeyPaddingEditor::showConfig(const mhaviz::Config& c) {
  const gen::KeyPaddingSpec& s = c.key_padding_spec;
  const int S = static_cast<int>(c.src_len);
  m_kind->setCurrentIndex(m_kind->findData(static_cast<int>(s.kind)));
  m_dtype->setDtype(s.dtype);
  m_maskedValue->showValue(s.masked_value);
  m_element->setRange(0, static_cast<int>(c.batch() - 1));
  const auto n = static_cast<std::size_t>(m_element->value());
  m_lengthSlider->setRange(0, S);
  m_length->setRange(0, S);
  const int length = n < s.valid_lengths.size() ? static_cast<int>(s.valid_lengths[n]) : S;
  m_lengthSlider->setValue(length);
  m_length->setValue(length);
  const std::vector<std::int64_t> none;
  showKeys(s.kind == PaddingKind::keys ? std::min(S, 4096) : 0,
           n < s.padded_keys.size() ? s.padded_keys[n] : none);
  const bool active = s.kind != PaddingKind::none;
  m_form->setRowVisible(m_dtype, active);
  m_form->setRowVisible(m_maskedValue, active && s.dtype == gen::MaskDType::floating);
  m_form->setRowVisible(m_element->parentWidget(), active && c.batch() > 1);
  m_form->setRowVisible(m_length->parentWidget(), s.kind == PaddingKind::lengths);
  m_form->setRowVisible(m_keys, s.kind == PaddingKind::keys);

  const QList<int> full = fullyPadded(c);
  if (full.isEmpty()) {
    m_note->hide();
    return;
  }
  QStringList names;
  for (int e : full) names << QString::number(e);
  const QString who =
      full.size() == 1
          ? tr("Batch element %1 is fully padded").arg(names[0])
          : tr("Batch elements %1 are fully padded").arg(names.join(QStringLiteral(", ")));
  if (c.add_zero_attn && c.add_bias_kv) {
    m_note->setText(tr("%1, but add_bias_kv and add_zero_attn append two keys that cannot be "
                       "padded, so its rows stay finite: every query attends only to bias_k "
                       "and the zero key.")
                        .arg(who));
  } else if (c.add_zero_attn || c.add_bias_kv) {
    m_note->setText(tr("%1, but %2 appends a key that cannot be padded, so its rows stay "
                       "finite: every query attends only to that extra key.")
                        .arg(who, c.add_zero_attn ? QStringLiteral("add_zero_attn")
                                                  : QStringLiteral("add_bias_kv")));
  } else {
    m_note->setText(tr("%1: every key is hidden, so each query row's scores are all -inf and "
                       "softmax divides 0 by 0 — its attention weights and output are NaN "
                       "(PyTorch does the same). add_zero_attn or add_bias_kv would add a key "
                       "that cannot be padded.")
                        .arg(who));
  }
  m_note->show();
}

}  // namespace mhaviz::ui
