#include "editors/mask_value_controls.hpp"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <cmath>
#include <limits>

namespace mhaviz::ui {

MaskDtypeCombo::MaskDtypeCombo(const QString& boolText, QWidget* parent) : QComboBox(parent) {
  addItem(boolText, static_cast<int>(gen::MaskDType::boolean));
  addItem(tr("float (added to scores)"), static_cast<int>(gen::MaskDType::floating));
  connect(this, &QComboBox::activated, this, [this](int index) {
    emit dtypeChosen(static_cast<gen::MaskDType>(itemData(index).toInt()));
  });
}

void MaskDtypeCombo::setDtype(gen::MaskDType dtype) {
  setCurrentIndex(findData(static_cast<int>(dtype)));
}

MaskedValueEdit::MaskedValueEdit(const QString& infName, const QString& valueName, QWidget* parent)
    : QWidget(parent) {
  m_inf = new QCheckBox(QStringLiteral("-inf"));
  m_inf->setObjectName(infName);
  m_value = new QDoubleSpinBox;
  m_value->setObjectName(valueName);
  m_value->setRange(-1e9, 1e9);
  m_value->setDecimals(1);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_inf);
  layout->addWidget(m_value, 1);

  connect(m_inf, &QCheckBox::toggled, this, [this](bool inf) {
    emit infToggled(inf ? -std::numeric_limits<double>::infinity() : m_value->value());
  });
  connect(m_value, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    if (m_inf->isChecked()) return;
    emit finiteValueChanged(v);
  });
}

void MaskedValueEdit::showValue(double value) {
  m_inf->setChecked(std::isinf(value));
  m_value->setEnabled(!std::isinf(value));
  if (!std::isinf(value))
    m_value->setValue(value);
  else if (m_value->value() == 0.0)
    m_value->setValue(-10000.0);
}

void MaskedValueEdit::setValueToolTip(const QString& tip) { m_value->setToolTip(tip); }

}  // namespace mhaviz::ui
