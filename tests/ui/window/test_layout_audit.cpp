// The layout audit (issue 40; layout_audit.hpp and picture_audit.hpp say what it checks): every
// workspace at 1280x720, 1600x1000 and 1920x1080, in English and Simplified Chinese, light and
// dark, on representative states, the text the grids draw themselves, each workspace's main
// picture given the room the workspace promises; and every exported picture (grid, one head,
// head view, text view, compare's B - A) at DPI scale 1, 2 and 3 and as SVG.
//
// The states (chosen for what they put on screen, not every combination of everything, to keep
// the run short): 8 heads with add_bias_kv + add_zero_attn and token labels, A pinned and B
// changed (Explore, Tokens, Compare, Teach: every dock of theirs filled: head measures, head
// and text views, A | B | B - A, walk-through); 16 heads (Explore and Teach, the grid's most
// maps); the bundled reversing model (Model: the layers x heads grid, its head measures and
// head view of the selected layer). The light/dark pass changes only the palette, so it runs at
// the middle size; the three sizes run in both languages.

#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include "compare/compare_panel.hpp"
#include "compare/model_compare.hpp"
#include "desktop/language.hpp"
#include "desktop/theme.hpp"
#include "exporting/export_dialog.hpp"
#include "layout_audit.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "picture_audit.hpp"
#include "prompted_window.hpp"
#include "render/head_measures_view.hpp"
#include "render/heatmap_grid.hpp"
#include "teach/teach_docks.hpp"
#include "teach/teaching_tools.hpp"
#include "tokens/head_view.hpp"
#include "tokens/text_view.hpp"
#include "window/workspace_arrangements.hpp"
#include "window/workspaces.hpp"

using namespace mhaviz::ui;

namespace {

constexpr int kTimeout = 60000;

const QList<QSize> kSizes = {QSize(1280, 720), QSize(1600, 1000), QSize(1920, 1080)};

constexpr const char* kEightHeads =
    R"({"embed_dim": 32, "num_heads": 8, "tgt_len": 7, "src_len": 7, "seed": 3,
        "add_bias_kv": true, "add_zero_attn": true,
        "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"},
        "query_labels": ["the", "cat", "sat", "on", "the", "warm", "mat"],
        "key_labels": ["the", "cat", "sat", "on", "the", "warm", "mat"],
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})";
constexpr const char* kSixteenHeads =
    R"({"embed_dim": 64, "num_heads": 16, "tgt_len": 12, "src_len": 12, "seed": 3,
        "add_bias_kv": true, "add_zero_attn": true,
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})";

QString themeName(ThemeChoice theme) {
  return theme == ThemeChoice::dark ? QStringLiteral("dark") : QStringLiteral("light");
}

}  // namespace

class TestLayoutAudit : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    testing::isolateSettings("mhaviz-layout-audit-tests");
    captureSystemTheme();
  }

  void cleanupTestCase() {
    installTranslations(QLocale(QLocale::English, QLocale::UnitedStates));
    applyTheme(ThemeChoice::system);
  }

  // The audit itself: it finds each kind of defect it is for, and leaves alone a label that
  // elides on purpose.
  void theAuditFindsWhatItIsFor() {
    QMainWindow window;
    auto* centre = new QWidget;
    auto* column = new QVBoxLayout(centre);
    auto* clipped = new QLabel(QStringLiteral("entropy / log(open keys)"));
    clipped->setFixedWidth(40);
    auto* button = new QPushButton(QStringLiteral("Leave compare mode"));
    button->setFixedWidth(30);
    auto* wrapped =
        new QLabel(QStringLiteral("This result has no head measures: it was reduced "
                                  "to fit the memory limit."));
    wrapped->setWordWrap(true);
    wrapped->setFixedSize(80, 20);
    auto* elided = new QLabel(QStringLiteral("layer 0 (blocks.0\u2026"));
    elided->setToolTip(QStringLiteral("layer 0 (blocks.0.attn)"));
    elided->setFixedWidth(20);
    auto* view = new QLabel(QStringLiteral("a view"));
    view->setFixedSize(10, 5);
    for (QWidget* w : QList<QWidget*>{clipped, button, wrapped, elided, view}) column->addWidget(w);
    window.setCentralWidget(centre);
    auto* dock = new QDockWidget(QStringLiteral("Head measures"), &window);
    auto* scroll = new QScrollArea;
    auto* wide = new QWidget;
    wide->setMinimumSize(900, 50);
    scroll->setWidget(wide);
    scroll->setWidgetResizable(true);
    dock->setWidget(scroll);
    window.addDockWidget(Qt::RightDockWidgetArea, dock);
    window.resize(700, 400);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString found = testing::auditLayout(window, {view}).join('\n');
    for (const char* expected :
         {"QLabel \"entropy / log(open keys)\" in the window: text",
          "QPushButton \"Leave compare mode\" in the window: text needs",
          "QLabel \"This result has no head measures", "cut at the bottom",
          "is 10x5, smaller than its minimum", "in dock \"Head measures\" scrolls sideways"}) {
      QVERIFY2(found.contains(QLatin1String(expected)), qPrintable(expected + ("\nin:\n" + found)));
    }
    QVERIFY2(!found.contains(QStringLiteral("blocks.0")), qPrintable(found));
  }

  // The picture audit finds a text cut by its box, one leaving the canvas and one drawn over
  // another (legend ticks), and a PNG or SVG whose size is not the one announced.
  void thePictureAuditFindsWhatItIsFor() {
    PictureSource planted;
    planted.width = 200;
    planted.height = 100;
    planted.paint = [](QPainter& painter, bool) {
      painter.setFont(pictureFont());
      painter.drawText(QRectF(8, 4, 40, 20), Qt::AlignLeft | Qt::AlignVCenter,
                       QStringLiteral("a title far wider than its box"));
      painter.drawText(QPointF(180, 60), QStringLiteral("bias_k"));
      painter.drawText(QPointF(20, 80), QStringLiteral("0.75"));
      painter.drawText(QPointF(24, 82), QStringLiteral("1"));
    };
    ExportOptions options;
    options.scale = 2;
    const QString found = testing::auditPictureLayout(planted, options, QStringLiteral("planted"))
                              .join(QLatin1Char('\n'));
    for (const char* expected :
         {"\"a title far wider than its box\"", "cut by its box", "\"bias_k\"",
          "leaves the 200x100 canvas", "\"1\"", "drawn over \"0.75\""}) {
      QVERIFY2(found.contains(QLatin1String(expected)), qPrintable(expected + ("\nin:\n" + found)));
    }
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("p.png"));
    const QString svg = dir.filePath(QStringLiteral("p.svg"));
    QCOMPARE(writePicture(png, planted, options), QString());
    QCOMPARE(writePicture(svg, planted, options), QString());
    QVERIFY(testing::auditPngFile(png, {200, 100}, 2, QStringLiteral("p")).isEmpty());
    QVERIFY(!testing::auditPngFile(png, {200, 150}, 2, QStringLiteral("p")).isEmpty());
    QVERIFY(!testing::auditSvgFile(svg, {200, 150}, QStringLiteral("p")).isEmpty());
    const QString svgFound = testing::auditSvgFile(svg, {200, 100}, QStringLiteral("p")).join('\n');
    QVERIFY2(svgFound.contains(QStringLiteral("SVG text \"bias_k\"")), qPrintable(svgFound));
  }

  void everyWorkspaceAtEverySize_data() {
    QTest::addColumn<QString>("language");
    QTest::newRow("English") << QStringLiteral("en_US");
    QTest::newRow("Chinese") << QStringLiteral("zh_CN");
  }

  void everyWorkspaceAtEverySize() {
    QFETCH(QString, language);
    m_problems.clear();
    QElapsedTimer clock;
    clock.start();
    QSettings().clear();
    QVERIFY(installTranslations(QLocale(language)) || language == QStringLiteral("en_US"));
    applyTheme(ThemeChoice::light);
    testing::PromptedWindow w;
    w.answer = UnsavedAnswer::discard;  // opening the model over the changed session
    MainWindow& window = w.window;
    window.resize(kSizes[1]);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    Workspaces* ws = window.workspaces();

    // 8 heads, A pinned, then B changed: every dock of Explore, Tokens, Compare and Teach full.
    setConfig(w, kEightHeads);
    window.comparePanel()->pin();
    ws->setCurrent(kExplore);
    QVERIFY(window.panel() != nullptr);
    mhaviz::Config b = w.document()->config();
    b.add_zero_attn = false;
    w.document()->changeConfig(b, QStringLiteral("audit"));
    QVERIFY(w.idle());
    QTRY_VERIFY_WITH_TIMEOUT(window.comparePanel()->isUpToDate(), kTimeout);
    window.headViewDock()->toggleViewAction()->trigger();  // the head and text views filled
    QCOMPARE(ws->current(), int(kTokens));
    for (int workspace : {kExplore, kTokens, kCompare, kTeach}) {
      auditAtEverySize(w, workspace, QStringLiteral("8 heads"));
    }
    // Light and dark at the middle size.
    for (ThemeChoice theme : {ThemeChoice::dark, ThemeChoice::light}) {
      applyTheme(theme);
      for (int workspace : {kExplore, kTokens, kCompare, kTeach}) {
        audit(w, workspace, kSizes[1], QStringLiteral("8 heads, %1").arg(themeName(theme)));
      }
    }
    window.comparePanel()->unpin();

    setConfig(w, kSixteenHeads);
    for (int workspace : {kExplore, kTeach}) {
      auditAtEverySize(w, workspace, QStringLiteral("16 heads"));
    }

    ModelView* model = window.pages()->modelView();
    QVERIFY(window.pages()->openModelExample(QStringLiteral("reverse")));
    QTRY_VERIFY_WITH_TIMEOUT(model->loaded() != nullptr && !model->picture().isNull(), kTimeout);
    QVERIFY(w.idle());
    window.pages()->selectLayer(1, 3);
    QVERIFY(w.idle());
    QCOMPARE(ws->current(), int(kModel));
    auditAtEverySize(w, kModel, QStringLiteral("model"));
    applyTheme(ThemeChoice::dark);
    audit(w, kModel, kSizes[1], QStringLiteral("model, dark"));
    applyTheme(ThemeChoice::light);
    // The model compared with a file (here its own): A | B | B - A and the table in Compare.
    ModelCompare* files = window.comparePanel()->modelCompare();
    files->compareWith(QString::fromStdString(model->loaded()->model.index.path.string()));
    QTRY_VERIFY_WITH_TIMEOUT(files->isUpToDate() && files->difference() != nullptr, kTimeout);
    QCOMPARE(ws->current(), int(kCompare));
    auditAtEverySize(w, kCompare, QStringLiteral("two model files compared"));
    files->close();

    report(m_problems);
    QVERIFY2(m_problems.isEmpty(), qPrintable(QStringLiteral("\n") + m_problems.join('\n')));
    qInfo("%s: audited in %lld ms", qPrintable(language), clock.elapsed());
  }

  // The exported pictures (picture_audit.hpp): the grid, one head, the head view and the text
  // view, each written through the export dialog as PNG at DPI scale 1, 2 and 3 and as SVG:
  // every text inside the canvas and uncut, and the size the dialog announced the file's.
  void everyExportedPicture_data() { everyWorkspaceAtEverySize_data(); }

  void everyExportedPicture() {
    QFETCH(QString, language);
    QElapsedTimer clock;
    clock.start();
    QSettings().clear();
    QVERIFY(installTranslations(QLocale(language)) || language == QStringLiteral("en_US"));
    applyTheme(ThemeChoice::light);
    testing::PromptedWindow w;
    MainWindow& window = w.window;
    window.resize(kSizes[0]);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    setConfig(w, kEightHeads);
    window.workspaces()->setCurrent(kTokens);  // the head and text views shown
    QTRY_VERIFY(window.workspaces()->isSettled());
    QVERIFY(window.headViewDock()->isVisible() && window.textViewDock()->isVisible());
    window.textView()->setPinnedQuery(5);
    QVERIFY(QTest::qWaitFor([&] { return !window.headView()->isDrawing(); }, kTimeout));
    QTemporaryDir dir;
    dir.setAutoRemove(!qEnvironmentVariableIsSet("AUDIT_KEEP_PICTURES"));  // to look at them
    if (!dir.autoRemove()) qInfo("pictures in %s", qPrintable(dir.path()));
    QStringList problems;
    // The dialog's pictures with both token views shown: the grid, the head view, the text view.
    constexpr int kGridPicture = -1, kHeadPicture = 0, kTextPicture = 1;
    struct Picture {
      const char* name;
      int picture;  // the dialog's: -1 the grid
      int head;     // the grid's head, -1: all
    };
    for (const Picture& p :
         {Picture{"grid", kGridPicture, -1}, Picture{"one_head", kGridPicture, 0},
          Picture{"head_view", kHeadPicture, -1}, Picture{"text_view", kTextPicture, -1}}) {
      for (const QString& format : {QStringLiteral("png"), QStringLiteral("svg")}) {
        for (double scale : {1.0, 2.0, 3.0}) {
          if (format == QLatin1String("svg") && scale > 1) break;  // the scale is PNG's
          const QString what = QStringLiteral("%1 %2 at scale %3 (%4)")
                                   .arg(QLatin1String(p.name), format)
                                   .arg(scale)
                                   .arg(language);
          const QString path = dir.filePath(
              QStringLiteral("%1_%2.%3").arg(QLatin1String(p.name)).arg(scale).arg(format));
          QSize announced;
          ExportOptions options;
          QTimer::singleShot(0, &window, [&] {
            auto* dialog = qobject_cast<ExportDialog*>(QApplication::activeModalWidget());
            if (dialog == nullptr) return;
            dialog->setPicture(p.picture);
            if (p.picture == kGridPicture) {
              dialog->setHead(p.head);
              dialog->setPixelSize(900, 560);
            }
            dialog->setFormat(format);
            dialog->setScale(scale);
            dialog->setPath(path);
            announced = dialog->fileSize();
            options = dialog->exportOptions();
            for (QAbstractButton* b : dialog->findChild<QDialogButtonBox*>()->buttons()) {
              if (dialog->findChild<QDialogButtonBox*>()->buttonRole(b) ==
                  QDialogButtonBox::AcceptRole) {
                b->click();
              }
            }
          });
          emit window.headView()->exportRequested();
          if (announced.isEmpty()) {
            problems << what + QStringLiteral(": the export dialog did not open");
            continue;
          }
          problems << (format == QLatin1String("png")
                           ? testing::auditPngFile(path, announced, scale, what)
                           : testing::auditSvgFile(path, announced, what));
          if (format == QLatin1String("png") && p.picture == kHeadPicture) {
            problems << testing::auditPictureLayout(window.headView()->picture(options), options,
                                                    what);
          } else if (format == QLatin1String("png") && p.picture == kTextPicture) {
            problems << testing::auditPictureLayout(window.textView()->picture(options), options,
                                                    what);
          }
        }
      }
    }
    // Compare's B - A, titled as its Export button titles it (both sides described).
    window.comparePanel()->pin();
    mhaviz::Config b = w.document()->config();
    b.add_zero_attn = false;
    w.document()->changeConfig(b, QStringLiteral("audit"));
    QVERIFY(w.idle());
    QTRY_VERIFY_WITH_TIMEOUT(window.comparePanel()->isUpToDate(), kTimeout);
    const CompareData& compared = window.comparePanel()->data();
    QVERIFY(compared.ok());
    const ViewOptions view = w.document()->view();
    for (const QString& format : {QStringLiteral("png"), QStringLiteral("svg")}) {
      for (double scale : {1.0, 2.0, 3.0}) {
        if (format == QLatin1String("svg") && scale > 1) break;
        ExportOptions options;
        options.width = 1200;
        options.height = 500;
        options.scale = scale;
        options.title = ComparePanel::tr("B \u2212 A, %1 \u2014 A: %2; B: %3")
                            .arg(shownStageName(view.stage),
                                 describeConfig(window.comparePanel()->resultA()->config, 0),
                                 describeConfig(window.comparePanel()->resultB()->config, 0));
        const QString what =
            QStringLiteral("B - A %1 at scale %2 (%3)").arg(format).arg(scale).arg(language);
        const QString path = dir.filePath(QStringLiteral("diff_%1.%2").arg(scale).arg(format));
        QCOMPARE(exportStageImage(compared.diff, view, options, path), QString());
        problems << (format == QLatin1String("png")
                         ? testing::auditPngFile(path, {options.width, options.height}, scale, what)
                         : testing::auditSvgFile(path, {options.width, options.height}, what));
      }
    }
    window.comparePanel()->unpin();
    report(problems);
    QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("\n") + problems.join('\n')));
    qInfo("%s: pictures audited in %lld ms", qPrintable(language), clock.elapsed());
  }

 private:
  // AUDIT_REPORT=FILE: every problem found, one a line, appended to FILE (QTest's message is
  // cut short).
  static void report(const QStringList& problems) {
    const QString path = qEnvironmentVariable("AUDIT_REPORT");
    if (path.isEmpty()) return;
    QFile file(path);
    if (file.open(QIODevice::Append | QIODevice::Text)) {
      for (const QString& p : problems) file.write((p + QLatin1Char('\n')).toUtf8());
    }
  }

  static bool onScreenTab(const QMainWindow& window, const QDockWidget* dock) {
    return dock->isVisible() && window.rect().intersects(dock->geometry());
  }

  static void setConfig(testing::PromptedWindow& w, const char* json) {
    w.document()->changeConfig(mhaviz::io::parse_config_json(json, "audit"),
                               QStringLiteral("audit"));
    QVERIFY(w.idle());
  }

  void auditAtEverySize(testing::PromptedWindow& w, int workspace, const QString& state) {
    for (const QSize& size : kSizes) audit(w, workspace, size, state);
  }

  // Shows `workspace` at `size` with its default arrangement, lets the layout and the pictures
  // settle, and records what the audit finds, with where.
  void audit(testing::PromptedWindow& w, int workspace, const QSize& size, const QString& state) {
    QElapsedTimer t;
    t.start();
    MainWindow& window = w.window;
    window.resize(size);
    QTRY_COMPARE(window.size(), size);
    Workspaces* ws = window.workspaces();
    ws->setCurrent(workspace);
    ws->resetLayout();  // each size's own default
    QTRY_VERIFY(ws->isSettled());
    QVERIFY(testing::pictureSettled(*window.grid()));
    QVERIFY(QTest::qWaitFor([&] { return !window.headView()->isDrawing(); }, kTimeout));
    if (qEnvironmentVariableIsSet("AUDIT_GEOMETRY")) {
      for (QDockWidget* d : window.findChildren<QDockWidget*>()) {
        if (d->isVisible())
          qInfo("%s %d,%d %dx%d min %dx%d", qPrintable(d->windowTitle()), d->x(), d->y(),
                d->width(), d->height(), d->minimumSizeHint().width(),
                d->minimumSizeHint().height());
      }
      QWidget* c = window.centralWidget();
      qInfo("centre %d,%d %dx%d min %dx%d", c->x(), c->y(), c->width(), c->height(),
            c->minimumSizeHint().width(), c->minimumSizeHint().height());
    }
    const QString where = QStringLiteral("%1 at %2x%3, %4, %5: ")
                              .arg(ws->workspace(workspace).name)
                              .arg(size.width())
                              .arg(size.height())
                              .arg(activeLanguage(), state);
    QList<const QWidget*> views = {window.grid(),
                                   window.headView(),
                                   window.textView(),
                                   window.pages()->modelView(),
                                   window.comparePanel(),
                                   window.headMeasures(),
                                   window.comparePanel()->gridB()};
    for (const QString& p : testing::auditLayout(window, views)) m_problems << where + p;
    // AUDIT_SHOTS=DIR: each state's picture, to look at.
    if (const QString shots = qEnvironmentVariable("AUDIT_SHOTS"); !shots.isEmpty()) {
      QString name = where;
      name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]+")), QStringLiteral("_"));
      window.grab().save(QDir(shots).filePath(name + QStringLiteral(".png")));
    }
    // The grids' own text (titles, ticks, legend), drawn by the plot rather than by widgets.
    for (HeatmapGrid* grid : {window.grid(), window.comparePanel()->gridA(),
                              window.comparePanel()->gridB(), window.comparePanel()->gridDiff()}) {
      if (!grid->isVisible() || !testing::onScreen(grid, window) || grid->mapCount() == 0) continue;
      for (const QString& p : testing::auditPlotTexts(grid->plot(), grid->objectName())) {
        m_problems << where + p;
      }
    }
    // The tabs behind: Masks and inputs, the shape flow, the parameters in Teach.
    for (QDockWidget* behind : QList<QDockWidget*>{
             window.maskDock(), window.teaching()->shapeFlow(), window.parameterDock()}) {
      if (!behind->isVisible()) continue;
      QDockWidget* front = nullptr;  // the tab in front, raised again after
      for (QDockWidget* tab : window.tabifiedDockWidgets(behind)) {
        if (onScreenTab(window, tab)) front = tab;
      }
      if (front == nullptr) continue;
      behind->raise();
      QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
      QCoreApplication::processEvents();  // the events the layout posted (scroll bar ranges)
      for (const QString& p : testing::auditLayout(window, views)) {
        if (!m_problems.contains(where + p)) m_problems << where + p;
      }
      front->raise();
      QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    }
    m_problems << measuresProblems(window, where);
    // Issue 40 defects 5 and 6: hiding and showing a dock, as a user does (View menu, the
    // toolbar's toggles), leaves every dock its minimum size: the head measures were squeezed to
    // ~55 px after it.
    // A dock the workspace hides (the text view in Model) shown, then hidden again, the same.
    for (QDockWidget* dock : {window.headViewDock(), window.textViewDock(), window.measuresDock()}) {
      if (dock->isVisible() && !testing::onScreen(dock, window)) continue;  // a tab behind
      const bool shown = dock->isVisible();
      // Showing a token view from Explore, Compare or Teach shows Tokens, audited on its own.
      if (!shown && dock != window.measuresDock() && workspace != kModel && workspace != kTokens)
        continue;
      const QString toggled =
          QStringLiteral("after %1 \"%2\": ")
              .arg(shown ? QStringLiteral("hiding and showing") : QStringLiteral("showing"),
                   dock->windowTitle());
      const auto settle = [&] {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
        // A wrong arrangement shows as the window growing past the screen: wait for that, or
        // 50 ms without it.
        (void)QTest::qWaitFor([&] { return window.size() != size; }, 50);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
      };
      dock->toggleViewAction()->trigger();
      settle();
      if (shown) {
        dock->toggleViewAction()->trigger();
        settle();
      }
      QVERIFY(QTest::qWaitFor([&] { return !window.headView()->isDrawing(); }, kTimeout));
      if (qEnvironmentVariableIsSet("AUDIT_GEOMETRY")) {
        for (QDockWidget* d : window.findChildren<QDockWidget*>()) {
          if (d->isVisible())
            qInfo("toggled %s %d,%d %dx%d min %dx%d", qPrintable(d->windowTitle()), d->x(), d->y(),
                  d->width(), d->height(), d->minimumSizeHint().width(),
                  d->minimumSizeHint().height());
        }
      }
      if (window.size() != size) {
        m_problems << where + toggled +
                          QStringLiteral("the window grew to %1x%2, past the screen's %3x%4")
                              .arg(window.width())
                              .arg(window.height())
                              .arg(size.width())
                              .arg(size.height());
      }
      for (const QString& p : testing::auditLayout(window, views)) {
        m_problems << where + toggled + p;
      }
      for (const QString& p : measuresProblems(window, QString())) m_problems << where + toggled + p;
      if (!shown) {
        dock->toggleViewAction()->trigger();
        settle();
      }
      window.resize(size);
      ws->resetLayout();
      QTRY_VERIFY(ws->isSettled());
    }
    // The tabs all shown.
    QTabBar* tabs = ws->tabBar();
    if (tabs->width() + 1 < tabs->sizeHint().width()) {
      m_problems << where + QStringLiteral("the workspace tabs need %1 px, have %2")
                                .arg(tabs->sizeHint().width())
                                .arg(tabs->width());
    }
    // The workspace's picture has the room it promises.
    const double area = double(size.width()) * size.height();
    const auto shareOf = [area](const QWidget* widget) {
      return widget->isVisible() ? widget->width() * double(widget->height()) / area : 0.0;
    };
    double picture = 0;
    double wanted = 0;
    switch (workspace) {
      case kExplore:
      case kTeach:
        picture = shareOf(window.centralWidget());
        wanted = workspace == kExplore ? 0.40 : 0.35;
        break;
      case kTokens:
        picture = shareOf(window.headViewDock()) + shareOf(window.textViewDock());
        wanted = 0.55;
        break;
      case kCompare:
        picture = shareOf(window.comparePanel()->dock());
        wanted = 0.55;
        break;
      case kModel:
        picture = shareOf(window.centralWidget());
        wanted = 0.45;
        break;
      default:
        break;
    }
    if (picture < wanted) {
      m_problems << where + QStringLiteral("its picture has %1% of the window, less than %2%")
                                .arg(qRound(picture * 100))
                                .arg(qRound(wanted * 100));
    }
  }

  // The head measures draw their own text: each inside the view, none cut; the view as tall as
  // its bars and texts need (its scroll area scrolls); the dock shows at least the heading and
  // every head's bar of the first measure.
  static QStringList measuresProblems(const MainWindow& window, const QString& where) {
    QStringList problems;
    const HeadMeasuresView* view = window.headMeasures();
    if (!view->isVisible() || !testing::onScreen(view, window)) return problems;
    const HeadMeasuresView::Layout layout = view->layoutAt(view->width());
    if (view->height() + 1 < layout.height) {
      problems << where + QStringLiteral("the head measures are %1 px tall, their content %2")
                              .arg(view->height())
                              .arg(layout.height);
    }
    for (const HeadMeasuresView::TextBox& t : layout.texts) {
      QFont f = view->font();
      f.setBold(t.bold);
      const QRect needed =
          QFontMetrics(f).boundingRect(QRect(0, 0, t.rect.width(), 100000), t.flags, t.text);
      if (t.rect.left() < 0 || t.rect.right() >= view->width() ||
          needed.width() > t.rect.width() + 1 || needed.height() > t.rect.height() + 1) {
        problems << where + QStringLiteral("the head measures' \"%1\" is cut (%2x%3 in %4x%5)")
                                .arg(t.text)
                                .arg(needed.width())
                                .arg(needed.height())
                                .arg(t.rect.width())
                                .arg(t.rect.height());
      }
    }
    const auto* scroll = qobject_cast<const QScrollArea*>(window.measuresDock()->widget());
    const QWidget* port = scroll != nullptr ? scroll->viewport() : view->parentWidget();
    if (port->height() + 1 < layout.firstSection) {
      problems << where + QStringLiteral("the head measures dock shows %1 px, less than the "
                                         "heading and the first measure (%2 px)")
                              .arg(port->height())
                              .arg(layout.firstSection);
    }
    return problems;
  }

  QStringList m_problems;
};

QTEST_MAIN(TestLayoutAudit)
#include "test_layout_audit.moc"
