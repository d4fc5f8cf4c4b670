#pragma once
// The mask, padding, input and weight editors end to end: editor controls -> Document
// (undoable config change) -> the real compute worker -> ForwardResult / heatmap grid.
//
// The class and its window fixture are declared here; the tests are defined in
// test_masks_attn.cpp (with QTEST_MAIN) and test_masks_padding_inputs.cpp.

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QMouseEvent>
#include <QObject>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>
#include <cstdint>
#include <limits>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "editors/attn_mask_editor.hpp"
#include "editors/mask_grid_view.hpp"
#include "mhaviz/core/forward/derived_maps.hpp"
#include "mhaviz/core/gen/masks.hpp"
#include "window/main_window.hpp"
#include "window/parameter_panel.hpp"

using mhaviz::gen::MaskKind;
using mhaviz::ui::Computation;
using mhaviz::ui::Document;
using mhaviz::ui::MainWindow;

namespace mhaviz::ui::testing::masks {

inline constexpr int kTimeout = 30000;
inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// Mask term (n, h, i, j) (the merged additive mask the forward pass used).
inline double maskAt(const mhaviz::ForwardResult& r, std::int64_t n, std::int64_t h, std::int64_t i,
                     std::int64_t j) {
  return mhaviz::derived_value(r, mhaviz::DerivedMap::mask, n, h, i, j);
}
inline double weightAt(const mhaviz::ForwardResult& r, std::int64_t n, std::int64_t h,
                       std::int64_t i, std::int64_t j) {
  return r.weights.value(((n * r.H + h) * r.L + i) * r.Sx + j);
}

/// What block (n, h) of the merged mask must hold for attn_mask `m` alone (bool True -> -inf,
/// float values added; 2-D repeated for every block; 3-D block b = n*H + h).
inline double expectedMask(const mhaviz::Tensor& m, std::int64_t b, std::int64_t i, std::int64_t j,
                           std::int64_t L, std::int64_t S) {
  const std::int64_t base = m.dim() == 3 ? b * L * S : 0;
  const double v = m.value(base + i * S + j);
  if (m.type() == mhaviz::ElemType::boolean) return v != 0.0 ? -kInf : 0.0;
  return v;
}

}  // namespace mhaviz::ui::testing::masks

class TestMasks : public QObject {
  Q_OBJECT

 private slots:
  // In the order they ran before they were split into files (each file is named for the
  // tests it holds): QtTest runs slots as declared, and one order is what has been run (in
  // another, the model view's hover went unseen after the weights-only test's double click).
  void initTestCase();
  void init();
  void cleanup();
  void eachMaskKindReachesTheResult();
  void causalMaskIsMinusInfAboveTheDiagonal();
  void aClickOnAPatternStartsACustomMaskFromIt();
  void choosingCustomStartsFromThePatternShown();
  void aPatternTooLargeToEditSaysWhy();
  void alibiIsFloatThreeDAndDiffersPerHead();
  void customClicksToggleExactlyThoseCellsAndSurviveResize();
  void customToolsClearInvertFill();
  void fullyPaddedElementShowsNaNRowsAndTheNote();
  void aFieldStaysUnderThePointerWhenRowsAboveChange();
  void paddingAndTheMapsShowTheSameBatchElement();
  void thePaddedKeysListIsFilledWhileShown();
  void isCausalWithoutMaskShowsTheCoreMessageAndOneClickFix();
  void tokenLabelsAppearOnTheGridAndWrongCountsAreReported();
  void inputAndWeightKindsChangeTheResult();
  void undoRestoresThePreviousMask();
  void screenshots();

 private:
  [[nodiscard]] Document* document() const { return m_window->document(); }
  [[nodiscard]] Computation* computation() const { return m_window->computation(); }
  [[nodiscard]] QDockWidget* dock() const {
    QDockWidget* d = m_window->maskDock();
    if (d == nullptr) qFatal("no mask dock");
    return d;
  }
  [[nodiscard]] mhaviz::ui::AttnMaskEditor* editor() const {
    return dock()->findChild<mhaviz::ui::AttnMaskEditor*>();
  }
  [[nodiscard]] mhaviz::ui::MaskGridView* grid() const { return editor()->grid(); }
  [[nodiscard]] QSpinBox* panelSpin(const char* name) const {
    auto* s = m_window->panel()->findChild<QSpinBox*>(QString::fromLatin1(name));
    if (s == nullptr) qFatal("no spin box %s", name);
    return s;
  }
  [[nodiscard]] QCheckBox* panelCheck(const char* name) const {
    auto* c = m_window->panel()->findChild<QCheckBox*>(QString::fromLatin1(name));
    if (c == nullptr) qFatal("no check box %s", name);
    return c;
  }
  [[nodiscard]] QPushButton* button(const char* name) const {
    auto* b = dock()->findChild<QPushButton*>(QString::fromLatin1(name));
    if (b == nullptr) qFatal("no button %s", name);
    return b;
  }
  /// Picks item `index` of a combo box in the dock as a user would (activated is emitted).
  void chooseCombo(const char* name, int index) const {
    auto* combo = dock()->findChild<QComboBox*>(QString::fromLatin1(name));
    if (combo == nullptr) qFatal("no combo box %s", name);
    combo->setCurrentIndex(index);
    emit combo->activated(index);
  }
  void chooseKind(MaskKind kind) const {
    auto* combo = dock()->findChild<QComboBox*>(QStringLiteral("attnMaskKind"));
    chooseCombo("attnMaskKind", combo->findData(static_cast<int>(kind)));
  }
  void click(int i, int j) const {
    QTest::mouseClick(grid(), Qt::LeftButton, {}, grid()->cellCenter(i, j));
  }
  /// Press on the first cell, move over the others with the button held, release on the last.
  void drag(const QList<QPoint>& cells) const {
    mhaviz::ui::MaskGridView* g = grid();
    const auto at = [g](const QPoint& c) { return QPointF(g->cellCenter(c.x(), c.y())); };
    const QPointF start = at(cells.first());
    QMouseEvent press(QEvent::MouseButtonPress, start, g->mapToGlobal(start), Qt::LeftButton,
                      Qt::LeftButton, {});
    QApplication::sendEvent(g, &press);
    for (const QPoint& c : cells) {
      QMouseEvent move(QEvent::MouseMove, at(c), g->mapToGlobal(at(c)), Qt::NoButton,
                       Qt::LeftButton, {});
      QApplication::sendEvent(g, &move);
    }
    QMouseEvent release(QEvent::MouseButtonRelease, at(cells.last()),
                        g->mapToGlobal(at(cells.last())), Qt::LeftButton, Qt::NoButton, {});
    QApplication::sendEvent(g, &release);
  }
  [[nodiscard]] bool idle() const {
    const bool done = QTest::qWaitFor([this] { return !computation()->isBusy(); },
                                      mhaviz::ui::testing::masks::kTimeout);
    QCoreApplication::processEvents();
    return done;
  }

  MainWindow* m_window = nullptr;
};
