// The Masks and inputs dock in the whole window: the is_causal hint and the error line of the
// parameter panel, token labels on the grid's axes, screenshots. The editors themselves are
// tested over a bare main window in tests/ui/editors.

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QObject>
#include <QPushButton>
#include <QScreen>
#include <QSpinBox>
#include <QTest>
#include <cstdint>
#include <limits>

#include "../editors/mask_editors.hpp"
#include "compute/computation.hpp"
#include "document/document.hpp"
#include "editors/attn_mask_editor.hpp"
#include "editors/causal_hint.hpp"
#include "editors/mask_grid_view.hpp"
#include "mhaviz/core/forward/derived_maps.hpp"
#include "mhaviz/core/gen/masks.hpp"
#include "prompted_window.hpp"
#include "render/heatmap_grid.hpp"
#include "window/main_window.hpp"
#include "window/parameter_panel.hpp"
#include "window_test.hpp"

using mhaviz::gen::MaskKind;
using mhaviz::ui::Computation;
using mhaviz::ui::Document;
using mhaviz::ui::MainWindow;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Mask term (n, h, i, j) (the merged additive mask the forward pass used).
double maskAt(const mhaviz::ForwardResult& r, std::int64_t n, std::int64_t h, std::int64_t i,
              std::int64_t j) {
  return mhaviz::derived_value(r, mhaviz::DerivedMap::mask, n, h, i, j);
}

}  // namespace

class TestMasks : public mhaviz::ui::testing::WindowTest {
  Q_OBJECT

 private slots:
  // In the order they ran before the editors' own tests moved to tests/ui/editors: QtTest runs
  // slots as declared.
  void initTestCase();
  void init();
  void cleanup();
  void isCausalWithoutMaskShowsTheCoreMessageAndOneClickFix();
  void tokenLabelsAppearOnTheGrid();
  void screenshots();

 private:
  [[nodiscard]] QDockWidget* dock() const {
    QDockWidget* d = m_window->maskDock();
    if (d == nullptr) qFatal("no mask dock");
    return d;
  }
  [[nodiscard]] mhaviz::ui::AttnMaskEditor* editor() const {
    return dock()->findChild<mhaviz::ui::AttnMaskEditor*>();
  }
  [[nodiscard]] mhaviz::ui::MaskGridView* grid() const { return editor()->grid(); }
  void chooseKind(MaskKind kind) const {
    mhaviz::ui::testing::editors::chooseKindIn(editor(), kind);
  }
  void click(int i, int j) const {
    QTest::mouseClick(grid(), Qt::LeftButton, {}, grid()->cellCenter(i, j));
  }
  /// Press on the first cell, move over the others with the button held, release on the last.
  void drag(const QList<QPoint>& cells) const {
    mhaviz::ui::testing::editors::dragAcross(grid(), cells);
  }
};

void TestMasks::initTestCase() { mhaviz::ui::testing::isolateSettings("mhaviz-mask-tests"); }

void TestMasks::init() {
  m_window = new MainWindow;
  m_window->resize(1400, 900);
  m_window->show();
  dock()->raise();
  QVERIFY(idle());
  QVERIFY(document()->computed().result != nullptr);
}

void TestMasks::cleanup() {
  delete m_window;
  m_window = nullptr;
}

void TestMasks::isCausalWithoutMaskShowsTheCoreMessageAndOneClickFix() {
  fields().isCausal->click();
  QVERIFY(idle());
  QVERIFY2(document()->computed().error.contains(
               QStringLiteral("Need attn_mask if specifying the is_causal hint")),
           qPrintable(document()->computed().error));
  auto* label = m_window->panel()->errorLine();
  QVERIFY(!label->isHidden());
  QVERIFY(label->text().contains(QStringLiteral("Need attn_mask")));
  QVERIFY(document()->computed().outOfDate);
  auto* fix = m_window->panel()->findChild<mhaviz::ui::CausalHint*>()->fixButton();
  QVERIFY(fix != nullptr);
  QVERIFY(!fix->parentWidget()->isHidden());
  QVERIFY(fields().isCausal->toolTip().contains(QStringLiteral("requires attn_mask")));
  fix->click();
  QVERIFY(idle());
  QCOMPARE(document()->config().attn_mask_spec.kind, MaskKind::causal);
  QVERIFY(document()->computed().error.isEmpty());
  QVERIFY(fix->parentWidget()->isHidden());
  QCOMPARE(maskAt(*document()->computed().result, 0, 0, 0, 1), -kInf);
}

// The labels typed in the Masks dock label the grid's axes. (That they reach the configuration
// and the view, and wrong counts: tests/ui/editors.)
void TestMasks::tokenLabelsAppearOnTheGrid() {
  auto* queries = dock()->findChild<mhaviz::ui::InputsEditor*>()->controls().queryLabels;
  auto* keys = dock()->findChild<mhaviz::ui::InputsEditor*>()->controls().keyLabels;
  queries->setText(QStringLiteral("The cat sat on the mat today ."));
  keys->setText(QStringLiteral("k0, k1, k2, k3, k4, k5, k6, k7"));
  emit keys->editingFinished();
  QVERIFY(idle());
  QCOMPARE(document()->config().key_labels.size(), std::size_t{8});
  const QStringList columns = m_window->grid()->columnLabels(0);
  QCOMPARE(columns.size(), 8);
  QCOMPARE(columns.at(0), QStringLiteral("k0"));
  QCOMPARE(columns.at(7), QStringLiteral("k7"));
}

// Not a check: with MHAVIZ_MASK_SCREENSHOTS=<prefix> (run under a real X server) saves
// <prefix>causal-bool.png, alibi-per-head.png, custom-grid.png and fully-padded.png.
void TestMasks::screenshots() {
  const QString prefix = qEnvironmentVariable("MHAVIZ_MASK_SCREENSHOTS");
  if (prefix.isEmpty()) QSKIP("set MHAVIZ_MASK_SCREENSHOTS to save screenshots");
  const auto shoot = [this, &prefix](const char* name) {
    QVERIFY(idle());
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
    QVERIFY(mhaviz::ui::testing::pictureSettled(*m_window->grid()));
    QScreen* screen = m_window->screen();
    QVERIFY(
        screen->grabWindow(0).save(prefix + QString::fromLatin1(name) + QStringLiteral(".png")));
  };
  m_window->move(0, 0);
  chooseKind(MaskKind::causal);
  shoot("causal-bool");

  fields().numHeads->setValue(4);
  chooseKind(MaskKind::alibi);
  QVERIFY(idle());
  editor()->selectBlock(2);
  mhaviz::ui::ViewOptions view = document()->view();
  view.stage = mhaviz::ui::Stage::scores;
  document()->setView(view);
  shoot("alibi-per-head");

  view.stage = mhaviz::ui::Stage::weights;
  document()->setView(view);
  fields().numHeads->setValue(2);
  chooseKind(MaskKind::custom);
  QVERIFY(idle());
  for (int j = 0; j < 8; ++j) click(j, 7 - j);
  drag({{0, 0}, {0, 1}, {0, 2}});
  shoot("custom-grid");

  document()->undoStack()->clear();
  chooseKind(MaskKind::none);
  fields().batchSize->setValue(2);
  const auto padding = dock()->findChild<mhaviz::ui::KeyPaddingEditor*>()->controls();
  mhaviz::ui::testing::editors::chooseItem(padding.kind, 1);
  QVERIFY(idle());
  padding.element->setValue(1);
  padding.length->setValue(0);
  QVERIFY(idle());
  view = document()->view();
  view.batch = 1;
  document()->setView(view);
  shoot("fully-padded");
}

QTEST_MAIN(TestMasks)
#include "test_masks.moc"
