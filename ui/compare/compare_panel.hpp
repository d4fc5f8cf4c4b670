#pragma once
// Compare mode (A | B | B - A): the current result pinned as A (the document's Pinned), the
// current settings as B, and their signed difference per head for the stage the view shows. A
// and B are results of a compute worker (A was computed there while it was current, or on the
// panel's own worker when a session's A was pinned without its result); the difference is made
// as a background task (stages/compare_stage), never on the GUI thread.

#include <QWidget>
#include <memory>

#include "document/pinned.hpp"
#include "stages/compare_stage.hpp"
#include "tasks/latest_task.hpp"

class QAction;
class QLabel;
class QMainWindow;
class QMenu;
class QDockWidget;
class QPushButton;

namespace mhaviz::ui {

class Document;
class ComputeWorker;
class HeatmapGrid;
class ModelCompare;

class ComparePanel : public QWidget {
  Q_OBJECT
 public:
  ComparePanel(Document* document, QWidget* parent = nullptr);
  ~ComparePanel() override;

  /// The current result becomes A (also "make B the new A"): Document::setPinned.
  void pin();
  /// A becomes the current settings (recomputed on the worker as B) and B is pinned as A.
  void swap();
  /// Leaves compare mode.
  void unpin();
  /// True while the document's A is being computed (a session's A, given without its result).
  [[nodiscard]] bool isRestoring() const { return m_restoring != 0; }
  /// The document's A has a result: A | B | B - A are shown.
  [[nodiscard]] bool isPinned() const;
  /// B as shown: the document's result, or A's before a swap until the result of the swapped
  /// settings arrives.
  [[nodiscard]] ResultPtr resultB() const { return m_b; }
  /// The maps shown (A, B, B - A or the mismatch); valid once isUpToDate().
  [[nodiscard]] const CompareData& data() const { return m_data; }
  /// True when the shown difference is that of the current A, B and view.
  [[nodiscard]] bool isUpToDate() const { return m_shown == m_difference.generation(); }
  [[nodiscard]] HeatmapGrid* gridA() const { return m_gridA; }
  [[nodiscard]] HeatmapGrid* gridB() const { return m_gridB; }
  [[nodiscard]] HeatmapGrid* gridDiff() const { return m_gridDiff; }
  /// The inline line above the grids: why there is no difference, or keys left out; how to
  /// pin A while nothing is pinned.
  [[nodiscard]] QString message() const;
  /// The buttons above the grids. While nothing is pinned the first pins A and the others are
  /// disabled (and the grids hidden: the hint says what to do); once A is pinned it makes B the
  /// new A.
  [[nodiscard]] QPushButton* pinButton() const { return m_newA; }
  [[nodiscard]] QPushButton* swapButton() const { return m_swap; }
  [[nodiscard]] QPushButton* exportButton() const { return m_export; }
  [[nodiscard]] QPushButton* leaveButton() const { return m_leave; }
  /// The titles over A and B (B's names what differs from A).
  [[nodiscard]] const QLabel* titleA() const { return m_titleA; }
  [[nodiscard]] const QLabel* titleB() const { return m_titleB; }
  /// The "Compare: A | B | B - A" dock that holds the panel (the window places and shows it).
  [[nodiscard]] QDockWidget* dock() const { return m_dock; }
  /// The Compare menu's entries (installCompare makes them).
  struct MenuActions {
    QAction* pin = nullptr;       // Pin current settings as A
    QAction* swap = nullptr;      // Swap A and B
    QAction* newA = nullptr;      // Make B the new A
    QAction* leave = nullptr;     // Leave compare mode
    QAction* withFile = nullptr;  // Compare the model with a file…
  };
  [[nodiscard]] const MenuActions& menuActions() const { return m_menu; }
  /// Two model files compared (compare/model_compare.hpp): shown in the dock instead of the
  /// panel while a comparison is active.
  [[nodiscard]] ModelCompare* modelCompare() const { return m_modelCompare; }

 signals:
  /// The document's A changed (pinned, replaced, being computed, computed or dropped);
  /// `pinned` is isPinned().
  void pinnedChanged(bool pinned);
  /// The user pinned or left compare mode (pin, unpin; not an A pinned by a session).
  void changedByUser();
  void shown();  // a new difference (or mismatch) is on screen

 private:
  friend ComparePanel* installCompare(QMainWindow*, Document*);
  void followPinned();  // the document's A changed: computes it when it has no result, shows it
  void computeA(const Pinned& a);  // on the panel's own worker
  void showUnpinnedHint();
  void updateButtons();  // what the buttons say and allow, and whether the grids are shown
  void refresh();  // recomputes the difference for A, B and the view off the GUI thread
  void present(quint64 generation, CompareData data);
  void exportDifference();

  Document* m_document;
  ResultPtr m_b;                                              // B as shown (resultB)
  std::shared_ptr<const mhaviz::ResultMeasures> m_bMeasures;  // beside m_b
  std::unique_ptr<ComputeWorker> m_aWorker;  // computes an A pinned without its result
  quint64 m_restoring = 0;                   // generation of that A being computed
  quint64 m_restoreCount = 0;
  CompareData m_data;
  LatestTask m_difference{this};  // B - A for the current A, B and view
  quint64 m_shown = 0;            // the task generation whose difference is shown
  QLabel* m_status = nullptr;
  QLabel* m_titleA = nullptr;
  QLabel* m_titleB = nullptr;
  HeatmapGrid* m_gridA = nullptr;
  HeatmapGrid* m_gridB = nullptr;
  HeatmapGrid* m_gridDiff = nullptr;
  QPushButton* m_swap = nullptr;
  QPushButton* m_newA = nullptr;
  QPushButton* m_export = nullptr;
  QPushButton* m_leave = nullptr;
  QWidget* m_grids = nullptr;  // A | B | B - A
  QDockWidget* m_dock = nullptr;
  ModelCompare* m_modelCompare = nullptr;
  MenuActions m_menu;
};

/// A grid under its title (A, B or B − A), for the compare dock's pages.
QWidget* titledGrid(QLabel* title, HeatmapGrid* grid);

/// Adds the compare dock (hidden; the window's Compare workspace shows it) and a Compare menu (Pin as A,
/// Swap A and B, Make B the new A, Leave compare mode, Compare the model with a file…) to
/// `window`. The dock holds the panel, or the comparison of two model files while one is active
/// (Swap and Leave then act on it). Returns the panel.
ComparePanel* installCompare(QMainWindow* window, Document* document);

}  // namespace mhaviz::ui
