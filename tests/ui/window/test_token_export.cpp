// Exporting the token views: File > Export image follows the view worked in last (grid, head
// view, text view), their Export… buttons open it with their view chosen, and the window's
// export of a head view or text view (chips, coverage, pinned token) is the same picture,
// pixel for pixel, as mhaviz-cli export --view head|text with the same options.

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QImage>
#include <QMenuBar>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "exporting/export_dialog.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "prompted_window.hpp"
#include "render/heatmap_grid.hpp"
#include "tokens/head_view.hpp"
#include "tokens/text_view.hpp"
#include "window/main_window.hpp"

using mhaviz::ui::ExportDialog;
using mhaviz::ui::HeadView;
using mhaviz::ui::MainWindow;
using mhaviz::ui::TextView;
using mhaviz::ui::TokenHit;

namespace {
constexpr int kTimeout = 30000;

// Runs mhaviz-cli export with `args`; its exit code (-1 when it did not run).
int runCli(const QStringList& args, QString* err) {
  QProcess cli;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
  cli.setProcessEnvironment(env);
  cli.start(QStringLiteral(MHAVIZ_CLI_EXE), QStringList{QStringLiteral("export")} + args);
  if (!cli.waitForFinished(120000)) return -1;
  *err = QString::fromUtf8(cli.readAllStandardError());
  return cli.exitCode();
}

// The same pixels: size and every pixel.
bool samePicture(const QString& a, const QString& b, QString* why) {
  const QImage x(a);
  const QImage y(b);
  if (x.isNull() || y.isNull()) {
    *why = QStringLiteral("unreadable");
    return false;
  }
  if (x.size() != y.size()) {
    *why = QStringLiteral("%1x%2 against %3x%4")
               .arg(x.width())
               .arg(x.height())
               .arg(y.width())
               .arg(y.height());
    return false;
  }
  const QImage p = x.convertToFormat(QImage::Format_ARGB32);
  const QImage q = y.convertToFormat(QImage::Format_ARGB32);
  for (int row = 0; row < p.height(); ++row) {
    for (int col = 0; col < p.width(); ++col) {
      if (p.pixel(col, row) != q.pixel(col, row)) {
        *why = QStringLiteral("pixel (%1, %2) differs").arg(col).arg(row);
        return false;
      }
    }
  }
  return true;
}

}  // namespace

class TestTokenExport : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { mhaviz::ui::testing::isolateSettings("mhaviz-token-export-tests"); }

  void init() {
    m_window = new MainWindow;
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(idle());
    mhaviz::Config config = m_window->document()->config();
    config.embed_dim = 16;
    config.num_heads = 4;
    config.tgt_len = 5;
    config.src_len = 5;
    config.add_bias_kv = true;
    config.add_zero_attn = true;
    config.query_labels = {"the", "cat", "sat", "on", "mats"};
    config.key_labels = config.query_labels;
    m_config = config;
    m_window->document()->changeConfig(config, QStringLiteral("test"));
    QVERIFY(idle());
    QFile file(m_dir.filePath(QStringLiteral("c.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(mhaviz::io::config_to_json(config)));
  }

  void cleanup() {
    delete m_window;
    m_window = nullptr;
  }

  // The head view with two heads chosen, coverage 90 % and query 2 pinned, exported by the
  // window and by the CLI with the same options: the same picture. Then the text view with
  // head 1 and query 3 pinned.
  void windowAndCliExportTheSamePicture() {
    HeadView* head = showDock<HeadView>(m_window->headViewDock());
    head->setHeadChosen(1, false);
    head->setHeadChosen(3, false);
    head->setCoverage(0.9);
    head->setPinned({TokenHit::Side::query, 2});
    mhaviz::ui::ExportOptions options;
    options.width = 700;
    options.height = 420;
    const QString window = m_dir.filePath(QStringLiteral("head-window.png"));
    QCOMPARE(head->exportTo(window, options), QString());
    const QString cli = m_dir.filePath(QStringLiteral("head-cli.png"));
    QString err;
    QCOMPARE(runCli({QStringLiteral("--config"), m_dir.filePath(QStringLiteral("c.json")),
                     QStringLiteral("--view"), QStringLiteral("head"), QStringLiteral("--heads"),
                     QStringLiteral("0,2"), QStringLiteral("--coverage"), QStringLiteral("0.9"),
                     QStringLiteral("--query"), QStringLiteral("2"), QStringLiteral("--width"),
                     QStringLiteral("700"), QStringLiteral("--height"), QStringLiteral("420"),
                     QStringLiteral("--image"), cli},
                    &err),
             0);
    QString why;
    QVERIFY2(samePicture(window, cli, &why), qPrintable(why));
    // Another state gives another picture: the comparison can fail.
    head->setPinned({});
    const QString other = m_dir.filePath(QStringLiteral("head-other.png"));
    QCOMPARE(head->exportTo(other, options), QString());
    QVERIFY(!samePicture(other, cli, &why));

    TextView* text = showDock<TextView>(m_window->textViewDock());
    text->setHead(1);
    text->setPinnedQuery(3);
    options.width = 600;
    const QString textWindow = m_dir.filePath(QStringLiteral("text-window.png"));
    QCOMPARE(text->exportTo(textWindow, options), QString());
    const QString textCli = m_dir.filePath(QStringLiteral("text-cli.png"));
    QCOMPARE(runCli({QStringLiteral("--config"), m_dir.filePath(QStringLiteral("c.json")),
                     QStringLiteral("--view"), QStringLiteral("text"), QStringLiteral("--heads"),
                     QStringLiteral("1"), QStringLiteral("--query"), QStringLiteral("3"),
                     QStringLiteral("--width"), QStringLiteral("600"), QStringLiteral("--image"),
                     textCli},
                    &err),
             0);
    QVERIFY2(samePicture(textWindow, textCli, &why), qPrintable(why));
  }

  // File > Export image preselects the view worked in last; the views' Export… buttons open it
  // with their view; the grid when the view clicked last was the grid or the dock is hidden.
  void fileExportFollowsTheActiveView() {
    HeadView* head = showDock<HeadView>(m_window->headViewDock());
    TextView* text = showDock<TextView>(m_window->textViewDock());
    QTest::mouseClick(head->canvas(), Qt::LeftButton, {}, QPoint(2, 2));
    QCOMPARE(dialogPicture(), QStringLiteral("Head view"));
    QTest::mouseClick(text->canvas(), Qt::LeftButton, {}, QPoint(2, 2));
    QCOMPARE(dialogPicture(), QStringLiteral("Text view"));
    QTest::mouseClick(m_window->grid(), Qt::LeftButton, {}, QPoint(5, 5));
    QCOMPARE(dialogPicture(), QStringLiteral("Heatmap grid"));
    QCOMPARE(dialogPicture([head] {
               for (auto* b : head->findChildren<QToolButton*>()) {
                 if (b->text().startsWith(QStringLiteral("Export"))) b->click();
               }
             }),
             QStringLiteral("Head view"));
    // The text view hidden: the grid, and the text view is not offered.
    QTest::mouseClick(text->canvas(), Qt::LeftButton, {}, QPoint(2, 2));
    m_window->textViewDock()->hide();
    QCOMPARE(dialogPicture(), QStringLiteral("Heatmap grid"));
    QVERIFY(!m_offered.contains(QStringLiteral("Text view")));
    QVERIFY(m_offered.contains(QStringLiteral("Head view")));
  }

 private:
  template <typename View>
  View* showDock(QDockWidget* dock) {
    if (!dock->isVisible()) dock->toggleViewAction()->trigger();
    if (!QTest::qWaitFor([&] { return dock->isVisible(); }, kTimeout)) qWarning("not shown");
    auto* view = dock->findChild<View*>();
    if constexpr (std::is_same_v<View, HeadView>) {
      if (!QTest::qWaitFor([view] { return !view->isDrawing(); }, kTimeout)) qWarning("drawing");
    }
    return view;
  }

  // Opens File > Export image (or runs `open`), reads the dialog's picture and the pictures
  // offered, and closes it.
  QString dialogPicture(const std::function<void()>& open = {}) {
    QString chosen;
    m_offered.clear();
    QTimer::singleShot(0, [&] {
      auto* dialog = qobject_cast<ExportDialog*>(QApplication::activeModalWidget());
      if (dialog == nullptr) return;
      auto* box = dialog->pictureBox();
      chosen = box->currentText();
      for (int i = 0; i < box->count(); ++i) m_offered << box->itemText(i);
      dialog->reject();
    });
    if (open) {
      open();
    } else {
      exportAction()->trigger();
    }
    return chosen;
  }

  QAction* exportAction() const {
    for (QAction* menu : m_window->menuBar()->actions()) {
      if (menu->menu() == nullptr) continue;
      for (QAction* a : menu->menu()->actions()) {
        if (a->text().contains(QStringLiteral("Export image"))) return a;
      }
    }
    return nullptr;
  }

  [[nodiscard]] bool idle() const {
    const bool done = QTest::qWaitFor(
        [this] {
          return !m_window->document()->computed().busy &&
                 !m_window->document()->computed().measuring && !m_window->grid()->isPreparing();
        },
        kTimeout);
    QCoreApplication::processEvents();
    return done;
  }

  MainWindow* m_window = nullptr;
  mhaviz::Config m_config;
  QTemporaryDir m_dir;
  QStringList m_offered;
};

QTEST_MAIN(TestTokenExport)
#include "test_token_export.moc"
