#pragma once
// Comparing two model files in the window (Compare > Compare the model with a file…): the model
// open in the model view is B; a second file of the same layers, heads and lengths is A — a
// weights-only model file (version 4), a captured model, or plain attention weights in an .npz /
// .safetensors file, read with B's tokens. The Compare dock then shows A | B | B − A for the
// layer and head selected (the document's selection, which the model view outlines), and a
// table of each layer's and head's largest |B − A| (as `mhaviz-cli model --compare-with`
// prints it), the largest outlined; a click on a cell compares that map. A comparison starts at
// the map of the largest difference. Models that cannot be compared (other layers, heads or
// lengths) are said inline, in red, with what differs and the fix; tokens that differ are noted.
// Reading A, the difference and the maps run off the GUI thread (LatestTask): the GUI thread
// only shows what they made. GUI thread only.

#include <QString>
#include <QStringList>
#include <QWidget>
#include <atomic>
#include <memory>
#include <optional>
#include <utility>

#include "mhaviz/core/model/model.hpp"
#include "mhaviz/core/model/weights_only.hpp"
#include "stages/compare_stage.hpp"
#include "tasks/latest_task.hpp"

class QLabel;
class QPushButton;
class QTableView;

namespace mhaviz::ui {

class Document;
class HeatmapGrid;
class DifferenceTable;  // compare/difference_table.hpp

/// One side of a comparison: a model read and computed (compute_model's weights), and its name.
struct ModelSide {
  QString name;  // the file name shown ("gqa.json")
  std::shared_ptr<const mhaviz::model::Model> model;
  std::shared_ptr<const mhaviz::model::ComputedModel> computed;
  [[nodiscard]] bool valid() const { return model != nullptr && computed != nullptr; }
  [[nodiscard]] bool operator==(const ModelSide& o) const {
    return model == o.model && computed == o.computed;
  }
};

class ModelCompare : public QWidget {
  Q_OBJECT

 public:
  explicit ModelCompare(Document* document, QWidget* parent = nullptr);
  ~ModelCompare() override;

  /// The model open in the model view (invalid: none). A comparison of another model ends.
  void setOpenModel(ModelSide model);
  [[nodiscard]] bool hasOpenModel() const { return m_open.valid(); }
  /// Reads `path` as A on a background thread (a model index by its .json suffix, else plain
  /// weights with the open model's tokens and num_key_value_heads) and compares the open model,
  /// B, with it. Returns at once; nothing happens without an open model.
  void compareWith(const QString& path);
  /// Asks for the file to compare with, then compareWith (the Compare menu's action).
  void chooseFile();
  /// The map compared: the document's selection (Document::selection), layer `layer`, head
  /// `head` (-1: every head of the layer) of A and B, in the selection's batch element.
  [[nodiscard]] std::pair<int, int> selected() const;
  /// A becomes B and B becomes A: the difference changes sign.
  void swap();
  /// Ends the comparison (the dock shows compare mode's A | B | B − A again).
  void close();

  /// True from compareWith until close (or another model opened): A is being read, or shown,
  /// or why it cannot be compared is.
  [[nodiscard]] bool isActive() const { return m_active; }
  /// True while A is read or the difference or the maps are made.
  [[nodiscard]] bool isBusy() const;
  /// True when the maps and the table shown are those of the current A, B, batch and selection.
  [[nodiscard]] bool isUpToDate() const;
  /// The line above the grids: what is read, the largest difference and the notes, or what
  /// failed and why (then hasProblem()).
  [[nodiscard]] QString message() const;
  [[nodiscard]] bool hasProblem() const { return !m_problem.isEmpty(); }
  /// The message as shown (coloured while there is a problem); the line that says which layer
  /// and head the maps are of; the titles over A and B; Export of the three maps.
  [[nodiscard]] const QLabel* messageLine() const { return m_status; }
  [[nodiscard]] const QLabel* whereLine() const { return m_where; }
  [[nodiscard]] const QLabel* titleA() const { return m_titleA; }
  [[nodiscard]] const QLabel* titleB() const { return m_titleB; }
  [[nodiscard]] QPushButton* exportButton() const { return m_export; }
  [[nodiscard]] const ModelSide& sideA() const { return m_a; }
  [[nodiscard]] const ModelSide& sideB() const { return m_b; }
  /// Each layer's and head's largest and mean |B − A| (null before it is made, or on a mismatch).
  [[nodiscard]] const std::shared_ptr<const mhaviz::model::WeightsDifference>& difference() const {
    return m_difference;
  }
  /// The maps shown (A, B and B − A of the selected layer and head).
  [[nodiscard]] const CompareData& data() const { return m_data; }
  [[nodiscard]] HeatmapGrid* gridA() const { return m_gridA; }
  [[nodiscard]] HeatmapGrid* gridB() const { return m_gridB; }
  [[nodiscard]] HeatmapGrid* gridDiff() const { return m_gridDiff; }
  /// The table of the largest |B − A| per layer (rows) and head (columns).
  [[nodiscard]] QTableView* table() const { return m_table; }

 signals:
  /// The comparison started (true) or ended (false).
  void activeChanged(bool active);
  /// A model was opened or closed in the model view: whether there is one to compare.
  void openModelChanged(bool open);
  /// A map was chosen here (a cell of the table, or the largest difference when a comparison
  /// starts): the window selects it (Document::setSelection, as it opens its layer as the
  /// session), and the comparison follows the selection. Not selected (the user kept unsaved
  /// changes), the comparison stays at the map selected.
  void mapChosen(int layer, int head);
  /// New maps or a new difference (or why there is none) are on screen.
  void shown();

 private:
  struct Compared;  // a difference (or why there is none) of one batch element
  /// B compared with A for one batch element; a mismatch is returned, not thrown. Any thread.
  static std::shared_ptr<const Compared> compareSides(const ModelSide& a, const ModelSide& b,
                                                      int batch, const std::atomic<bool>* cancel);
  void start();
  void deliverA(ModelSide a, std::shared_ptr<const Compared> compared, const QString& error);
  void startDifference();
  void applyDifference(const Compared& compared);
  void startMaps();
  /// What the three grids are given: copies of A, B and B − A without their statistics (the
  /// grids' background preparation makes them and reduces the maps to the screen).
  struct GridStages {
    StageData a, b, diff;
  };
  static GridStages gridStages(const CompareData& data);
  void present(CompareData data, GridStages stages);
  void showStatus();
  void showTitles();
  void selectInTable();
  /// Another map or batch element selected: compares it.
  void followSelection();
  void exportDifference();
  void releaseFile();  // lets the file's model go on a task's thread; A and B empty
  void clearGrids();
  [[nodiscard]] ViewOptions mapView() const;

  Document* m_document;
  ModelSide m_open;  // the model view's model
  ModelSide m_a, m_b;
  QString m_path;    // A's file
  bool m_active = false;
  bool m_reading = false;
  int m_batch = 0;  // the batch element compared: the selection's, as last followed
  std::shared_ptr<const mhaviz::model::WeightsDifference> m_difference;
  QStringList m_notes;
  QString m_problem;  // why there is no difference (red), else empty
  CompareData m_data;
  // Reads and computes A, then the first difference: at a lower priority (niceness 10), so that
  // the window laid out and drawn meanwhile (the Compare workspace shown) keeps a core.
  LatestTask m_load{this, 10};
  LatestTask m_diff{this};   // the difference of another batch element, or after a swap
  LatestTask m_maps{this};   // A | B | B − A of the selected map
  LatestTask m_release{this};  // lets a model read as A go (its memory returned off the GUI thread)
  quint64 m_presented = 0;  // present()s so far: a grid still to show belongs to the newest
  int m_gridsToShow = 0;     // of A, B and B − A, still to be given their maps
  bool m_updatingTable = false;
  QLabel* m_status;
  QLabel* m_where;
  QLabel* m_titleA;
  QLabel* m_titleB;
  HeatmapGrid* m_gridA;
  HeatmapGrid* m_gridB;
  HeatmapGrid* m_gridDiff;
  QTableView* m_table;
  QWidget* m_tableBox = nullptr;  // the table and its title
  DifferenceTable* m_tableModel;
  QPushButton* m_swap;
  QPushButton* m_export;
};

}  // namespace mhaviz::ui
