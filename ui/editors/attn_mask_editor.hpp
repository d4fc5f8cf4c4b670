#pragma once
// The attn_mask editor: kind, dtype, shape, masked value, the parameters of each kind, and a
// grid that previews the generated mask (mhaviz::gen::make_attn_mask, one (n, h) block at a
// time for 3-D masks) and edits the cells of a custom mask by click / drag, with Clear, Invert,
// Fill row and Fill column. A click on the grid of any other kind, or choosing "custom", starts
// a custom mask from the pattern shown (cells::fromPattern) as one undoable step, and a note
// says so (or why not: a pattern with too many cells to list). Size changes are fitted by the
// document (gen::fit_to_sizes); its notes are shown inline. GUI thread only. The code:
// attn_mask_editor.cpp (construction, preview, showConfig), attn_mask_controls.cpp (the controls
// and their edits), attn_mask_cells.cpp (the custom-cell tools and the block selector).

#include <cstddef>
#include <cstdint>
#include <optional>

#include "editors/custom_cells.hpp"
#include "editors/spec_editor.hpp"
#include "mhaviz/core/spec/gen_specs.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace mhaviz::ui {

class BlockSparsityView;
class MaskDtypeCombo;
class MaskGridView;
class MaskedValueEdit;

class AttnMaskEditor : public SpecEditor {
  Q_OBJECT

 public:
  /// The block-sparsity grid shows the results of `document`.
  AttnMaskEditor(Document* document, QWidget* parent = nullptr);

  [[nodiscard]] MaskGridView* grid() const { return m_grid; }
  /// The block-sparsity summary and block grid of the last result, below the mask grid.
  [[nodiscard]] BlockSparsityView* blockSparsity() const { return m_blocks; }
  /// The block b = n*H + h the grid shows and edits (-1: the 2-D mask or every block).
  [[nodiscard]] std::int64_t selectedBlock() const;
  /// Selects block `b` in the block selector (if listed).
  void selectBlock(std::int64_t b);

  /// The controls a user works and the notes they read (tests reach them here).
  struct Controls {
    QComboBox* kind;
    MaskDtypeCombo* dtype;
    QSpinBox* width;
    QSpinBox* prefixLength;
    QLineEdit* documents;
    QSpinBox* dilation;
    QSpinBox* sinkTokens;
    QDoubleSpinBox* cellValue;
    QCheckBox* cellMasked;
    QSpinBox* row;
    QSpinBox* column;
    QPushButton* clear;
    QPushButton* invert;
    QPushButton* fillRow;
    QPushButton* fillColumn;
    QLabel* note;        // why a bias kind is float and 3-D, or what is wrong with a typed field
    QLabel* resizeNote;  // what a size change did to the mask
    QLabel* customNote;  // a pattern became custom, or why it cannot
  };
  [[nodiscard]] Controls controls() const;

 protected:
  void showConfig(const mhaviz::Config& config) override;

 private:
  /// The rows of the form above the custom-cell tools, one group after another.
  void buildControls(QFormLayout* form);
  void buildKindControls(QFormLayout* form);
  void buildWindowControls(QFormLayout* form);
  void buildBlockAndRandomControls(QFormLayout* form);
  void buildGraphControls(QFormLayout* form);
  void buildCustomTools(QFormLayout* form);
  void editSpec(const QString& text, const std::function<void(gen::AttnMaskSpec&)>& change,
                int mergeId = -1);
  void fillBlocks(const mhaviz::Config& config);
  void updatePreview(const mhaviz::Config& config);
  void onStroke(const QVector<QPoint>& cells);
  /// Kind "custom" chosen: the custom mask starts from the pattern shown.
  void switchToCustom();
  /// The pattern shown as a custom mask (cells::fromPattern), or nullopt; `needed` gets the
  /// number of cells it takes (0 when the mask cannot be made: `error` says why).
  std::optional<gen::AttnMaskSpec> shownAsCustom(const mhaviz::Config& config, std::size_t* needed,
                                                 QString* error) const;
  /// Shows `text` in the custom-mask note until the spec differs from `spec`.
  void announce(const QString& text, const gen::AttnMaskSpec& spec);
  /// The kind as the kind box names it ("causal", "sliding window", ...).
  [[nodiscard]] QString shownKindName(gen::MaskKind kind) const;
  [[nodiscard]] cells::State brush() const;

  QFormLayout* m_form = nullptr;
  QComboBox* m_kind = nullptr;
  MaskDtypeCombo* m_dtype = nullptr;
  QComboBox* m_shape = nullptr;
  MaskedValueEdit* m_maskedValue = nullptr;
  QSpinBox* m_width = nullptr;
  QSpinBox* m_prefixLength = nullptr;
  QLineEdit* m_documents = nullptr;
  QSpinBox* m_dilation = nullptr;
  QSpinBox* m_sinkTokens = nullptr;
  QLineEdit* m_segments = nullptr;
  QDoubleSpinBox* m_probability = nullptr;
  QSpinBox* m_seed = nullptr;
  QCheckBox* m_causal = nullptr;
  QLineEdit* m_edges = nullptr;
  QDoubleSpinBox* m_edgeProbability = nullptr;
  QComboBox* m_graphBias = nullptr;
  QSpinBox* m_maxDistance = nullptr;
  QDoubleSpinBox* m_tableScale = nullptr;
  QComboBox* m_block = nullptr;
  QWidget* m_customTools = nullptr;
  QDoubleSpinBox* m_cellValue = nullptr;
  QCheckBox* m_cellMasked = nullptr;
  QSpinBox* m_row = nullptr;
  QSpinBox* m_column = nullptr;
  QPushButton* m_clear = nullptr;
  QPushButton* m_invert = nullptr;
  QPushButton* m_fillRow = nullptr;
  QPushButton* m_fillColumn = nullptr;
  QLabel* m_note = nullptr;
  QLabel* m_resizeNote = nullptr;
  QLabel* m_customNote = nullptr;      // a pattern became custom, or why it cannot
  gen::AttnMaskSpec m_customNoteSpec;  // the spec m_customNote speaks of
  MaskGridView* m_grid = nullptr;
  BlockSparsityView* m_blocks = nullptr;
  gen::AttnMaskSpec m_shownSpec;
};

}  // namespace mhaviz::ui
