#pragma once
// The inputs and weights editor: how query/key/value are generated (random normal, one-hot
// tokens, sinusoidal positions + random content; self- or cross-attention), token labels typed
// as text (shown on the heatmap axes), and how the parameters are generated (PyTorch's default
// initialisation, identity projections, times a scale). Seeds are in the parameter panel;
// loading tensors or a state_dict is File > Load tensors. GUI thread only.

#include "editors/spec_editor.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;

namespace mhaviz::ui {

class InputsEditor : public SpecEditor {
  Q_OBJECT

 public:
  explicit InputsEditor(Document* document, QWidget* parent = nullptr);

  /// The inline message about the labels ("" when hidden), for tests.
  [[nodiscard]] QString labelsMessage() const;
  /// The controls a user works (tests reach them here).
  struct Controls {
    QComboBox* kind;
    QCheckBox* selfAttention;
    QLineEdit* queryLabels;
    QLineEdit* keyLabels;
    QComboBox* weightKind;
    QDoubleSpinBox* weightScale;
  };
  [[nodiscard]] Controls controls() const {
    return {m_kind, m_selfAttention, m_queryLabels, m_keyLabels, m_weightKind, m_weightScale};
  }
  /// Splits typed labels: one per position, separated by spaces or commas.
  static std::vector<std::string> parseLabels(const QString& text);

 protected:
  void showConfig(const mhaviz::Config& config) override;

 private:
  void applyLabels();

  QFormLayout* m_form = nullptr;
  QComboBox* m_kind = nullptr;
  QDoubleSpinBox* m_scale = nullptr;
  QDoubleSpinBox* m_contentScale = nullptr;
  QCheckBox* m_selfAttention = nullptr;
  QLineEdit* m_queryLabels = nullptr;
  QLineEdit* m_keyLabels = nullptr;
  QLabel* m_labelsMessage = nullptr;
  QComboBox* m_weightKind = nullptr;
  QDoubleSpinBox* m_weightScale = nullptr;
};

}  // namespace mhaviz::ui
