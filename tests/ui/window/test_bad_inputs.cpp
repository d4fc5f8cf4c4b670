// The bad input catalogue through the window (QtTest, offscreen): every row of
// tests/catalogue/bad_inputs.json that the window can receive is fed to a MainWindow the way a
// user would (File > Open of a configuration or session, File > Load tensors, File > Save, the
// model view's controls), and the message must appear where the catalogue says: inline (the
// parameter panel's red line, the last picture kept and marked out of date; the model view's
// message beside the model it keeps), in the File action's warning dialog, or as a status bar
// warning beside a computed result. No row may crash, freeze or leave a modal open.

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "catalogue/catalogue.hpp"
#include "compute/computation.hpp"
#include "document/document.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "prompted_window.hpp"
#include "session/autosave.hpp"
#include "session/recent_files.hpp"
#include "session/session_files.hpp"
#include "window/main_window.hpp"
#include "window/parameter_panel.hpp"

using namespace mhaviz::ui;
using mhaviz::catalogue::Row;

namespace {

constexpr int kTimeout = 30000;

/// A prompted window (prompts record instead of opening message boxes) that also records and
/// closes any modal widget that opens anyway.
struct QuietWindow : testing::PromptedWindow {
  QStringList modals;  // titles of modal widgets that opened (must stay empty)
  QTimer watchdog;

  QuietWindow() {
    answer = UnsavedAnswer::discard;
    recover = false;
    watchdog.setInterval(50);
    QObject::connect(&watchdog, &QTimer::timeout, [this] {
      if (QWidget* modal = QApplication::activeModalWidget()) {
        modals << modal->windowTitle();
        modal->close();
      }
    });
    watchdog.start();
  }
};

Row findRow(const QString& id) {
  for (const Row& row : mhaviz::catalogue::loadRows()) {
    if (QString::fromStdString(row.id) == id) return row;
  }
  qFatal("no catalogue row %s", qPrintable(id));
}

QString path(const std::filesystem::path& p) { return QString::fromStdString(p.string()); }

/// Empty when `text` holds every fragment; else the first one missing, for the failure message.
QString missingFragment(const QString& text, const std::vector<std::string>& fragments) {
  for (const std::string& f : fragments) {
    if (!text.contains(QString::fromStdString(f))) return QString::fromStdString(f);
  }
  return {};
}

}  // namespace

class TestBadInputs : public QObject {
  Q_OBJECT

  /// A model opened (the row's index for model_flow, the bundled "reverse" for model_sink_eps),
  /// then the model view asked for the attention flow, or `value` typed as the sink threshold:
  /// the message appears in the model view, which keeps the model.
  static void modelViewShowsTheMessage(QuietWindow& w, const mhaviz::catalogue::WindowCase& expect,
                                       const QString& index) {
    QVERIFY(expect.shows == "inline");
    ModelView* view = w.window.pages()->modelView();
    if (expect.via == "model_flow") {
      QVERIFY(w.session()->open(index));
    } else {
      QVERIFY(w.window.pages()->openModelExample(QStringLiteral("reverse")));
    }
    QTRY_VERIFY_WITH_TIMEOUT(view->loaded() != nullptr && !view->picture().isNull(), kTimeout);
    QString message;
    if (expect.via == "model_flow") {
      view->setMode(ModelMode::flow);
      QTRY_VERIFY_WITH_TIMEOUT(!view->error().isEmpty(), kTimeout);
      message = view->error();
    } else {
      const QString before = view->modes()->sinkRateText();
      view->modes()->enterSinkEps(QString::fromStdString(expect.value));
      message = view->modes()->sinkEpsError();
      QCOMPARE(view->modes()->sinkRateText(), before);
    }
    const QString missing = missingFragment(message, expect.fragments);
    QVERIFY2(missing.isEmpty(),
             qPrintable(QStringLiteral("model view \"%1\" lacks \"%2\"").arg(message, missing)));
    QVERIFY(view->loaded() != nullptr);
    QVERIFY(w.errors.isEmpty());
    QVERIFY2(w.modals.isEmpty(), qPrintable(w.modals.join(QStringLiteral(", "))));
  }

 private slots:
  void initTestCase() { testing::isolateSettings("mhaviz-bad-input-tests"); }

  void windowShowsTheMessage_data() {
    QTest::addColumn<QString>("id");
    for (const Row& row : mhaviz::catalogue::loadRows()) {
      if (row.window) QTest::newRow(row.id.c_str()) << QString::fromStdString(row.id);
    }
  }

  void windowShowsTheMessage() {
    QFETCH(QString, id);
    const Row row = findRow(id);
    const auto& expect = *row.window;
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const auto files =
        mhaviz::catalogue::writeRowFiles(row.id, std::filesystem::path(tmp.path().toStdString()));
    const QDir dir(path(files.dir));

    QuietWindow w;
    QVERIFY(w.idle());
    if (expect.via == "model_flow" || expect.via == "model_sink_eps") {
      modelViewShowsTheMessage(w, expect, path(files.config));
      return;
    }
    if (expect.via == "load_tensors") {
      // The configuration the tensors are meant for is opened first and computes.
      QVERIFY(w.session()->open(path(files.config)));
      QVERIFY(w.idle());
      QVERIFY2(w.document()->computed().error.isEmpty(),
               qPrintable(w.document()->computed().error));
    }
    const mhaviz::Config configBefore = w.document()->config();

    bool accepted = false;
    if (expect.via == "open_config") {
      accepted = w.session()->open(path(files.config));
    } else if (expect.via == "load_tensors") {
      accepted = w.session()->loadTensors(path(files.tensors));
    } else if (expect.via == "open_weights") {  // File > Open of plain arrays
      accepted = w.session()->open(path(files.tensors));
    } else if (expect.via == "open_session") {
      accepted = w.session()->open(path(files.session));
    } else if (expect.via == "open_missing") {
      accepted = w.session()->open(dir.filePath(QStringLiteral("missing.json")));
    } else if (expect.via == "load_missing") {
      accepted = w.session()->loadTensors(dir.filePath(QStringLiteral("gone.npz")));
    } else if (expect.via == "save_unwritable") {
      accepted = w.session()->saveTo(dir.filePath(QStringLiteral("no/such/dir/s.mhaviz.json")));
    }
    // Let queued results, failures and repaints arrive.
    QTRY_VERIFY_WITH_TIMEOUT(!w.document()->computed().busy, kTimeout);

    auto* label = w.window.panel()->errorLine();
    QVERIFY(label != nullptr);
    if (expect.shows == "model_view") {
      // A model index or plain arrays: read in the background, the failure shown in red in the
      // model view.
      QVERIFY(accepted);
      ModelView* view = w.window.pages()->modelView();
      QVERIFY(w.window.pages()->showingModel());
      QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy(), kTimeout);
      const QString error = view->error();
      const QString missing = missingFragment(error, expect.fragments);
      QVERIFY2(missing.isEmpty(),
               qPrintable(QStringLiteral("model view \"%1\" lacks \"%2\"").arg(error, missing)));
      QVERIFY(w.errors.isEmpty());
      QVERIFY(view->loaded() == nullptr);
      // The session is untouched.
      QVERIFY(w.document()->config() == configBefore);
    } else if (expect.shows == "dialog") {
      QVERIFY2(!accepted, "a file the window refuses must report failure");
      QCOMPARE(w.errors.size(), 1);
      const QString missing = missingFragment(w.errors.front(), expect.fragments);
      QVERIFY2(
          missing.isEmpty(),
          qPrintable(QStringLiteral("dialog \"%1\" lacks \"%2\"").arg(w.errors.front(), missing)));
      // Nothing else changed: same settings, no inline error, the picture still current.
      QVERIFY(w.document()->config() == configBefore);
      QVERIFY(w.document()->computed().error.isEmpty());
      QVERIFY(!w.document()->computed().outOfDate);
    } else if (expect.shows == "inline") {
      QVERIFY(accepted);
      QTRY_VERIFY_WITH_TIMEOUT(!w.document()->computed().error.isEmpty(), kTimeout);
      const QString error = w.document()->computed().error;
      const QString missing = missingFragment(error, expect.fragments);
      QVERIFY2(missing.isEmpty(),
               qPrintable(QStringLiteral("inline \"%1\" lacks \"%2\"").arg(error, missing)));
      QVERIFY(w.errors.isEmpty());
      QCOMPARE(label->text(), error);
      QVERIFY(!label->isHidden());
      // The last good picture stays, marked out of date.
      QVERIFY(w.document()->computed().result != nullptr);
      QVERIFY(w.document()->computed().outOfDate);
    } else if (expect.shows == "warning") {
      QVERIFY(accepted);
      QVERIFY(w.idle());
      QVERIFY2(w.document()->computed().error.isEmpty(),
               qPrintable(w.document()->computed().error));
      QVERIFY(w.errors.isEmpty());
      QVERIFY(label->isHidden());
      const QString message = w.window.statusBar()->currentMessage();
      const QString missing = missingFragment(message, expect.fragments);
      QVERIFY2(missing.isEmpty(),
               qPrintable(QStringLiteral("status \"%1\" lacks \"%2\"").arg(message, missing)));
    } else {
      QFAIL("unknown window.shows");
    }
    QVERIFY2(w.modals.isEmpty(), qPrintable(w.modals.join(QStringLiteral(", "))));
  }
};

QTEST_MAIN(TestBadInputs)
#include "test_bad_inputs.moc"
