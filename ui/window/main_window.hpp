#pragma once
// The main window: parameter panel (left dock), heatmap grid (centre), status bar, menus and
// keyboard shortcuts, the docks arranged by workspaces (Explore, Tokens, Compare, Model, Teach);
// window geometry and each workspace's layout remembered with QSettings. GUI thread only.

#include <QByteArray>
#include <QList>
#include <QMainWindow>

class QAction;
class QActionGroup;
class QDockWidget;
class QMenu;
class QToolBar;

namespace mhaviz::ui {

class ComparePanel;
class DockSubject;
class ExportActions;
struct TokenDocks;
class HeadView;
class HeatmapGrid;
class HeadMeasuresView;
class ModelPages;
class ParameterPanel;
class Computation;
class Document;
class SessionFiles;
class StatusWidgets;
class TeachingTools;
class TextView;
class ImageView;
class Workspaces;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// What is open: configuration, tensors, view and their undo history.
  [[nodiscard]] Document* document() const { return m_document; }
  /// The document's computation: its newest result, errors, busy state.
  [[nodiscard]] Computation* computation() const { return m_computation; }
  /// The session file, File menu, autosave and unsaved-changes prompts.
  [[nodiscard]] SessionFiles* session() const { return m_session; }
  /// Shows the first picture (teach/examples.hpp) as a fresh, unmodified untitled session:
  /// what the window opens with when the command line names no file and nothing is recovered.
  void showFirstPicture();
  [[nodiscard]] HeatmapGrid* grid() const { return m_grid; }
  /// The "Head measures" dock's bars (right of the grid).
  [[nodiscard]] HeadMeasuresView* headMeasures() const { return m_measures; }
  /// The head view (View > Head view, its own dock; hidden until asked for).
  [[nodiscard]] HeadView* headView() const { return m_headView; }
  /// The text view (View > Text view, its own dock; hidden until asked for).
  [[nodiscard]] TextView* textView() const { return m_textView; }
  /// The docks that hold headView() and textView().
  [[nodiscard]] QDockWidget* headViewDock() const { return m_headViewDock; }
  [[nodiscard]] QDockWidget* textViewDock() const { return m_textViewDock; }
  /// The image view (View > Image view, its own dock): a vision transformer's attention over
  /// its image, following the model view.
  [[nodiscard]] ImageView* imageView() const { return m_imageView; }
  [[nodiscard]] QDockWidget* imageViewDock() const { return m_imageViewDock; }
  [[nodiscard]] ParameterPanel* panel() const { return m_panel; }
  /// The "Parameters" dock that holds panel().
  [[nodiscard]] QDockWidget* parameterDock() const { return m_dock; }
  /// The "Masks and inputs" dock (the attn_mask, padding, inputs and weights editors).
  [[nodiscard]] QDockWidget* maskDock() const { return m_maskDock; }
  [[nodiscard]] StatusWidgets* statusWidgets() const { return m_status; }
  /// The View tool bar (the head view and text view toggles, the workspaces' tabs).
  [[nodiscard]] QToolBar* viewToolBar() const { return m_viewToolBar; }
  /// View > Language.
  [[nodiscard]] QMenu* languageMenu() const { return m_languageMenu; }
  /// The line atop each dock that says which layer of a model it shows.
  [[nodiscard]] DockSubject* dockSubject() const { return m_dockSubject; }
  /// The centre: one layer's full view and the model view.
  [[nodiscard]] ModelPages* pages() const { return m_pages; }
  /// Compare mode (A | B | B - A): the Compare menu and its dock.
  [[nodiscard]] ComparePanel* comparePanel() const { return m_compare; }
  /// The walk-through, breakdown and shape-flow docks, examples and presentation mode.
  [[nodiscard]] TeachingTools* teaching() const { return m_teaching; }
  /// Explore, Tokens, Compare, Model and Teach (window/workspace_arrangements.hpp): the tabs
  /// along the top, View > Workspace, each one's arrangement of the docks.
  [[nodiscard]] Workspaces* workspaces() const { return m_workspaces; }
  /// The "Head measures" dock.
  [[nodiscard]] QDockWidget* measuresDock() const { return m_measuresDock; }

 protected:
  /// The hover text leaves the status bar with the pointer; a click in the grid or a token
  /// view makes it the picture File > Export image writes.
  bool eventFilter(QObject* watched, QEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildMenus();
  void addTokenPictures(const TokenDocks& tokens);
  void installWorkspaces();
  void connectController();
  /// Two model files compared (model_compare_window.cpp): the model view and the comparison
  /// follow each other; comparing shows the Compare workspace. After installWorkspaces' own.
  void installModelCompare();
  void stepStage(int delta);
  void restoreLayout();
  void saveLayout() const;

  Document* m_document;
  Computation* m_computation;
  HeatmapGrid* m_grid;
  ModelPages* m_pages;
  ParameterPanel* m_panel;
  QDockWidget* m_dock;
  QDockWidget* m_maskDock = nullptr;
  QDockWidget* m_headViewDock = nullptr;
  QDockWidget* m_textViewDock = nullptr;
  ImageView* m_imageView = nullptr;
  QDockWidget* m_imageViewDock = nullptr;
  HeadMeasuresView* m_measures = nullptr;
  QDockWidget* m_measuresDock = nullptr;
  HeadView* m_headView = nullptr;
  TextView* m_textView = nullptr;
  ExportActions* m_exports = nullptr;
  // What File > Export image and Copy image write: the view worked in last.
  static constexpr int kGridPicture = -1, kHeadPicture = 0, kTextPicture = 1;
  int m_activePicture = kGridPicture;
  StatusWidgets* m_status;
  QActionGroup* m_colormaps = nullptr;
  SessionFiles* m_session = nullptr;
  ComparePanel* m_compare = nullptr;
  TeachingTools* m_teaching = nullptr;
  QMenu* m_viewMenu = nullptr;
  QMenu* m_languageMenu = nullptr;  // View > Language
  DockSubject* m_dockSubject = nullptr;
  QToolBar* m_viewToolBar = nullptr;
  Workspaces* m_workspaces = nullptr;
  // The docks a comparison of two model files put aside, and the Compare arrangement before it.
  QList<QDockWidget*> m_aside;
  QByteArray m_asideFor;
};

}  // namespace mhaviz::ui
