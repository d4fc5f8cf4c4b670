#pragma once
// The key_padding_mask editor: kind (none, valid lengths, padded keys), bool or float, and per
// batch element a valid length (slider + spin box) or a checkable list of padded keys. A fully
// padded element is allowed; the editor says that its rows are NaN, or that add_zero_attn /
// add_bias_kv rescue them. GUI thread only.

#include "editors/spec_editor.hpp"

class QComboBox;
class QFormLayout;
class QListWidget;
class QListWidgetItem;
class QSlider;
class QSpinBox;

namespace mhaviz::ui {

class MaskDtypeCombo;
class MaskedValueEdit;

class KeyPaddingEditor : public SpecEditor {
  Q_OBJECT

 public:
  explicit KeyPaddingEditor(Document* document, QWidget* parent = nullptr);

  /// The text of the fully-padded note ("" when hidden), for tests.
  [[nodiscard]] QString note() const;

 protected:
  void showConfig(const mhaviz::Config& config) override;

 private:
  void editSpec(const QString& text, const std::function<void(gen::KeyPaddingSpec&)>& change,
                int mergeId = -1);
  void setLength(int length);
  void onKeyToggled(QListWidgetItem* item);

  QFormLayout* m_form = nullptr;
  QComboBox* m_kind = nullptr;
  MaskDtypeCombo* m_dtype = nullptr;
  MaskedValueEdit* m_maskedValue = nullptr;
  QSpinBox* m_element = nullptr;
  QSlider* m_lengthSlider = nullptr;
  QSpinBox* m_length = nullptr;
  QListWidget* m_keys = nullptr;
  QLabel* m_note = nullptr;
};

}  // namespace mhaviz::ui
