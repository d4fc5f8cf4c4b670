#include "window/main_window.hpp"

#include <qcustomplot.h>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QEvent>
#include <QFileDialog>
#include <QKeySequence>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>
#include <exception>

#include "compute/compute_controller.hpp"
#include "desktop/calm_fields.hpp"
#include "desktop/desktop_setup.hpp"
#include "exporting/export_actions.hpp"
#include "editors/mask_dock.hpp"
#include "render/colormaps.hpp"
#include "render/head_measures_view.hpp"
#include "render/heatmap_grid.hpp"
#include "session/session_document.hpp"
#include "teach/examples.hpp"
#include "teach/teach_docks.hpp"
#include "teach/teaching_tools.hpp"
#include "window/app_info.hpp"
#include "compare/compare_panel.hpp"
#include "model/model_pages.hpp"
#include "window/parameter_panel.hpp"
#include "window/reduced_zoom.hpp"
#include "window/status_widgets.hpp"
#include "window/view_controls.hpp"

namespace mhaviz::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      m_controller(new ComputeController(this)),
      m_grid(new HeatmapGrid),
      m_pages(new ModelPages(m_grid, m_controller)),
      m_panel(new ParameterPanel(m_controller)),
      m_dock(new QDockWidget(tr("Parameters"), this)),
      m_status(nullptr) {
  setWindowTitle(QStringLiteral("mhaviz"));
  m_grid->setObjectName(QStringLiteral("heatmapGrid"));
  m_grid->setBackgroundPreparation(true);  // big maps are reduced off the GUI thread
  m_grid->setAxisTitles(true);             // "query" down, "key" across
  setCentralWidget(m_pages);

  m_dock->setObjectName(QStringLiteral("parameterDock"));
  m_dock->setWidget(m_panel);  // scrolls its fields itself, error line below them
  m_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
  addDockWidget(Qt::LeftDockWidgetArea, m_dock);
  installMaskEditors(this, m_controller, m_dock);  // "Masks and inputs" dock, tabbed with it

  // Head measures beside the grid (right), from the numbers the compute worker attached.
  m_measures = new HeadMeasuresView;
  m_measuresDock = new QDockWidget(tr("Head measures"), this);
  m_measuresDock->setObjectName(QStringLiteral("headMeasuresDock"));
  auto* measuresScroll = new QScrollArea;  // every section reachable in a short dock
  measuresScroll->setWidget(m_measures);
  measuresScroll->setWidgetResizable(true);
  measuresScroll->setFrameShape(QFrame::NoFrame);
  m_measuresDock->setWidget(measuresScroll);
  m_measuresDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                              QDockWidget::DockWidgetClosable);
  addDockWidget(Qt::RightDockWidgetArea, m_measuresDock);

  m_status = new StatusWidgets(statusBar(), m_controller, this);
  new ReducedZoom(m_grid, m_controller, this);  // zooming a reduced map computes the region
  buildMenus();
  connectController();
  restoreLayout();
  calmFields(this);  // typed numbers commit once; the wheel scrolls the panels
  m_controller->recompute();
}

MainWindow::~MainWindow() = default;

void MainWindow::connectController() {
  ComputeController* c = m_controller;
  const auto draw = [this](const ResultPtr& result, const ViewOptions& view, double computeMs) {
    try {
      m_grid->setResult(result, view);
    } catch (const std::exception& e) {
      statusBar()->showMessage(tr("Cannot draw: %1").arg(QString::fromUtf8(e.what())));
    }
    m_status->showTimes(computeMs, m_grid->lastRenderMs(), result->bytes());
  };
  // The value norms come with the head measures, after the result: that stage's picture waits
  // for them; every other stage is drawn at once.
  const auto waitsForMeasures = [this](const ViewOptions& view) {
    return view.stage == Stage::value_norms && m_controller->isMeasuring();
  };
  connect(c, &ComputeController::resultReady, this,
          [this, draw, waitsForMeasures](const ResultPtr& result, const ViewOptions& view,
                                         double computeMs) {
            m_measures->setResult(result, view.batch, m_controller->isMeasuring());
            m_computeMs = computeMs;
            if (!waitsForMeasures(view)) draw(result, view, computeMs);
          });
  connect(c, &ComputeController::measuresReady, this, [this, draw](const ResultPtr& result) {
    const ViewOptions& view = m_controller->view();
    m_measures->setResult(result, view.batch);
    if (view.stage == Stage::value_norms) draw(result, view, m_computeMs);
  });
  connect(c, &ComputeController::viewChanged, this,
          [this, waitsForMeasures](const ViewOptions& view) {
            if (!m_controller->result()) return;
            m_measures->setResult(m_controller->result(), view.batch, m_controller->isMeasuring());
            try {
              if (waitsForMeasures(view)) {
                // drawn when the measures arrive
              } else if (view.stage == Stage::value_norms &&
                         m_grid->result() != m_controller->result()) {
                // The grid holds the result as it came, before its measures (which hold the norms).
                m_grid->setResult(m_controller->result(), view);
              } else {
                m_grid->setView(view);
              }
            } catch (const std::exception& e) {
              statusBar()->showMessage(tr("Cannot draw: %1").arg(QString::fromUtf8(e.what())));
            }
            if (m_colormaps != nullptr) {
              for (QAction* a : m_colormaps->actions()) {
                a->setChecked(a->data().toInt() == static_cast<int>(view.colormap));
              }
            }
          });
  // In the status bar, not over the maps (it would cover their titles).
  connect(c, &ComputeController::outOfDateChanged, m_status, &StatusWidgets::showOutOfDate);
  connect(m_grid, &HeatmapGrid::cellHovered, this,
          [this](int, int, int, double, const QString& text) { m_status->showHover(text); });
  m_grid->installEventFilter(this);
  if (m_grid->plot() != nullptr) m_grid->plot()->installEventFilter(this);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::Leave) m_status->showHover({});
  return QMainWindow::eventFilter(watched, event);
}

void MainWindow::showFirstPicture() {
  Session first;
  try {
    first.config = loadExample(QString::fromLatin1(kFirstPictureResource));
  } catch (const std::exception&) {
    return;  // built without the examples: the default configuration stays
  }
  first.view.autoRange = true;  // the colormap's whole length for weights well below 1
  m_document->applySession(first, QString(), true);
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  m_document = new SessionDocument(this, m_controller);
  m_document->addFileActions(file);  // New/Open/Save, Load tensors
  m_pages->setDocument(m_document);
  connect(m_document, &SessionDocument::modelRequested, m_pages, &ModelPages::openModel);
  auto* exports = new ExportActions(this, m_controller, [this](const QString& t, const QString& m) {
    m_document->showError(t, m);
  });
  exports->addFileActions(file, nullptr);  // Export image/data, Copy image/PyTorch code
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
  quit->setMenuRole(QAction::QuitRole);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = m_controller->undoStack()->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = m_controller->undoStack()->createRedoAction(this, tr("&Redo"));
  redo->setShortcut(QKeySequence::Redo);
  edit->addAction(undo);
  edit->addAction(redo);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  QAction* next = view->addAction(tr("&Next stage"), this, [this] { stepStage(+1); });
  next->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
  QAction* prev = view->addAction(tr("&Previous stage"), this, [this] { stepStage(-1); });
  prev->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp));
  QMenu* colormaps = view->addMenu(tr("&Colormap"));
  m_colormaps = new QActionGroup(this);
  m_colormaps->setExclusive(true);
  for (Colormap map : allColormaps()) {
    QAction* a = colormaps->addAction(colormapName(map));
    a->setCheckable(true);
    a->setData(static_cast<int>(map));
    a->setChecked(map == m_controller->view().colormap);
    m_colormaps->addAction(a);
    connect(a, &QAction::triggered, this, [this, map] {
      ViewOptions v = m_controller->view();
      v.colormap = map;
      m_controller->setView(v);
    });
  }
  view->addSeparator();
  view->addAction(m_pages->modelViewAction());
  QAction* panelToggle = m_dock->toggleViewAction();
  panelToggle->setText(tr("&Parameter panel"));
  view->addAction(panelToggle);
  QAction* measuresToggle = m_measuresDock->toggleViewAction();
  measuresToggle->setText(tr("&Head measures"));
  view->addAction(measuresToggle);
  installDesktopMenus(view, this);  // View > Language, View > Theme

  QMenu* compute = menuBar()->addMenu(tr("&Compute"));
  QAction* again =
      compute->addAction(tr("&Recompute"), m_controller, &ComputeController::recompute);
  again->setShortcut(QKeySequence::Refresh);
  QAction* cancel =
      compute->addAction(tr("&Cancel computation"), m_controller, &ComputeController::cancel);
  cancel->setShortcut(QKeySequence(Qt::Key_Escape));
  cancel->setEnabled(false);
  connect(m_controller, &ComputeController::busyChanged, cancel, &QAction::setEnabled);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About mhaviz"), this, [this] { showAboutDialog(this); });
  help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
  m_teaching = installTeaching(this, m_controller, m_grid, file, view, help);
  m_pages->addExamples(m_teaching->examplesMenu());
  m_compare = installCompare(this, m_controller);  // Compare menu and the A | B | B - A dock
  if (m_document != nullptr) {
    m_document->setCompareHooks(
        [this] { return m_compare->savedA(); },
        [this](const std::optional<CompareA>& a) { m_compare->restoreA(a); });
    connect(m_compare, &ComparePanel::changedByUser, m_document,
            &SessionDocument::markCompareChanged);
  }
}

void MainWindow::stepStage(int delta) {
  const QList<Stage> stages = allStages();
  ViewOptions v = m_controller->view();
  const auto count = static_cast<int>(stages.size());
  int i = static_cast<int>(stages.indexOf(v.stage));
  // Skip weights_before_dropout / capped_scores when the result has none (stageIn).
  for (int step = 0; step < count; ++step) {
    i = (i + delta + count) % count;
    const ResultPtr r = m_controller->result();
    if (r && !stageIn(stages[i], *r)) continue;
    break;
  }
  v.stage = stages[i];
  m_controller->setView(v);
}

void MainWindow::restoreLayout() {
  QSettings settings;
  const QByteArray geometry = settings.value(QStringLiteral("window/geometry")).toByteArray();
  if (geometry.isEmpty() || !restoreGeometry(geometry)) {
    // First run: 1400x900, or the whole screen where that is smaller (a 1280x720 projector).
    QSize size(1400, 900);
    if (const QScreen* s = screen()) size = size.boundedTo(s->availableGeometry().size());
    resize(size);
  }
  if (restoreState(settings.value(QStringLiteral("window/state")).toByteArray())) return;
  // First run: the right docks wide enough for every column of the shape flow.
  resizeDocks({m_teaching->shapeFlow()}, {340}, Qt::Horizontal);
  // The head measures tall enough for their usual four or five sections.
  // (after the first layout pass: before it the dock area has no height to share out).
  QTimer::singleShot(0, this, [this] {
    resizeDocks({m_measuresDock}, {m_measures->sizeHint().height() + 40}, Qt::Vertical);
  });
}

void MainWindow::saveLayout() const {
  QSettings settings;
  settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("window/state"), saveState());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  saveLayout();
  m_controller->cancel();
  QMainWindow::closeEvent(event);
}

}  // namespace mhaviz::ui
