#pragma once
// The model view's controls for what is drawn across the model: the view (layers × heads,
// attention rollout, attention flow, or one generation step's newest position), the step slider
// of a generation capture (keyboard: Alt+G, then the arrows, Page Up/Down, Home, End), and the
// sink rate (Gu et al. 2024) per layer and overall with its threshold ε, whose bad values are
// refused inline beside the field.

#include <QString>
#include <QWidget>

#include "mhaviz/core/model/model.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QSlider;

namespace mhaviz::ui {

enum class ModelMode { grid, rollout, flow, step };

class ModelModeBar : public QWidget {
  Q_OBJECT

 public:
  explicit ModelModeBar(QWidget* parent = nullptr);

  /// The model shown (both null: none). Kept by the caller while it is shown. A generation
  /// capture gets the step slider (at its last step) and opens in the step view, any other
  /// model in the layers × heads grid (a view chosen for the model before is not kept).
  void setModel(const model::Model* model, const model::ComputedModel* computed);
  [[nodiscard]] ModelMode mode() const;
  void setMode(ModelMode mode);
  /// The generation step chosen; -1 for a model without steps.
  [[nodiscard]] int step() const;
  void setStep(int step);
  /// The threshold of the sink rate shown (the last valid one typed).
  [[nodiscard]] double sinkEps() const { return m_eps; }
  /// Types `text` into the threshold field and confirms it, as a user would.
  void enterSinkEps(const QString& text);
  /// The inline message about the threshold; empty when it is valid.
  [[nodiscard]] QString sinkEpsError() const;
  /// The sink rate line as shown.
  [[nodiscard]] QString sinkRateText() const;
  /// The step slider of a generation capture, and the line that says what the step generates.
  [[nodiscard]] QSlider* stepSlider() const { return m_step; }
  [[nodiscard]] const QLabel* stepLine() const { return m_stepText; }

 signals:
  /// The view or the step changed: draw again.
  void viewChanged();

 private:
  void applySinkEps();
  void showSinkRates();
  void showStep();

  const model::Model* m_model = nullptr;
  const model::ComputedModel* m_computed = nullptr;
  double m_eps = kDefaultSinkEps;
  QComboBox* m_mode;
  QWidget* m_stepBox;
  QSlider* m_step;
  QLabel* m_stepText;
  QLineEdit* m_epsEdit;
  QLabel* m_epsError;
  QLabel* m_rates;
};

}  // namespace mhaviz::ui
