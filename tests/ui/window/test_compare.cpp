// Compare mode in the window: pin A, change a setting, and the difference is B - A of the two
// results (keys lined up by meaning); swap A and B; make B the new A; different sizes say why.

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QScopeGuard>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>
#include <cmath>

#include "../render/test_render_common.hpp"
#include "compare/compare_panel.hpp"
#include "compute/computation.hpp"
#include "desktop/language.hpp"
#include "document/document.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "prompted_window.hpp"
#include "render/colormaps.hpp"
#include "render/heatmap_grid.hpp"
#include "session/session_files.hpp"
#include "stages/compare_stage.hpp"
#include "teach/teach_docks.hpp"
#include "teach/teaching_tools.hpp"
#include "window/main_window.hpp"
#include "window/parameter_panel.hpp"
#include "window/workspace_arrangements.hpp"
#include "window/workspaces.hpp"

using mhaviz::ui::ComparePanel;
using mhaviz::ui::Computation;
using mhaviz::ui::Document;
using mhaviz::ui::MainWindow;

namespace {
constexpr int kTimeout = 30000;
}

class TestCompare : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { mhaviz::ui::testing::isolateSettings("mhaviz-compare-tests"); }

  void init() {
    m_window = new MainWindow;
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(idle());
  }

  void cleanup() {
    delete m_window;
    m_window = nullptr;
  }

  // Issue 28 item 7: the headers name every setting that differs, semantics included (both
  // read "L=6 S=6 N=3 E=16 H=2, batch 2" before).
  void headersNameTheSettingsThatDiffer() {
    ComparePanel* panel = m_window->comparePanel();
    panel->pin();
    QVERIFY(shown());
    auto* titleA = m_window->findChild<QLabel*>(QStringLiteral("compareTitleA"));
    auto* titleB = m_window->findChild<QLabel*>(QStringLiteral("compareTitleB"));
    QVERIFY(titleA != nullptr && titleB != nullptr);
    QVERIFY2(!titleB->text().contains(QStringLiteral("differs")), qPrintable(titleB->text()));
    mhaviz::Config b = m_window->document()->config();
    b.semantics = mhaviz::Semantics::v1_13;
    b.need_weights = !b.need_weights;
    m_window->document()->changeConfig(b, QStringLiteral("B"));
    QVERIFY(idle());
    QVERIFY(shown());
    const QString want =
        b.need_weights ? QStringLiteral("need_weights=True") : QStringLiteral("need_weights=False");
    QVERIFY2(
        titleB->text().contains(QStringLiteral("semantics=1.13")) && titleB->text().contains(want),
        qPrintable(titleB->text()));
    QVERIFY2(titleA->text().contains(QStringLiteral("semantics=2.x")), qPrintable(titleA->text()));
  }

  // Issue 28 item 7: A = 2.x, B = 1.13, need_weights=False, batch element 1 fully padded: B - A
  // was all NaN (magenta) and nothing said why. The line above the grids says which side is
  // NaN, where, and why, read from the results.
  void aNanDifferenceSaysWhereItComesFrom() {
    mhaviz::Config a = document()->config();
    a.batch_size = 2;
    a.need_weights = false;
    a.key_padding_spec.kind = mhaviz::gen::PaddingKind::lengths;
    a.key_padding_spec.valid_lengths = {a.src_len, 0};
    document()->changeConfig(a, QStringLiteral("A"));
    QVERIFY(idle());
    mhaviz::ui::ViewOptions view = document()->view();
    view.batch = 1;
    document()->setView(view);
    ComparePanel* panel = m_window->comparePanel();
    panel->pin();
    QVERIFY(shown());
    QVERIFY2(!panel->message().contains(QStringLiteral("NaN")), qPrintable(panel->message()));
    mhaviz::Config b = a;
    b.semantics = mhaviz::Semantics::v1_13;
    document()->changeConfig(b, QStringLiteral("B"));
    QVERIFY(idle());
    QVERIFY(shown());
    // The data: B's rows are NaN, A's are 0, so every cell of B - A is NaN.
    const mhaviz::ui::CompareData& d = panel->data();
    QVERIFY(d.ok());
    QVERIFY(std::isnan(d.b.maps[0].valueAt(0, 0)));
    QCOMPARE(d.a.maps[0].valueAt(0, 0), 0.0);
    QVERIFY(std::isnan(d.diff.maps[0].valueAt(0, 0)));
    const QString message = panel->message();
    const QString rows = QStringLiteral("queries 0\u2013%1 of batch element 1").arg(a.tgt_len - 1);
    for (const QString& fact : {QStringLiteral("B is NaN where A is not"), rows,
                                QStringLiteral("every key of these queries is masked in both"),
                                QStringLiteral("under 1.13 with need_weights=False gives NaN"),
                                QStringLiteral("SDPA path gives 0")}) {
      QVERIFY2(message.contains(fact), qPrintable(fact + QStringLiteral(" | ") + message));
    }
    QVERIFY(!message.contains(QStringLiteral("A is NaN")));
    // Swapped, A is the NaN side; batch element 0 has no NaN and no such line.
    panel->swap();
    QVERIFY(idle());
    QVERIFY(shown());
    QVERIFY2(panel->message().contains(QStringLiteral("A is NaN where B is not")),
             qPrintable(panel->message()));
    view.batch = 0;
    document()->setView(view);
    QVERIFY(shown());
    QVERIFY2(!panel->message().contains(QStringLiteral("NaN")), qPrintable(panel->message()));
  }

  // Issue 28 item 4: leaving compare mode gives the layout back (the walk-through had taken the
  // compare dock's space and the centre was left ~310 px high), also after hiding and showing
  // the walk-through. Since issue 40 pinning A shows the Compare workspace (A | B | B - A in
  // place of the grid) and leaving it goes back to the workspace before, here Teach.
  void leavingCompareModeRestoresTheLayout_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("1600x1000") << QSize(1600, 1000);
    QTest::newRow("1280x720") << QSize(1280, 720);
  }
  void leavingCompareModeRestoresTheLayout() {
    QFETCH(QSize, size);
    m_window->resize(size);
    QTRY_COMPARE(m_window->size(), size);
    m_window->workspaces()->setCurrent(mhaviz::ui::kTeach);
    QTRY_VERIFY(m_window->workspaces()->isSettled());
    QWidget* centre = m_window->centralWidget();
    auto* walk = m_window->teaching()->walkthrough();
    QVERIFY(walk != nullptr && walk->isVisible());
    QTRY_VERIFY(walk->height() > 0);
    const QSize centreBefore = centre->size();
    const int walkBefore = walk->height();
    const auto restored = [&] {
      return qAbs(centre->height() - centreBefore.height()) <= 4 &&
             qAbs(walk->height() - walkBefore) <= 4;
    };
    ComparePanel* panel = m_window->comparePanel();
    panel->pin();
    QVERIFY(shown());
    QTRY_VERIFY(!centre->isVisible());  // A | B | B - A took its room
    QCOMPARE(m_window->workspaces()->current(), int(mhaviz::ui::kCompare));
    panel->unpin();
    QCOMPARE(m_window->workspaces()->current(), int(mhaviz::ui::kTeach));
    QTRY_VERIFY(restored());
    const auto check = [&](const char* when) {
      QVERIFY2(restored(),
               qPrintable(QStringLiteral("%1: centre %2 px high (was %3), walk-through %4 (was %5)")
                              .arg(QLatin1String(when))
                              .arg(centre->height())
                              .arg(centreBefore.height())
                              .arg(walk->height())
                              .arg(walkBefore)));
    };
    QCOMPARE(m_window->size(), size);
    check("after leaving compare mode");
    walk->hide();
    QTRY_VERIFY(centre->height() >
                centreBefore.height());  // the centre took the walk-through's room
    walk->show();
    QTRY_VERIFY(restored());
    check("after hiding and showing the walk-through");
  }

  void pinChangeAndTheDifferenceIsBMinusA() {
    ComparePanel* panel = m_window->comparePanel();
    QVERIFY(!panel->isPinned());
    panel->pin();
    QVERIFY(shown());
    QVERIFY(panel->data().ok());
    // Same settings: B - A is 0 everywhere.
    for (double v : panel->data().diff.maps.front().values) QCOMPARE(v, 0.0);

    check("add_zero_attn")->setChecked(true);  // B gets an extra key column (the zero key)
    QVERIFY(idle());
    QVERIFY(shown());
    const auto a = panel->resultA();
    const auto b = panel->resultB();
    QCOMPARE(b, computation()->result());
    QVERIFY(!a->config.add_zero_attn);
    QVERIFY(b->config.add_zero_attn);
    const auto& data = panel->data();
    QVERIFY2(data.ok(), qPrintable(data.mismatch));
    QCOMPARE(data.diff.maps.size(), std::size_t(a->H + 1));  // heads and their average
    const auto head0 = data.diff.maps.front();               // a copy: swap replaces the data
    QCOMPARE(head0.cols, int(a->S));  // the zero key is only in B: left out, and said so
    QVERIFY(panel->message().contains(QStringLiteral("zero key")));
    double largest = 0;
    for (int i = 0; i < head0.rows; ++i) {
      for (int j = 0; j < head0.cols; ++j) {
        const double want = b->weights.value(i * b->Sx + j) - a->weights.value(i * a->Sx + j);
        QVERIFY(std::abs(head0.values[std::size_t(i * head0.cols + j)] - want) < 1e-12);
        largest = std::max(largest, std::abs(want));
      }
    }
    QVERIFY(largest > 0);
    // Signed, symmetric range, legend saying so.
    QVERIFY(data.diff.isSigned);
    QCOMPARE(data.diff.lo, -data.diff.hi);
    QVERIFY(data.diff.shownUnit.contains(QStringLiteral("symmetric")));
    QCOMPARE(panel->gridDiff()->mapCount(), int(a->H + 1));
    // Issue 40: the "masked" swatch was dark grey in B - A (the diverging map's), light grey in
    // A and B. One colour for the three, in none of their colormaps.
    QCOMPARE(panel->gridA()->maskedCellColor(), panel->gridDiff()->maskedCellColor());
    QCOMPARE(panel->gridB()->maskedCellColor(), panel->gridDiff()->maskedCellColor());
    QCOMPARE(panel->gridDiff()->maskedCellColor(),
             mhaviz::ui::maskedColorBesideDiverging(document()->view().colormap));

    // Swap: A is now the zero-key settings, the current settings are A's old ones.
    panel->swap();
    QVERIFY(idle());
    QVERIFY(shown());
    QVERIFY(panel->resultA()->config.add_zero_attn);
    QVERIFY(!document()->config().add_zero_attn);
    QVERIFY(!check("add_zero_attn")->isChecked());
    const auto& swapped = panel->data().diff.maps.front();
    for (std::size_t k = 0; k < swapped.values.size(); ++k) {
      QVERIFY(std::abs(swapped.values[k] + head0.values[k]) < 1e-12);
    }

    // Make B the new A: no difference left.
    panel->pin();
    QVERIFY(shown());
    for (double v : panel->data().diff.maps.front().values) QCOMPARE(v, 0.0);
  }

  void sessionRoundTripKeepsA() {
    ComparePanel* panel = m_window->comparePanel();
    QVERIFY(!m_window->session()->isModified());
    panel->pin();
    QVERIFY(m_window->session()->isModified());  // pinning A is part of the session
    QVERIFY(shown());
    check("add_bias_kv")->setChecked(true);
    QVERIFY(idle());
    QVERIFY(shown());
    const std::vector<double> before = panel->data().diff.maps.front().values;
    const QString path = QDir(QStandardPaths::writableLocation(QStandardPaths::TempLocation))
                             .filePath(QStringLiteral("mhaviz-compare-test.mhaviz.json"));
    QVERIFY(m_window->session()->saveTo(path));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("\"compare\""));
    file.close();

    delete m_window;  // a fresh window opens the session
    m_window = new MainWindow;
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(idle());
    QVERIFY(!m_window->comparePanel()->isPinned());
    QVERIFY(m_window->session()->open(path));
    QVERIFY(idle());
    ComparePanel* again = m_window->comparePanel();
    QVERIFY(
        QTest::qWaitFor([again] { return again->isPinned() && !again->isRestoring(); }, kTimeout));
    QVERIFY(shown());
    QVERIFY(!again->resultA()->config.add_bias_kv);
    QVERIFY(!m_window->session()->isModified());  // restoring A is not an edit
    QVERIFY(document()->config().add_bias_kv);
    const std::vector<double>& after = again->data().diff.maps.front().values;
    QCOMPARE(after.size(), before.size());
    for (std::size_t k = 0; k < after.size(); ++k) QVERIFY(std::abs(after[k] - before[k]) < 1e-12);
    again->unpin();  // leaving compare mode is an edit of the session
    QVERIFY(m_window->session()->isModified());
    QFile::remove(path);
  }

  void differentSizesSayWhyInsteadOfDrawing() {
    ComparePanel* panel = m_window->comparePanel();
    panel->pin();
    QVERIFY(shown());
    spin("tgt_len")->setValue(static_cast<int>(document()->config().tgt_len) + 2);
    QVERIFY(idle());
    QVERIFY(shown());
    QVERIFY(!panel->data().ok());
    QVERIFY2(panel->message().contains(QStringLiteral("queries")), qPrintable(panel->message()));
    QCOMPARE(panel->gridDiff()->mapCount(), 0);
    QVERIFY(panel->gridA()->mapCount() > 0);
    panel->unpin();
    QVERIFY(!panel->isPinned());
  }

  // Compare mode's notes and mismatches come from the core as data and are said in the UI
  // language (they used to be the core's English sentences).
  void notesAreSaidInTheWindowsLanguage() {
    QVERIFY(mhaviz::ui::installTranslations(QLocale(QStringLiteral("zh_CN"))));
    const auto english = qScopeGuard(
        [] { mhaviz::ui::installTranslations(QLocale(QLocale::English, QLocale::UnitedStates)); });
    mhaviz::Config c;
    c.embed_dim = 8;
    c.num_heads = 2;
    c.tgt_len = 4;
    c.src_len = 5;
    c.seed = 3;
    const mhaviz::ForwardResult plain = mhaviz::ui::test::computeResult(c);
    c.add_bias_kv = true;
    c.add_zero_attn = true;
    const mhaviz::ForwardResult withBiasKv = mhaviz::ui::test::computeResult(c);
    mhaviz::ui::ViewOptions view;
    const mhaviz::ui::CompareData d = mhaviz::ui::compareStage(withBiasKv, plain, view);
    QVERIFY2(d.ok(), qPrintable(d.mismatch));
    QCOMPARE(d.notes, (QStringList{QStringLiteral("bias_k 键只在 A 中"),
                                   QStringLiteral("零键（add_zero_attn）只在 A 中")}));
    c.add_bias_kv = false;
    c.add_zero_attn = false;
    c.tgt_len = 6;
    const mhaviz::ForwardResult longer = mhaviz::ui::test::computeResult(c);
    QCOMPARE(mhaviz::ui::compareStage(plain, longer, view).mismatch,
             QStringLiteral("A 有 4 个查询，B 有 6 个"));
  }

  void semanticsControlChangesTheConfig() {
    auto* box = m_window->panel()->findChild<QComboBox*>(QStringLiteral("semantics"));
    QVERIFY(box != nullptr);
    box->setCurrentIndex(1);
    QVERIFY(idle());
    QCOMPARE(document()->config().semantics, mhaviz::Semantics::v1_13);
    m_window->comparePanel()->pin();
    QVERIFY(shown());
    box->setCurrentIndex(0);  // 2.x: the same numbers here (nothing fully masked)
    QVERIFY(idle());
    QVERIFY(shown());
    QVERIFY(m_window->comparePanel()->data().ok());
  }

 private:
  Document* document() const { return m_window->document(); }
  Computation* computation() const { return m_window->computation(); }
  QSpinBox* spin(const char* name) const {
    auto* s = m_window->panel()->findChild<QSpinBox*>(QString::fromLatin1(name));
    if (s == nullptr) qFatal("no spin box %s", name);
    return s;
  }
  QCheckBox* check(const char* name) const {
    auto* c = m_window->panel()->findChild<QCheckBox*>(QString::fromLatin1(name));
    if (c == nullptr) qFatal("no check box %s", name);
    return c;
  }
  [[nodiscard]] bool idle() const {
    const bool done = QTest::qWaitFor([this] { return !computation()->isBusy(); }, kTimeout);
    QCoreApplication::processEvents();
    return done;
  }
  /// Waits until the compare panel shows the difference of its current A, B and view.
  [[nodiscard]] bool shown() const {
    return QTest::qWaitFor([this] { return m_window->comparePanel()->isUpToDate(); }, kTimeout);
  }

  MainWindow* m_window = nullptr;
};

QTEST_MAIN(TestCompare)
#include "test_compare.moc"
