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
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <algorithm>
#include <exception>

#include "compare/compare_panel.hpp"
#include "compare/model_compare.hpp"
#include "compute/computation.hpp"
#include "desktop/calm_fields.hpp"
#include "desktop/desktop_setup.hpp"
#include "document/document.hpp"
#include "editors/mask_dock.hpp"
#include "exporting/export_actions.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "render/colormaps.hpp"
#include "render/head_measures_view.hpp"
#include "render/heatmap_grid.hpp"
#include "session/session_files.hpp"
#include "teach/examples.hpp"
#include "teach/teach_docks.hpp"
#include "teach/teaching_tools.hpp"
#include "tokens/head_view.hpp"
#include "tokens/text_view.hpp"
#include "vision/image_view.hpp"
#include "window/app_info.hpp"
#include "window/centre_dock.hpp"
#include "window/dock_subject.hpp"
#include "window/parameter_panel.hpp"
#include "window/reduced_zoom.hpp"
#include "window/screen_presenter.hpp"
#include "window/status_widgets.hpp"
#include "window/token_docks.hpp"
#include "window/view_controls.hpp"
#include "window/workspace_arrangements.hpp"
#include "window/workspaces.hpp"

namespace mhaviz::ui {

namespace {

/// The Head measures dock's content: the bars scroll up and down, never sideways, and the dock
/// keeps room for the heading and the first measure of every head (QMainWindow squeezed it to
/// a strip of ~55 px, or narrower than the bars, beside the head view).
class MeasuresScroll : public QScrollArea {
 public:
  explicit MeasuresScroll(HeadMeasuresView* view) : m_view(view) {
    setWidget(view);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    QObject::connect(view, &HeadMeasuresView::contentChanged, this, [this] { updateGeometry(); });
  }
  [[nodiscard]] QSize minimumSizeHint() const override {
    const int frame = 2 * frameWidth();
    const int width = HeadMeasuresView::kMinimumWidth + verticalScrollBar()->sizeHint().width();
    const int inside = std::max(viewport()->width(), HeadMeasuresView::kMinimumWidth);
    return {width + frame, m_view->layoutAt(inside).firstSection + frame};
  }

 private:
  HeadMeasuresView* m_view;
};

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      m_document(new Document(this)),
      m_computation(new Computation(m_document, this)),
      m_grid(new HeatmapGrid),
      m_pages(new ModelPages(m_grid, m_document)),
      m_panel(new ParameterPanel(m_document)),
      m_dock(new QDockWidget(tr("Parameters"), this)),
      m_status(nullptr) {
  setWindowTitle(QStringLiteral("mhaviz"));
  // Docks move at once, not animated: a workspace switch or a comparison that shows and hides
  // docks would otherwise lay out and redraw every grid beside them at each step of the slide
  // (tens of ms of the GUI thread per step, the picture jumping meanwhile). Docks tab and
  // nest as before.
  setDockOptions(dockOptions() & ~QMainWindow::AnimatedDocks);
  m_grid->setObjectName(QStringLiteral("heatmapGrid"));
  m_grid->setBackgroundPreparation(true);  // big maps are reduced off the GUI thread
  m_grid->setAxisTitles(true);             // "query" down, "key" across
  setCentralWidget(m_pages);

  m_dock->setObjectName(QStringLiteral("parameterDock"));
  m_dock->setWidget(m_panel);  // scrolls its fields itself, error line below them
  m_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
  addDockWidget(Qt::LeftDockWidgetArea, m_dock);
  // "Masks and inputs", tabbed with the parameters.
  m_maskDock = installMaskEditors(this, m_document, m_dock);

  // Head measures beside the grid (right), from the numbers the compute worker attached.
  m_measures = new HeadMeasuresView;
  m_measuresDock = new QDockWidget(tr("Head measures"), this);
  m_measuresDock->setObjectName(QStringLiteral("headMeasuresDock"));
  // Every section reachable in a short dock, every head's bar in a narrow one.
  m_measuresDock->setWidget(new MeasuresScroll(m_measures));
  m_measuresDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                              QDockWidget::DockWidgetClosable);
  addDockWidget(Qt::RightDockWidgetArea, m_measuresDock);

  m_status = new StatusWidgets(statusBar(), m_document, m_computation, this);
  // Zooming a reduced map computes the region; made before the ScreenPresenter
  // (connectController) so that a zoomed result finds the grid told where to show it.
  new ReducedZoom(m_grid, m_document, m_computation, this);
  buildMenus();
  // Every dock that describes the session says which layer of a model it is (dock_subject.hpp);
  // those that edit it are read-only while the model view is on screen.
  m_dockSubject = new DockSubject(m_document, m_pages,
                                  {m_dock, m_maskDock, m_measuresDock, m_teaching->breakdown(),
                                   m_teaching->shapeFlow(), m_headViewDock, m_textViewDock},
                                  {m_dock, m_maskDock}, this);
  connectController();
  installWorkspaces();
  restoreLayout();
  calmFields(this);  // typed numbers commit once; the wheel scrolls the panels
  m_computation->recompute();
}

MainWindow::~MainWindow() = default;

void MainWindow::connectController() {
  new ScreenPresenter(m_document, m_grid, m_measures, m_status, this);
  connect(m_document, &Document::changed, this, [this](Document::Changes what) {
    if (!(what & Document::Change::view) || m_colormaps == nullptr) return;
    const int colormap = static_cast<int>(m_document->view().colormap);
    for (QAction* a : m_colormaps->actions()) a->setChecked(a->data().toInt() == colormap);
  });
  connect(m_grid, &HeatmapGrid::cellHovered, this,
          [this](int, int, int, double, const QString& text) { m_status->showHover(text); });
  m_grid->installEventFilter(this);
  if (m_grid->plot() != nullptr) m_grid->plot()->installEventFilter(this);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::Leave) m_status->showHover({});
  if (event->type() == QEvent::MouseButtonPress) {
    m_activePicture = m_headView != nullptr && watched == m_headView->canvas()   ? kHeadPicture
                      : m_textView != nullptr && watched == m_textView->canvas() ? kTextPicture
                                                                                 : kGridPicture;
  }
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
  m_session->applySession(first, QString(), true);
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  m_session = new SessionFiles(this, m_document);
  m_session->addFileActions(file);  // New/Open/Save, Load tensors
  m_pages->setSession(m_session);
  connect(m_session, &SessionFiles::modelRequested, m_pages, &ModelPages::openModel);
  // While a model is read and computed, the head measures of the session it is about to replace
  // wait (they took a third of the cores from a warm open); they go on once the model is drawn
  // (its first layer is the session by then), fails or is closed.
  ComputeWorker* worker = m_computation->worker();
  connect(m_pages, &ModelPages::modelOpening, worker, &ComputeWorker::holdMeasures);
  connect(m_pages->modelView(), &ModelView::openEnded, worker, &ComputeWorker::resumeMeasures);
  connect(m_pages->modelView(), &ModelView::modelClosed, worker, &ComputeWorker::resumeMeasures);
  m_exports = new ExportActions(
      this, m_document, [this](const QString& t, const QString& m) { m_session->showError(t, m); });
  m_exports->addFileActions(file, nullptr);  // Export image/data, Copy image/PyTorch code
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
  quit->setMenuRole(QAction::QuitRole);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
  redo->setShortcut(QKeySequence::Redo);
  edit->addAction(undo);
  edit->addAction(redo);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  m_viewMenu = view;
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
    a->setChecked(map == m_document->view().colormap);
    m_colormaps->addAction(a);
    connect(a, &QAction::triggered, this, [this, map] {
      ViewOptions v = m_document->view();
      v.colormap = map;
      m_document->setView(v);
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
  const TokenDocks tokens = installTokenViews(this, m_document);
  m_headView = tokens.head;
  m_textView = tokens.text;
  m_headViewDock = tokens.headDock;
  m_textViewDock = tokens.textDock;
  view->addAction(tokens.headToggle);
  view->addAction(tokens.textToggle);
  QToolBar* toolbar = addToolBar(tr("View"));
  m_viewToolBar = toolbar;
  toolbar->setObjectName(QStringLiteral("viewToolBar"));
  toolbar->addAction(tokens.headToggle);
  toolbar->addAction(tokens.textToggle);
  connect(m_headView, &HeadView::hovered, m_status, &StatusWidgets::showHover);
  connect(m_textView, &TextView::hovered, m_status, &StatusWidgets::showHover);
  connect(m_pages->modelView(), &ModelView::hovered, m_status, &StatusWidgets::showHover);
  const ImageDock image = installImageView(this, m_pages->modelView());
  m_imageView = image.view;
  m_imageViewDock = image.dock;
  view->addAction(image.toggle);
  connect(m_imageView, &ImageView::hovered, m_status, &StatusWidgets::showHover);
  // The Image view's overlay in the colour map chosen for the heatmaps (View > Colormap).
  m_imageView->setColormap(m_document->view().colormap);
  connect(m_document, &Document::changed, m_imageView, [this](Document::Changes what) {
    if (what & Document::Change::view) m_imageView->setColormap(m_document->view().colormap);
  });
  addTokenPictures(tokens);
  // A weights-only model's selected layer in the token views (it never becomes the session).
  connect(m_pages, &ModelPages::storedLayerShown, this,
          [this, show = tokens.showStored](const ResultPtr& result, const ViewOptions& shown) {
            show(result, shown);
            m_measures->showStored(result, nullptr, shown.batch);  // null: the session's again
          });
  connect(m_pages, &ModelPages::storedMeasuresReady, m_measures,
          [this](const ResultPtr& result, const std::shared_ptr<const ResultMeasures>& measures,
                 int batch) { m_measures->showStored(result, measures, batch); });
  m_languageMenu = installDesktopMenus(view, this).language;  // View > Language, View > Theme

  QMenu* compute = menuBar()->addMenu(tr("&Compute"));
  QAction* again = compute->addAction(tr("&Recompute"), m_computation, &Computation::recompute);
  again->setShortcut(QKeySequence::Refresh);
  QAction* cancel =
      compute->addAction(tr("&Cancel computation"), m_computation, &Computation::cancel);
  cancel->setShortcut(QKeySequence(Qt::Key_Escape));
  cancel->setEnabled(false);
  connect(m_document, &Document::changed, cancel, [this, cancel](Document::Changes what) {
    if (what & Document::Change::busy) cancel->setEnabled(m_document->computed().busy);
  });

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About mhaviz"), this, [this] { showAboutDialog(this); });
  help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
  m_teaching = installTeaching(this, m_document, m_grid, file, view, help);
  m_pages->addExamples(m_teaching->examplesMenu());
  m_teaching->setExampleOpener([this](const QString& title, const mhaviz::Config& config) {
    m_session->openExample(title, config);
  });
  connect(m_teaching->presentationAction(), &QAction::toggled, m_pages,
          &ModelPages::setPresentation);  // the bar above a model's layer is no slide
  m_compare = installCompare(this, m_document);  // Compare menu and the A | B | B - A dock
  menuBar()->addAction(help->menuAction());      // Help stays the last menu, after Compare
}


void MainWindow::addTokenPictures(const TokenDocks& tokens) {
  // File > Export image and Copy image write the token views as shown, the one worked in last
  // preselected; their Export… buttons open the dialog with them chosen.
  const auto onScreen = [](QWidget* view) {
    return [view] {
      const QSize size = view->size();
      return QSize(std::max(size.width(), 400), std::max(size.height(), 300));
    };
  };
  struct Entry {
    TokenView* view;
    QDockWidget* dock;
    QAction* toggle;
    QString name, fileBase;
    bool usesHeight;  // the text view is as tall as its text
    int picture;
  };
  for (const Entry& e : {Entry{m_headView, tokens.headDock, tokens.headToggle, tr("Head view"),
                               QStringLiteral("head_view"), true, kHeadPicture},
                         Entry{m_textView, tokens.textDock, tokens.textToggle, tr("Text view"),
                               QStringLiteral("text_view"), false, kTextPicture}}) {
    TokenView* view = e.view;
    m_exports->addPicture({e.name, e.fileBase, e.usesHeight, onScreen(view),
                           [view](const QString& path, const ExportOptions& options) {
                             return view->exportTo(path, options);
                           },
                           [view](const ExportOptions& options) {
                             const PictureSource p = view->picture(options);
                             return QSize(p.width, p.height);
                           }},
                          [dock = e.dock] { return dock->isVisible(); });
    connect(view, &TokenView::exportRequested, this, [this, picture = e.picture] {
      m_activePicture = picture;
      m_exports->exportImageDialog(picture);
    });
    // The view worked in last: the one clicked last (eventFilter) or just shown.
    view->canvas()->installEventFilter(this);
    connect(e.toggle, &QAction::triggered, this, [this, picture = e.picture](bool on) {
      m_activePicture = on ? picture : kGridPicture;
    });
  }
  m_exports->setActivePicture([this] { return m_activePicture; });
}

void MainWindow::stepStage(int delta) {
  const QList<Stage> stages = allStages();
  ViewOptions v = m_document->view();
  const auto count = static_cast<int>(stages.size());
  int i = static_cast<int>(stages.indexOf(v.stage));
  // Skip weights_before_dropout / capped_scores when the result has none (stageIn).
  for (int step = 0; step < count; ++step) {
    i = (i + delta + count) % count;
    const ResultPtr r = m_document->computed().result;
    if (r && !stageIn(stages[i], *r)) continue;
    break;
  }
  v.stage = stages[i];
  m_document->setView(v);
}

void MainWindow::installWorkspaces() {
  WorkspaceParts parts;
  parts.window = this;
  parts.pages = m_pages;
  parts.parameters = m_dock;
  parts.masks = m_maskDock;
  parts.measures = m_measuresDock;
  parts.headView = m_headViewDock;
  parts.textView = m_textViewDock;
  parts.image = m_imageViewDock;
  parts.imageWanted = [this] { return m_imageView->hasImage(); };
  parts.compare = m_compare->dock();
  parts.walkthrough = m_teaching->walkthrough();
  parts.breakdown = m_teaching->breakdown();
  parts.shapeFlow = m_teaching->shapeFlow();
  m_workspaces = new Workspaces(this, m_document, mhavizWorkspaces(parts), m_viewToolBar);
  new CentreDock(this, parts.compare);  // Compare hides the grid: A | B | B - A is the centre
  m_workspaces->addMenu(m_viewMenu);
  // Back from `from` to the workspace shown before it (Explore when that was `from` too).
  const auto back = [this](int from) {
    if (m_workspaces->current() != from) return;
    const int before = m_workspaces->previous();
    m_workspaces->setCurrent(before != from ? before : kExplore);
  };
  // Opening a model (or View > Model view) shows Model; the full view of a layer leaves it.
  connect(m_pages, &QStackedWidget::currentChanged, this, [this, back] {
    if (m_pages->showingModel()) {
      m_workspaces->setCurrent(kModel);
    } else {
      back(kModel);
    }
  });
  // Pinning A shows Compare; leaving compare mode (the user's, or a session's without A) goes
  // back, unless two model files are compared there.
  connect(m_compare, &ComparePanel::changedByUser, this, [this] {
    if (m_compare->isPinned()) m_workspaces->setCurrent(kCompare);
  });
  connect(m_document, &Document::changed, this, [this, back](Document::Changes what) {
    if ((what & Document::Change::pinned) && !m_document->pinned() &&
        !m_compare->modelCompare()->isActive()) {
      back(kCompare);
    }
  });
  // Choosing the head view or the text view shows Tokens (Model has the head view already).
  for (QDockWidget* dock : {m_headViewDock, m_textViewDock}) {
    connect(dock->toggleViewAction(), &QAction::triggered, this, [this, dock, parts](bool on) {
      const int current = m_workspaces->current();
      if (on && current == kModel && dock == m_textViewDock) {
        placeTextViewInModel(parts);  // the arrangement leaves it out
        return;
      }
      if (!on || current == kTokens || current == kModel) return;
      dock->hide();  // not part of the arrangement left
      m_workspaces->setCurrent(kTokens);
      dock->show();  // also where the user had hidden it in Tokens
    });
  }
  // Presentation mode is a slide of the grid: no tabs, no switching, the centre shown.
  connect(m_teaching->presentationAction(), &QAction::toggled, this, [this](bool on) {
    m_workspaces->setEnabled(!on);
    if (on) {
      m_pages->setVisible(true);
    } else {
      m_workspaces->reenter();
    }
  });
  installModelCompare();
}

void MainWindow::restoreLayout() {
  QSettings settings;
  const QByteArray geometry = settings.value(QStringLiteral("window/geometry")).toByteArray();
  if (geometry.isEmpty() || !restoreGeometry(geometry)) resize(1400, 900);  // first run
  // The workspace the window was closed in, with the arrangement each workspace had.
  m_workspaces->restore();
  // The window fits the screen it opens on, its title bar and borders included (unknown before
  // it is shown: room is left for them): a size remembered from a larger screen, or the first
  // run's on a 1280x720 projector, shrinks to the screen instead of running off it.
  if (const QScreen* s = screen()) {
    const QRect room = s->availableGeometry();
    const QSize decorations(16, 48);
    resize(size().boundedTo(room.size() - decorations));  // (not below the docks' minimum)
    if (!room.contains(QRect(pos(), size() + decorations))) {
      move(room.left() + std::max(0, (room.width() - width() - decorations.width()) / 2),
           room.top() + std::max(0, (room.height() - height() - decorations.height()) / 2));
    }
  }
}

void MainWindow::saveLayout() const {
  QSettings settings;
  settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
  m_workspaces->save();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  saveLayout();
  m_computation->cancel();
  QMainWindow::closeEvent(event);
}

}  // namespace mhaviz::ui
