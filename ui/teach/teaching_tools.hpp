#pragma once
// Installs the teaching features into the main window: the walk-through, cell breakdown and
// shape-flow docks, Help > Attention explained, File > Examples, and presentation mode (F11,
// with a high-contrast option). GUI thread only.

#include <QFont>
#include <QObject>
#include <QPalette>
#include <functional>
#include <utility>

#include "mhaviz/core/spec/config.hpp"

class QAction;
class QMainWindow;
class QMenu;

namespace mhaviz::ui {

class BreakdownDock;
class HeatmapGrid;
class Document;
class ShapeFlowDock;
class WalkthroughDock;

/// Owned by the window (its QObject child, object name "teachingTools").
class TeachingTools : public QObject {
  Q_OBJECT
 public:
  TeachingTools(QMainWindow* window, Document* document, HeatmapGrid* grid, QMenu* file,
                QMenu* view, QMenu* help);

  [[nodiscard]] WalkthroughDock* walkthrough() const { return m_walk; }
  [[nodiscard]] BreakdownDock* breakdown() const { return m_breakdown; }
  [[nodiscard]] ShapeFlowDock* shapeFlow() const { return m_shapes; }
  /// File > Examples (the bundled configurations; the window adds the bundled models).
  [[nodiscard]] QMenu* examplesMenu() const { return m_examples; }
  /// What choosing an example does (the window: open it as a file is opened, after asking
  /// about unsaved work); until set, the example's configuration becomes the document's.
  void setExampleOpener(std::function<void(const QString& title, const mhaviz::Config&)> open) {
    m_openExample = std::move(open);
  }
  [[nodiscard]] QAction* presentationAction() const { return m_presentation; }
  [[nodiscard]] QAction* highContrastAction() const { return m_highContrast; }
  [[nodiscard]] bool inPresentation() const { return m_presenting; }

  /// Full screen, application font x1.6, docks and status bar hidden, and the stage explanation
  /// as the grid's caption; off restores the window state, docks and font.
  void setPresentation(bool on);
  /// White on black with yellow highlights; off restores the palette.
  void setHighContrast(bool on);

 protected:
  /// Left/Right step the walk-through anywhere in the window, except in a text field, a spin
  /// box or a slider (installed on the application).
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void updateCaption();
  void redrawGrid();

  QMainWindow* m_window;
  Document* m_document;
  HeatmapGrid* m_grid;
  WalkthroughDock* m_walk;
  BreakdownDock* m_breakdown;
  ShapeFlowDock* m_shapes;
  QMenu* m_examples = nullptr;
  std::function<void(const QString& title, const mhaviz::Config&)> m_openExample;
  QAction* m_presentation = nullptr;
  QAction* m_highContrast = nullptr;
  bool m_presenting = false;
  bool m_wasFullScreen = false;
  bool m_wasMaximized = false;
  QFont m_normalFont;
  QByteArray m_normalState;  // docks and toolbars before presentation mode
  bool m_statusWasVisible = true;
  QRect m_normalGeometry;  // the window's geometry before presentation mode
  QPalette m_normalPalette;
  QString m_normalStyleSheet;
  bool m_contrast = false;
  QString m_stepTitle, m_stepText;
};

/// White on black with yellow highlights; disabled controls grey on dark grey, so they look
/// disabled; every role Fusion draws frames and indicators with is light.
QPalette highContrastPalette();
/// Borders of fields and check-box indicators for high contrast (Fusion derives them from the
/// window colour, which would make them black on black).
QString highContrastStyleSheet();

/// Creates the window's TeachingTools (see above) and returns it.
TeachingTools* installTeaching(QMainWindow* window, Document* document, HeatmapGrid* grid,
                               QMenu* file, QMenu* view, QMenu* help);

}  // namespace mhaviz::ui
