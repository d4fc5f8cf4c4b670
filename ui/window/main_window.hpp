#pragma once
// The main window: parameter panel (left dock), heatmap grid (centre), status bar, menus and
// keyboard shortcuts; window geometry and dock layout remembered with QSettings. GUI thread only.

#include <QMainWindow>

class QAction;
class QActionGroup;
class QDockWidget;

namespace mhaviz::ui {

class ComparePanel;
class HeatmapGrid;
class HeadMeasuresView;
class ModelPages;
class ParameterPanel;
class ComputeController;
class SessionDocument;
class StatusWidgets;
class TeachingTools;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  [[nodiscard]] ComputeController* controller() const { return m_controller; }
  /// The session file, File menu, autosave and unsaved-changes prompts.
  [[nodiscard]] SessionDocument* document() const { return m_document; }
  /// Shows the first picture (teach/examples.hpp) as a fresh, unmodified untitled session:
  /// what the window opens with when the command line names no file and nothing is recovered.
  void showFirstPicture();
  [[nodiscard]] HeatmapGrid* grid() const { return m_grid; }
  /// The "Head measures" dock's bars (right of the grid).
  [[nodiscard]] HeadMeasuresView* headMeasures() const { return m_measures; }
  [[nodiscard]] ParameterPanel* panel() const { return m_panel; }
  [[nodiscard]] StatusWidgets* statusWidgets() const { return m_status; }
  /// The centre: one layer's full view and the model view.
  [[nodiscard]] ModelPages* pages() const { return m_pages; }
  /// Compare mode (A | B | B - A): the Compare menu and its dock.
  [[nodiscard]] ComparePanel* comparePanel() const { return m_compare; }
  /// The walk-through, breakdown and shape-flow docks, examples and presentation mode.
  [[nodiscard]] TeachingTools* teaching() const { return m_teaching; }

 protected:
  /// The hover text leaves the status bar with the pointer.
  bool eventFilter(QObject* watched, QEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildMenus();
  void connectController();
  void stepStage(int delta);
  void restoreLayout();
  void saveLayout() const;

  ComputeController* m_controller;
  HeatmapGrid* m_grid;
  ModelPages* m_pages;
  ParameterPanel* m_panel;
  QDockWidget* m_dock;
  HeadMeasuresView* m_measures = nullptr;
  QDockWidget* m_measuresDock = nullptr;
  StatusWidgets* m_status;
  QActionGroup* m_colormaps = nullptr;
  SessionDocument* m_document = nullptr;
  ComparePanel* m_compare = nullptr;
  TeachingTools* m_teaching = nullptr;
  double m_computeMs = 0;  // the worker's time for the current result (status bar)
};

}  // namespace mhaviz::ui
