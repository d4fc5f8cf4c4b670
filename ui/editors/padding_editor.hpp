#pragma once
// The key_padding_mask editor: kind (none, valid lengths, padded keys), bool or float, and per
// batch element a valid length (slider + spin box) or a checkable list of padded keys. A fully
// padded element is allowed; the editor says that its rows are NaN, or that add_zero_attn /
// add_bias_kv rescue them. The batch element edited is the one the maps show: the box follows
// the view's batch element, and choosing another element here shows it in the maps (the row
// says so, and showingElement announces it). GUI thread only.

#include <cstdint>
#include <vector>

#include "editors/spec_editor.hpp"

class QComboBox;
class QFormLayout;
class QLabel;
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
  /// The batch element whose padding is edited (and which the maps show).
  [[nodiscard]] int element() const;

  /// The controls a user works (tests reach them here).
  struct Controls {
    QComboBox* kind;
    QSpinBox* element;
    QLabel* elementShown;  // "= the batch element the maps show"
    QSpinBox* length;
    QListWidget* keys;
  };
  [[nodiscard]] Controls controls() const {
    return {m_kind, m_element, m_elementShown, m_length, m_keys};
  }

 signals:
  /// The user chose batch element `n` here, so the maps now show it.
  void showingElement(int n);

 protected:
  void showConfig(const mhaviz::Config& config) override;

 private:
  void editSpec(const QString& text, const std::function<void(gen::KeyPaddingSpec&)>& change,
                int mergeId = -1);
  void setLength(int length);
  void onKeyToggled(QListWidgetItem* item);
  void showKeys(int count, const std::vector<std::int64_t>& padded);

  QFormLayout* m_form = nullptr;
  QComboBox* m_kind = nullptr;
  MaskDtypeCombo* m_dtype = nullptr;
  MaskedValueEdit* m_maskedValue = nullptr;
  QSpinBox* m_element = nullptr;
  QLabel* m_elementShown = nullptr;
  QSlider* m_lengthSlider = nullptr;
  QSpinBox* m_length = nullptr;
  QListWidget* m_keys = nullptr;
  std::vector<std::int64_t> m_keysPadded;  // the padded keys m_keys shows checked
  QLabel* m_note = nullptr;
};

}  // namespace mhaviz::ui
