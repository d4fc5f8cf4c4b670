#pragma once
// The left panel: one control per nn.MultiheadAttention argument (sizes, module flags, forward
// flags, dtype, seeds) and the view controls, scrolling, with an inline error line below them
// (it never moves a field). Every edit becomes one undoable Document::changeConfig and the
// controls follow the document's Change::config (so undo/redo moves them too), through ConfigEdits
// as the mask / input / weight editors do; the error line follows the document's (what its
// computation reported). GUI thread only.

#include <QWidget>
#include <functional>

#include "document/config_edits.hpp"
#include "mhaviz/core/spec/config.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QGroupBox;

namespace mhaviz::ui {

class Document;
class ViewControls;

class ParameterPanel : public QWidget {
  Q_OBJECT

 public:
  ParameterPanel(Document* document, QWidget* parent = nullptr);

  [[nodiscard]] ViewControls* viewControls() const { return m_view; }
  /// The widget that holds the fields (they scroll; the error line below them does not).
  [[nodiscard]] QWidget* fieldArea() const { return m_fields; }
  /// The fields, one per argument of nn.MultiheadAttention and its call, and the seeds (tests
  /// reach them here; their object names are the argument names).
  struct Controls {
    QSpinBox* tgtLen;
    QSpinBox* srcLen;
    QSpinBox* batchSize;
    QCheckBox* unbatched;
    QSpinBox* embedDim;
    QSpinBox* numHeads;
    QSpinBox* kdim;
    QCheckBox* kdimSame;
    QSpinBox* vdim;
    QCheckBox* vdimSame;
    QCheckBox* bias;
    QCheckBox* addBiasKv;
    QCheckBox* addZeroAttn;
    QCheckBox* batchFirst;
    QDoubleSpinBox* dropout;
    QCheckBox* training;
    QCheckBox* needWeights;
    QCheckBox* averageAttnWeights;
    QCheckBox* isCausal;
    QComboBox* gradMode;
    QComboBox* dtype;
    QComboBox* semantics;
    QSpinBox* seed;
    QSpinBox* inputSeed;
    QSpinBox* dropoutSeed;
  };
  [[nodiscard]] Controls controls() const;
  /// The inline error line under the fields (hidden while the settings are valid).
  [[nodiscard]] QLabel* errorLine() const { return m_error; }
  /// Which of PyTorch 2.x's paths the settings take, why, and its warnings.
  [[nodiscard]] QLabel* pathLine() const { return m_path; }

 private:
  QGroupBox* buildSizes();
  QGroupBox* buildModule();
  QGroupBox* buildForward();
  QGroupBox* buildData();
  QSpinBox* intSpin(const char* name, int min, int max, const QString& tip);
  QCheckBox* check(const char* name, const QString& text, const QString& tip);
  void connectSpin(QSpinBox* spin, int mergeId, const char* arg,
                   std::function<void(mhaviz::Config&, int)> set);
  void connectCheck(QCheckBox* box, const char* arg,
                    std::function<void(mhaviz::Config&, bool)> set);
  void showConfig(const mhaviz::Config& config);
  void showError(const QString& message);
  /// The path PyTorch 2.x takes for the shown result and why, with its warnings (inline,
  /// below need_weights; docs/semantics.md "The three paths of PyTorch 2.x").
  void showPath(const QString& reason, const QStringList& warnings);

  Document* m_document;
  ConfigEdits m_edits;  // every edit of the config goes through m_edits.edit

  QLabel* m_error = nullptr;
  QWidget* m_fields = nullptr;
  QSpinBox* m_tgtLen = nullptr;
  QSpinBox* m_srcLen = nullptr;
  QSpinBox* m_batch = nullptr;
  QCheckBox* m_unbatched = nullptr;
  QSpinBox* m_embed = nullptr;
  QSpinBox* m_heads = nullptr;
  QSpinBox* m_kdim = nullptr;
  QCheckBox* m_kdimSame = nullptr;
  QSpinBox* m_vdim = nullptr;
  QCheckBox* m_vdimSame = nullptr;
  QCheckBox* m_bias = nullptr;
  QCheckBox* m_addBiasKv = nullptr;
  QCheckBox* m_addZeroAttn = nullptr;
  QCheckBox* m_batchFirst = nullptr;
  QDoubleSpinBox* m_dropout = nullptr;
  QCheckBox* m_training = nullptr;
  QCheckBox* m_needWeights = nullptr;
  QCheckBox* m_average = nullptr;
  QCheckBox* m_causal = nullptr;
  QComboBox* m_gradMode = nullptr;  // config key "grad_mode": the call's grad mode
  QLabel* m_path = nullptr;         // which of PyTorch 2.x's paths, why, and its warnings
  QComboBox* m_dtype = nullptr;
  QComboBox* m_semantics = nullptr;  // config key "semantics": PyTorch 2.x or 1.13
  QSpinBox* m_seed = nullptr;
  QSpinBox* m_inputSeed = nullptr;
  QSpinBox* m_dropoutSeed = nullptr;
  ViewControls* m_view = nullptr;
};

}  // namespace mhaviz::ui
