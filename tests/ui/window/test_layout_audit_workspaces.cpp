// The layout audit's tests: the audits find what they are for; every workspace at every size, in
// both languages, light and dark; every exported picture at DPI scale 1, 2 and 3 and as SVG.

#include "test_layout_audit.hpp"

#include <QDialogButtonBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QVBoxLayout>

#include "compare/compare_panel.hpp"
#include "compare/model_compare.hpp"
#include "desktop/language.hpp"
#include "desktop/theme.hpp"
#include "exporting/export_dialog.hpp"
#include "layout_audit.hpp"
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
using namespace mhaviz::ui::testing::layout;

namespace {

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

void TestLayoutAudit::initTestCase() {
  testing::isolateSettings("mhaviz-layout-audit-tests");
  captureSystemTheme();
}

void TestLayoutAudit::cleanupTestCase() {
  installTranslations(QLocale(QLocale::English, QLocale::UnitedStates));
  applyTheme(ThemeChoice::system);
}

// The audit itself: it finds each kind of defect it is for, and leaves alone a label that
// elides on purpose.
void TestLayoutAudit::theAuditFindsWhatItIsFor() {
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
void TestLayoutAudit::thePictureAuditFindsWhatItIsFor() {
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
  for (const char* expected : {"\"a title far wider than its box\"", "cut by its box", "\"bias_k\"",
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

void TestLayoutAudit::everyWorkspaceAtEverySize_data() {
  QTest::addColumn<QString>("language");
  QTest::newRow("English") << QStringLiteral("en_US");
  QTest::newRow("Chinese") << QStringLiteral("zh_CN");
}

void TestLayoutAudit::everyWorkspaceAtEverySize() {
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
void TestLayoutAudit::everyExportedPicture_data() { everyWorkspaceAtEverySize_data(); }

void TestLayoutAudit::everyExportedPicture() {
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
                               describeConfig(window.document()->pinned()->config, 0),
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

QTEST_MAIN(TestLayoutAudit)
