#include "teach/teaching_tools.hpp"

#include <qcustomplot.h>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QPlainTextEdit>
#include <QScreen>
#include <QTimer>
#include <QToolTip>
#include <QStatusBar>
#include <QStringList>
#include <QTextEdit>
#include <exception>

#include "document/document.hpp"
#include "render/heatmap_grid.hpp"
#include "teach/examples.hpp"
#include "teach/explanations.hpp"
#include "teach/teach_docks.hpp"

namespace mhaviz::ui {

namespace {
constexpr double kPresentationFontScale = 1.6;
// Presentation mode keeps this many maps in view without scrolling (8 heads and their average
// or sum), scaled down to fit the screen: a projected picture does not scroll.
constexpr int kPresentedMaps = 9;
}  // namespace

TeachingTools::TeachingTools(QMainWindow* window, Document* document, HeatmapGrid* grid,
                             QMenu* file, QMenu* view, QMenu* help)
    : QObject(window),
      m_window(window),
      m_document(document),
      m_grid(grid),
      m_walk(new WalkthroughDock(document, window)),
      m_breakdown(new BreakdownDock(window)),
      m_shapes(new ShapeFlowDock(window)) {
  setObjectName(QStringLiteral("teachingTools"));
  // The grid keeps the centre: the walk-through is a strip below it, the breakdown and the
  // shape table share the right-hand area as tabs.
  window->addDockWidget(Qt::BottomDockWidgetArea, m_walk);
  window->addDockWidget(Qt::RightDockWidgetArea, m_breakdown);
  window->addDockWidget(Qt::RightDockWidgetArea, m_shapes);
  window->tabifyDockWidget(m_breakdown, m_shapes);
  m_breakdown->raise();

  connect(m_walk, &WalkthroughDock::stepShown, this,
          [this](const QString& title, const QString& text) {
            m_stepTitle = title;
            m_stepText = text;
            if (m_presenting) updateCaption();
          });
  connect(grid, &HeatmapGrid::cellClicked, this, [this, document](int map, int row, int col) {
    m_breakdown->showCell(m_document->computed().result, m_grid->view(), map, row, col,
                          document->origin().pictures.get());
  });
  connect(document, &Document::changed, m_breakdown, [this](Document::Changes what) {
    if (what & Document::Change::result) m_breakdown->clearCell();
  });
  connect(document, &Document::changed, m_shapes, [this, document](Document::Changes what) {
    if (what & Document::Change::config) m_shapes->showConfig(document->config());
  });
  m_shapes->showConfig(document->config());

  grid->setFocusPolicy(Qt::StrongFocus);
  qApp->installEventFilter(this);  // Left/Right anywhere in the window (see eventFilter)

  m_examples = addExamplesMenu(
      file,
      [this, document](const QString& title, const mhaviz::Config& config) {
        if (m_openExample) {
          m_openExample(title, config);
        } else {
          document->changeConfig(config, tr("Open example \u201c%1\u201d").arg(title));
        }
      },
      window);

  view->addSeparator();
  QAction* walkToggle = m_walk->toggleViewAction();
  walkToggle->setText(tr("&Walk-through"));
  view->addAction(walkToggle);
  QAction* breakdownToggle = m_breakdown->toggleViewAction();
  breakdownToggle->setText(tr("Cell &breakdown"));
  view->addAction(breakdownToggle);
  QAction* shapesToggle = m_shapes->toggleViewAction();
  shapesToggle->setText(tr("&Shape flow"));
  view->addAction(shapesToggle);
  view->addSeparator();
  m_presentation = view->addAction(tr("P&resentation mode"));
  m_presentation->setObjectName(QStringLiteral("presentationAction"));
  m_presentation->setCheckable(true);
  m_presentation->setShortcut(QKeySequence(Qt::Key_F11));
  m_presentation->setShortcutContext(Qt::ApplicationShortcut);
  connect(m_presentation, &QAction::toggled, this, &TeachingTools::setPresentation);
  m_highContrast = view->addAction(tr("&High contrast"));
  m_highContrast->setObjectName(QStringLiteral("highContrastAction"));
  m_highContrast->setCheckable(true);
  connect(m_highContrast, &QAction::toggled, this, &TeachingTools::setHighContrast);

  addExplanationsMenu(help, window);
}

void TeachingTools::setPresentation(bool on) {
  if (on == m_presenting) return;
  m_presenting = on;
  if (m_presentation->isChecked() != on) m_presentation->setChecked(on);
  // A tooltip describes what was under the pointer in the layout that is going away.
  QToolTip::hideText();
  if (on) {
    m_wasFullScreen = m_window->isFullScreen();
    m_wasMaximized = m_window->isMaximized();
    m_normalFont = QApplication::font();
    // The maps get the screen: every dock and the status bar step aside (the grid's caption is
    // the walk-through, Left/Right step it), and come back as they were when presenting ends.
    m_normalState = m_window->saveState();
    m_statusWasVisible = m_window->statusBar()->isVisible();
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
      if (dock->parentWidget() == m_window) dock->hide();
    }
    m_window->statusBar()->hide();
    m_grid->setInViewUpTo(kPresentedMaps);
    QFont big = m_normalFont;
    if (big.pointSizeF() > 0) {
      big.setPointSizeF(big.pointSizeF() * kPresentationFontScale);
    } else {
      big.setPixelSize(static_cast<int>(big.pixelSize() * kPresentationFontScale));
    }
    QApplication::setFont(big);
    m_normalGeometry = m_window->normalGeometry();
    m_window->showFullScreen();
    // Exactly the screen, also where no window manager honours full screen (a window larger
    // than the screen cut the panel and the maps off on the right and at the bottom).
    if (QScreen* screen = m_window->screen()) m_window->setGeometry(screen->geometry());
    m_grid->setFocus();
  } else {
    m_grid->setInViewUpTo(0);
    QApplication::setFont(m_normalFont);
    m_window->restoreState(m_normalState);
    m_window->statusBar()->setVisible(m_statusWasVisible);
    if (!m_wasFullScreen) {
      if (m_wasMaximized) {
        m_window->showMaximized();
      } else {
        m_window->showNormal();
        if (m_normalGeometry.isValid()) m_window->setGeometry(m_normalGeometry);
      }
    }
    // Once more when the normal font has reached every dock and the window has its size (the
    // next event loop pass): restored at once, the docks kept the heights the large font's
    // minimum sizes gave them, and the walk-through came back taller than it was.
    QTimer::singleShot(0, m_window, [window = m_window, state = m_normalState] {
      window->restoreState(state);
    });
  }
  updateCaption();
}

QPalette highContrastPalette() {
  QPalette p;
  const QColor grey(150, 150, 150);
  for (const auto group : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
    const bool off = group == QPalette::Disabled;
    p.setColor(group, QPalette::Window, Qt::black);
    p.setColor(group, QPalette::WindowText, off ? grey : Qt::white);
    p.setColor(group, QPalette::Base, off ? QColor(45, 45, 45) : Qt::black);
    p.setColor(group, QPalette::AlternateBase, QColor(40, 40, 40));
    p.setColor(group, QPalette::Text, off ? grey : Qt::white);
    p.setColor(group, QPalette::PlaceholderText, grey);
    p.setColor(group, QPalette::Button, off ? QColor(45, 45, 45) : QColor(20, 20, 20));
    p.setColor(group, QPalette::ButtonText, off ? grey : Qt::white);
    // Fusion draws frames and indicators with these: light on black, never black on black.
    p.setColor(group, QPalette::Light, Qt::white);
    p.setColor(group, QPalette::Midlight, QColor(200, 200, 200));
    p.setColor(group, QPalette::Mid, grey);
    p.setColor(group, QPalette::Dark, QColor(200, 200, 200));
    p.setColor(group, QPalette::Shadow, Qt::white);
    p.setColor(group, QPalette::Highlight, off ? grey : QColor(Qt::yellow));
    p.setColor(group, QPalette::HighlightedText, Qt::black);
    p.setColor(group, QPalette::ToolTipBase, Qt::black);
    p.setColor(group, QPalette::ToolTipText, Qt::yellow);
  }
  return p;
}

QString highContrastStyleSheet() {
  // Fusion derives outlines from the window colour (black here): borders are drawn explicitly.
  return QStringLiteral(
      "\nQCheckBox::indicator { width: 13px; height: 13px; border: 2px solid white;"
      " background: black; }"
      "QCheckBox::indicator:checked { background: yellow; }"
      "QCheckBox::indicator:disabled { border: 2px dashed #969696; background: #2d2d2d; }"
      "QCheckBox::indicator:checked:disabled { background: #969696; }"
      "QAbstractSpinBox, QLineEdit, QComboBox { border: 1px solid white; padding: 1px; }"
      "QAbstractSpinBox:disabled, QLineEdit:disabled, QComboBox:disabled {"
      " border: 1px dashed #969696; color: #969696; background: #2d2d2d; }");
}

void TeachingTools::setHighContrast(bool on) {
  if (on == m_contrast) return;
  m_contrast = on;
  if (m_highContrast->isChecked() != on) m_highContrast->setChecked(on);
  if (on) {
    m_normalPalette = QApplication::palette();
    m_normalStyleSheet = qApp->styleSheet();
    QApplication::setPalette(highContrastPalette());
    qApp->setStyleSheet(m_normalStyleSheet + highContrastStyleSheet());
  } else {
    QApplication::setPalette(m_normalPalette);
    qApp->setStyleSheet(m_normalStyleSheet);
  }
  redrawGrid();
}

void TeachingTools::updateCaption() {
  // The grid wraps the caption to its width: the heading line, then the explanation.
  m_grid->setCaption(m_presenting ? m_stepTitle + QLatin1Char('\n') + m_stepText : QString());
  redrawGrid();
}

void TeachingTools::redrawGrid() {
  if (!m_document->computed().result || m_grid->mapCount() == 0) return;
  try {
    m_grid->setView(m_grid->view());
  } catch (const std::exception&) {
    // The grid reports drawing problems itself when the view changes; a caption does not.
  }
}

bool TeachingTools::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() != QEvent::KeyPress) return QObject::eventFilter(watched, event);
  const auto* key = static_cast<QKeyEvent*>(event);
  if (key->modifiers() != Qt::NoModifier ||
      (key->key() != Qt::Key_Left && key->key() != Qt::Key_Right)) {
    return QObject::eventFilter(watched, event);
  }
  // Anywhere in the window or its docks, except where the arrows edit: text fields (and spin
  // boxes, whose text is edited) and sliders. Dialogs keep their arrows.
  auto* widget = qobject_cast<QWidget*>(watched);
  if (widget == nullptr || QApplication::activeModalWidget() != nullptr) return false;
  QWidget* top = widget->window();
  if (top != m_window && !(qobject_cast<QDockWidget*>(top) && top->parent() == m_window)) {
    return false;
  }
  QWidget* focus = QApplication::focusWidget();
  const auto* text = qobject_cast<QTextEdit*>(focus);
  const auto* plain = qobject_cast<QPlainTextEdit*>(focus);
  if (qobject_cast<QLineEdit*>(focus) != nullptr ||
      qobject_cast<QAbstractSpinBox*>(focus) != nullptr ||
      qobject_cast<QAbstractSlider*>(focus) != nullptr ||
      (text != nullptr && !text->isReadOnly()) || (plain != nullptr && !plain->isReadOnly())) {
    return false;
  }
  m_walk->step(key->key() == Qt::Key_Right ? +1 : -1);
  return true;
}

TeachingTools* installTeaching(QMainWindow* window, Document* document, HeatmapGrid* grid,
                               QMenu* file, QMenu* view, QMenu* help) {
  return new TeachingTools(window, document, grid, file, view, help);
}

}  // namespace mhaviz::ui
