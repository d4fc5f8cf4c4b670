// The window under real use: typed numbers commit once, size changes keep the user's masks,
// padding and labels, the memory guard runs first, the wheel scrolls instead of changing
// fields, errors do not move fields, walk-through keys work anywhere (issue 15).

#include <QAbstractSpinBox>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStyle>
#include <QStyleOptionButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QWheelEvent>

#include <qcustomplot.h>
#include "../document/announced.hpp"
#include "compute/computation.hpp"
#include "document/document.hpp"
#include "editors/padding_editor.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/plan/memory.hpp"
#include "prompted_window.hpp"
#include "render/heatmap_grid.hpp"
#include "session/command_line.hpp"
#include "session/session_files.hpp"
#include "teach/teach_docks.hpp"
#include "teach/teaching_tools.hpp"
#include "window/main_window.hpp"
#include "window/parameter_panel.hpp"
#include "window/status_widgets.hpp"
#include "window_test.hpp"

using mhaviz::Config;
using mhaviz::gen::MaskCell;
using mhaviz::gen::MaskKind;
using mhaviz::gen::PaddingKind;
using mhaviz::ui::Computation;
using mhaviz::ui::Document;
using mhaviz::ui::MainWindow;
using mhaviz::ui::testing::Announced;

class TestPanelUse : public mhaviz::ui::testing::WindowTest {
  Q_OBJECT

 private slots:
  void initTestCase() { mhaviz::ui::testing::isolateSettings("mhaviz-panel-tests"); }

  void init() {
    m_window = new MainWindow;
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
    QVERIFY(idle());
  }

  void cleanup() {
    delete m_window;
    m_window = nullptr;
  }

  // Item 2: typing "40" into S passes through 4 without computing it.
  void typedValueCommitsOnce() {
    QSpinBox* S = fields().srcLen;
    S->setFocus();
    S->selectAll();
    int changes = 0;
    const QObject scope;  // ends the connection with this test
    connect(document(), &Document::changed, &scope, [&changes](Document::Changes what) {
      if (what & Document::Change::config) ++changes;
    });
    const int commands = document()->undoStack()->count();
    QTest::keyClicks(S, QStringLiteral("40"));
    QTest::keyClick(S, Qt::Key_Return);
    QVERIFY(idle());
    QCOMPARE(changes, 1);
    QCOMPARE(document()->config().src_len, 40);
    QCOMPARE(document()->undoStack()->count(), commands + 1);
    // A pause in typing commits as well, once.
    S->selectAll();
    changes = 0;
    QTest::keyClicks(S, QStringLiteral("12"));
    QCOMPARE(changes, 0);
    QTRY_COMPARE_WITH_TIMEOUT(changes, 1, 3000);
    QCOMPARE(document()->config().src_len, 12);
    // Arrows stay live.
    QTest::keyClick(S, Qt::Key_Up);
    QCOMPARE(changes, 2);
    QCOMPARE(document()->config().src_len, 13);
  }

  // Item 2: S 40 -> 4 -> 40 gives back the lengths, cells and labels the user set.
  void sizeChangesKeepTheUsersValues() {
    Config c = document()->config();
    c.src_len = 40;
    c.batch_size = 2;
    c.key_padding_spec.kind = PaddingKind::lengths;
    c.key_padding_spec.valid_lengths = {30, 40};  // sample 1 has no padding
    c.attn_mask_spec.kind = MaskKind::custom;
    c.attn_mask_spec.cells = {MaskCell{0, 2, -1, std::nullopt}, MaskCell{1, 35, -1, std::nullopt}};
    c.key_labels.clear();
    for (int j = 0; j < 40; ++j) {
      std::string label = "k";  // appended, not "k" + ...: GCC 12 warns (-Wrestrict) on that
      c.key_labels.push_back(label.append(std::to_string(j)));
    }
    document()->changeConfig(c, QStringLiteral("set up"));
    QVERIFY(idle());
    const Config full = document()->config();
    for (const int s : {4, 40, 4, 64, 40}) {
      Config next = document()->config();
      next.src_len = s;
      document()->changeConfig(next, QStringLiteral("resize"));
      QVERIFY(idle());
    }
    const Config back = document()->config();
    QCOMPARE(back.key_padding_spec.valid_lengths, full.key_padding_spec.valid_lengths);
    QVERIFY(back.attn_mask_spec.cells == full.attn_mask_spec.cells);
    QVERIFY(back.key_labels == full.key_labels);
    // The unpadded sample stays unpadded at a larger S.
    Config larger = back;
    larger.src_len = 64;
    document()->changeConfig(larger, QStringLiteral("grow"));
    QCOMPARE(document()->config().key_padding_spec.valid_lengths,
             (std::vector<std::int64_t>{30, 64}));
    QVERIFY(idle());
  }

  // Item 2: a configuration over the memory limit never starts computing.
  void memoryGuardRunsBeforeComputing() {
    computation()->setMemoryLimit(1 << 20);
    const Announced busy(document(), Document::Change::busy);
    QSignalSpy started(computation()->worker(), &mhaviz::ui::ComputeWorker::started);
    Config big = document()->config();
    big.tgt_len = 2000;
    big.src_len = 2000;
    document()->changeConfig(big, QStringLiteral("big"));
    QTRY_VERIFY(!document()->computed().error.isEmpty());  // the refusal is reported
    // Proof of absence: the refusal is already shown, so only time can show that no computation
    // starts after it (there is no signal to wait for when nothing must happen).
    QTest::qWait(300);
    QCOMPARE(busy.count(), 0);
    QCOMPARE(started.count(), 0);
    QVERIFY(document()->computed().error.contains(QStringLiteral("memory")) ||
            document()->computed().error.contains(QStringLiteral("GiB")) ||
            document()->computed().error.contains(QStringLiteral("MiB")));
    computation()->setMemoryLimit(mhaviz::kDefaultMemoryLimit);
  }

  // Item 5: the wheel over a control without focus scrolls; it never changes the value.
  void wheelOverControlsChangesNothing() {
    m_window->grid()->setFocus();
    const Config before = document()->config();
    const auto texts = [this] {
      QStringList list;
      for (auto* spin : m_window->findChildren<QAbstractSpinBox*>()) list << spin->text();
      for (auto* combo : m_window->findChildren<QComboBox*>()) list << combo->currentText();
      return list;
    };
    const QStringList shown = texts();
    int sent = 0;
    QList<QWidget*> all;
    for (auto* w : m_window->findChildren<QAbstractSpinBox*>()) all << w;
    for (auto* w : m_window->findChildren<QComboBox*>()) all << w;
    for (QWidget* field : all) {
      if (!field->isEnabled()) continue;
      for (const int delta : {120, -120, -120}) {
        const QPointF at(field->width() / 2.0, field->height() / 2.0);
        QWheelEvent wheel(at, field->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(field, &wheel);
        ++sent;
      }
    }
    QVERIFY(sent > 20);
    QVERIFY(idle());
    QCOMPARE(texts(), shown);
    QVERIFY(document()->config() == before);
    // With focus the wheel does change the field.
    QSpinBox* L = fields().tgtLen;
    L->setFocus();
    const int value = L->value();
    const QPointF at(L->width() / 2.0, L->height() / 2.0);
    QWheelEvent wheel(at, L->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(L, &wheel);
    QCOMPARE(L->value(), value + 1);
    QVERIFY(idle());
  }

  // Item 6: an inline error moves no field; the out-of-date note covers no map.
  void errorMovesNoFieldAndNoteCoversNoMap() {
    const auto places = [this] {
      QList<QRect> list;
      for (auto* field : m_window->panel()->findChildren<QAbstractSpinBox*>()) {
        list << QRect(field->mapTo(m_window, QPoint(0, 0)), field->size());
      }
      return list;
    };
    fields().numHeads->setValue(4);
    fields().embedDim->setValue(8);
    QVERIFY(idle());
    const QList<QRect> before = places();
    fields().embedDim->setValue(10);  // not divisible by num_heads
    QVERIFY(idle());
    auto* error = m_window->panel()->errorLine();
    QVERIFY(error != nullptr && error->isVisible());
    QCoreApplication::processEvents();
    QCOMPARE(places(), before);
    QVERIFY(document()->computed().outOfDate);
    // Nothing lies over the grid's maps; the status bar says it, without repeating the error.
    for (auto* label : m_window->grid()->findChildren<QLabel*>()) {
      QVERIFY2(!label->isVisible(), qPrintable(label->text()));
    }
    auto* note = m_window->statusWidgets()->outOfDateLine();
    QVERIFY(note != nullptr && note->isVisible());
    QVERIFY(!note->text().contains(document()->computed().error));
    fields().embedDim->setValue(8);
    QVERIFY(idle());
    QVERIFY(!note->isVisible());
  }

  // Item 10: the walk-through's arrows work anywhere in the window except in a text field.
  void walkThroughKeysWorkAnywhere() {
    auto* next = m_window->findChild<mhaviz::ui::WalkthroughDock*>()->nextButton();
    QVERIFY(next != nullptr);
    const auto stage = [this] { return document()->view().stage; };
    QTest::mouseClick(next, Qt::LeftButton);
    const auto afterClick = stage();
    QApplication::setActiveWindow(m_window);
    next->setFocus();
    QTest::keyClick(next, Qt::Key_Right);
    QVERIFY(stage() != afterClick);
    QTest::keyClick(next, Qt::Key_Left);
    QCOMPARE(stage(), afterClick);
    // From a check box in the panel too.
    auto* bias = m_window->panel()->controls().bias;
    bias->setFocus();
    QTest::keyClick(bias, Qt::Key_Right);
    QVERIFY(stage() != afterClick);
    QTest::keyClick(bias, Qt::Key_Left);
    // In a text field the arrows move the cursor.
    QSpinBox* S = fields().srcLen;
    S->setFocus();
    QTest::keyClick(S, Qt::Key_Left);
    QCOMPARE(stage(), afterClick);
    QVERIFY(idle());
  }

  // Item 11: the window says what the user is looking at.
  void gridHasAxisTitles() {
    QCustomPlot* plot = m_window->grid()->plot();
    QVERIFY(plot != nullptr);
    QStringList titles;
    for (QCPAxisRect* rect : plot->axisRects()) {
      for (QCPAxis* axis : rect->axes()) titles << axis->label();
    }
    QVERIFY2(titles.contains(QStringLiteral("query")), qPrintable(titles.join(u',')));
    QVERIFY2(titles.contains(QStringLiteral("key")), qPrintable(titles.join(u',')));
  }

  void editingSampleNsPaddingShowsSampleN() {
    Config c = document()->config();
    c.batch_size = 3;
    c.key_padding_spec.kind = PaddingKind::lengths;
    c.key_padding_spec.valid_lengths = {c.src_len, c.src_len, c.src_len};
    document()->changeConfig(c, QStringLiteral("padding"));
    QVERIFY(idle());
    auto* element = m_window->findChild<mhaviz::ui::KeyPaddingEditor*>()->controls().element;
    QVERIFY(element != nullptr);
    element->setValue(2);
    QCOMPARE(document()->view().batch, 2);
    auto* shown = m_window->statusWidgets()->batchLine();
    QVERIFY(shown != nullptr && !shown->isHidden());
    QVERIFY2(shown->text().contains(QStringLiteral("2 of 3")), qPrintable(shown->text()));
  }

  void hoverTextLeavesWithThePointer() {
    auto* hover = m_window->statusWidgets()->hoverLine();
    QVERIFY(hover != nullptr);
    m_window->statusWidgets()->showHover(QStringLiteral("weights[0, 1, 2] = 0.5"));
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(m_window->grid()->plot(), &leave);
    QCOMPARE(hover->text(), QString());
  }

  void lengthSpinBoxesSayTheirLimit() {
    for (QSpinBox* box : {fields().tgtLen, fields().srcLen}) {
      QVERIFY2(box->toolTip().contains(QString::number(box->maximum())),
               qPrintable(box->objectName()));
    }
  }

  void cellBreakdownShowsTheArithmeticFirst() {
    auto* tools = m_window->teaching();
    QVERIFY(tools != nullptr);
    tools->breakdown()->showCell(document()->computed().result, m_window->grid()->view(), 0, 1, 2);
    const QString html = tools->breakdown()->html();
    const auto dot = html.indexOf(QStringLiteral("q_i . k_j"));
    const auto vector = html.indexOf(QStringLiteral("q_i ("));
    QVERIFY(dot >= 0 && vector >= 0);
    QVERIFY2(dot < vector, "the q_i and k_j numbers come after the arithmetic");
  }

  void shapeFlowOpensWithEveryColumnVisible() {
    auto* tools = m_window->teaching();
    mhaviz::ui::ShapeFlowDock* dock = tools->shapeFlow();
    dock->show();
    dock->raise();
    QTableWidget* table = dock->table();
    QTRY_VERIFY(table->isVisible() && table->viewport()->width() > 0);
    const int width = table->viewport()->width();
    for (int c = 0; c < table->columnCount(); ++c) {
      const int left = table->columnViewportPosition(c);
      QVERIFY2(
          left >= 0 && left + std::min(table->columnWidth(c), 30) <= width,
          qPrintable(QStringLiteral("column %1 at %2, viewport %3").arg(c).arg(left).arg(width)));
    }
  }

  void openingAConfigWithTensorsLeavesTheDocumentUnmodified() {
    QTemporaryDir dir;
    Config c;
    c.embed_dim = 4;
    c.num_heads = 2;
    c.tgt_len = 3;
    c.src_len = 3;
    c.batch_size = std::nullopt;
    const QString config = dir.filePath(QStringLiteral("c.json"));
    QFile file(config);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(mhaviz::io::config_to_json(c)));
    file.close();
    const QString tensors = dir.filePath(QStringLiteral("query.npz"));
    mhaviz::io::write_npz(tensors.toStdString(),
                          {{"query", mhaviz::Tensor::from<float>({3, 4}, std::vector<float>(12))}});
    mhaviz::ui::StartupFiles files;
    files.config = config;
    files.tensors = tensors;
    m_window->session()->start(files);
    QVERIFY(idle());
    QVERIFY(document()->tensors() != nullptr);
    QVERIFY(!m_window->session()->isModified());
    QVERIFY(!m_window->isWindowModified());
  }

  // Item 7: high contrast keeps check boxes, field borders and the disabled look.
  void highContrastHidesNoControl() {
    auto* tools = m_window->teaching();
    tools->setHighContrast(true);
    QCoreApplication::processEvents();
    const auto brightPixels = [](QWidget* w, QRect area) {
      const QImage image = w->grab().toImage();
      area &= image.rect();
      int bright = 0;
      for (int y = area.top(); y <= area.bottom(); ++y) {
        for (int x = area.left(); x <= area.right(); ++x) {
          if (QColor(image.pixel(x, y)).lightness() > 150) ++bright;
        }
      }
      return bright;
    };
    auto* box = m_window->panel()->controls().batchFirst;
    QVERIFY(!box->isChecked());
    QStyleOptionButton option;
    option.initFrom(box);
    const QRect indicator =
        box->style()->subElementRect(QStyle::SE_CheckBoxIndicator, &option, box);
    QVERIFY2(brightPixels(box, indicator) > 8, "the unchecked indicator is visible");
    QSpinBox* E = fields().embedDim;
    QVERIFY2(brightPixels(E, QRect(0, 0, 3, E->height())) > E->height() / 2, "the border shows");
    QSpinBox* kdim = fields().kdim;
    QVERIFY(!kdim->isEnabled());
    QVERIFY(kdim->palette().color(QPalette::Disabled, QPalette::Text) !=
            E->palette().color(QPalette::Active, QPalette::Text));
    tools->setHighContrast(false);
  }

  // Issue 39: the grad mode combo box is the call's context; with it the note under it names
  // the path PyTorch 2.x takes and the condition that decided it, as `mhaviz-cli run` does.
  void gradModeNamesThePathPyTorchTakes() {
    Config c = document()->config();
    c.embed_dim = 8;
    c.num_heads = 2;
    c.tgt_len = c.src_len = 4;
    c.batch_first = true;
    c.training = false;
    c.input_spec.self_attention = true;
    document()->changeConfig(c, QStringLiteral("eval self-attention"));
    QVERIFY(idle());
    auto* mode = m_window->panel()->controls().gradMode;
    auto* path = m_window->panel()->pathLine();
    QVERIFY(mode != nullptr && path != nullptr);
    QCOMPARE(mode->currentIndex(), 0);  // grad enabled, as in a script
    QVERIFY2(path->text().contains(QStringLiteral("general path")) &&
                 path->text().endsWith(QStringLiteral("grad enabled")),
             qPrintable(path->text()));
    mode->setCurrentIndex(1);  // torch.no_grad()
    QVERIFY(idle());
    QCOMPARE(document()->config().grad_mode, mhaviz::GradMode::no_grad);
    QCOMPARE(document()->computed().result->path.path, mhaviz::TorchPath::fast);
    QCOMPARE(path->text(),
             QStringLiteral("PyTorch would take the fast path: eval, no_grad, self-attention, "
                            "batch_first"));
    QVERIFY(path->isVisible());
    document()->undoStack()->undo();
    QVERIFY(idle());
    QCOMPARE(mode->currentIndex(), 0);
  }
};

QTEST_MAIN(TestPanelUse)
#include "test_panel_use.moc"
