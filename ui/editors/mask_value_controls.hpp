#pragma once
// The two controls that the attn_mask and key_padding_mask editors share: the dtype combo box
// (bool / float) and the masked value of a float mask (a "-inf" check box beside a spin box for a
// finite value). They report user edits as typed signals; each editor turns them into edits of
// its own spec and decides when their form rows show. GUI thread only.

#include <QComboBox>
#include <QWidget>

#include "mhaviz/core/spec/gen_specs.hpp"

class QCheckBox;
class QDoubleSpinBox;

namespace mhaviz::ui {

/// The mask dtypes: `boolText` (what True means for this mask) and "float (added to scores)".
class MaskDtypeCombo : public QComboBox {
  Q_OBJECT

 public:
  explicit MaskDtypeCombo(const QString& boolText, QWidget* parent = nullptr);

  /// Shows `dtype` (emits no dtypeChosen).
  void setDtype(gen::MaskDType dtype);

 signals:
  /// The user picked `dtype` (QComboBox::activated).
  void dtypeChosen(gen::MaskDType dtype);
};

/// The masked value of a float mask: "-inf", or the finite value in the spin box.
class MaskedValueEdit : public QWidget {
  Q_OBJECT

 public:
  /// `infName`, `valueName`: the object names of the check box and of the spin box.
  MaskedValueEdit(const QString& infName, const QString& valueName, QWidget* parent = nullptr);

  /// Shows `value`: -inf checks "-inf" and disables the spin box, which keeps its finite value
  /// (-10000 if it was 0); a finite value unchecks "-inf" and goes into the spin box.
  void showValue(double value);
  /// The tool tip of the spin box.
  void setValueToolTip(const QString& tip);

 signals:
  /// "-inf" was toggled: `value` is -inf, or the spin box's value when unchecked.
  void infToggled(double value);
  /// The spin box's value changed while "-inf" is unchecked.
  void finiteValueChanged(double value);

 private:
  QCheckBox* m_inf = nullptr;
  QDoubleSpinBox* m_value = nullptr;
};

}  // namespace mhaviz::ui
