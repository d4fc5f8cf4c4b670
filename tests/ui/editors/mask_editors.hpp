#pragma once
// What the window assembles for its Masks and inputs dock, and no more (shared by
// mhaviz-editors-tests and mhaviz-mask-pattern-tests): a bare main window whose centre and
// Parameters dock are empty stand-ins, the document, its computation, and the dock that
// installMaskEditors makes, tabbed with the Parameters dock and raised. The helpers act as a user
// would (kind and combo choices, clicks and drags on the mask grid) or as the parameter panel
// does (one undoable change of the configuration).

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QMainWindow>
#include <QMouseEvent>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QTest>
#include <cstdint>
#include <functional>
#include <limits>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "editors/attn_mask_editor.hpp"
#include "editors/inputs_editor.hpp"
#include "editors/mask_dock.hpp"
#include "editors/mask_grid_view.hpp"
#include "editors/mask_value_controls.hpp"
#include "editors/padding_editor.hpp"
#include "mhaviz/core/forward/derived_maps.hpp"
#include "mhaviz/core/gen/masks.hpp"

namespace mhaviz::ui::testing::editors {

inline constexpr int kTimeout = 30000;
inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// On the mask grid `g`: press on the first cell, move over the others with the button held,
/// release on the last (the window's mask tests drag the same way).
inline void dragAcross(MaskGridView* g, const QList<QPoint>& cells) {
  const auto at = [g](const QPoint& c) { return QPointF(g->cellCenter(c.x(), c.y())); };
  const QPointF start = at(cells.first());
  QMouseEvent press(QEvent::MouseButtonPress, start, g->mapToGlobal(start), Qt::LeftButton,
                    Qt::LeftButton, {});
  QApplication::sendEvent(g, &press);
  for (const QPoint& c : cells) {
    QMouseEvent move(QEvent::MouseMove, at(c), g->mapToGlobal(at(c)), Qt::NoButton, Qt::LeftButton,
                     {});
    QApplication::sendEvent(g, &move);
  }
  QMouseEvent release(QEvent::MouseButtonRelease, at(cells.last()),
                      g->mapToGlobal(at(cells.last())), Qt::LeftButton, Qt::NoButton, {});
  QApplication::sendEvent(g, &release);
}

/// Picks item `index` of `combo` as a user would (activated is emitted).
inline void chooseItem(QComboBox* combo, int index) {
  combo->setCurrentIndex(index);
  emit combo->activated(index);
}

/// Chooses the attn_mask kind in `editor` as a user would.
inline void chooseKindIn(const AttnMaskEditor* editor, gen::MaskKind kind) {
  QComboBox* combo = editor->controls().kind;
  chooseItem(combo, combo->findData(static_cast<int>(kind)));
}

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

/// The Masks and inputs dock in a bare main window, shown at 1400 x 900 with the first picture
/// asked for (as the window computes it when it starts).
struct MaskEditors {
  Document document;
  Computation computation{&document};
  QMainWindow window;                 // destroyed first: no editor outlives the document it edits
  QDockWidget* parameters = nullptr;  // the window's Parameters dock, here empty
  QDockWidget* dock = nullptr;        // installMaskEditors's

  MaskEditors() {
    window.setCentralWidget(new QWidget);  // where the window's maps are
    parameters = new QDockWidget(QStringLiteral("Parameters"), &window);
    parameters->setObjectName(QStringLiteral("parameterDock"));
    window.addDockWidget(Qt::LeftDockWidgetArea, parameters);
    dock = installMaskEditors(&window, &document, parameters);
    window.statusBar();  // the window has one from the start
    window.resize(1400, 900);
    window.show();
    dock->raise();
    computation.recompute();
  }

  /// The dock's editors (one of each class).
  [[nodiscard]] AttnMaskEditor* editor() const { return the<AttnMaskEditor>(); }
  [[nodiscard]] KeyPaddingEditor* padding() const { return the<KeyPaddingEditor>(); }
  [[nodiscard]] InputsEditor* inputs() const { return the<InputsEditor>(); }
  [[nodiscard]] AttnMaskEditor::Controls mask() const { return editor()->controls(); }
  [[nodiscard]] MaskGridView* grid() const { return editor()->grid(); }
  /// One undoable change of the configuration, as a field of the parameter panel makes it.
  void change(const QString& text, const std::function<void(mhaviz::Config&)>& edit) {
    mhaviz::Config c = document.config();
    edit(c);
    document.changeConfig(c, text);
  }
  void chooseKind(gen::MaskKind kind) const { chooseKindIn(editor(), kind); }
  void click(int i, int j) const {
    QTest::mouseClick(grid(), Qt::LeftButton, {}, grid()->cellCenter(i, j));
  }
  /// Press on the first cell, move over the others with the button held, release on the last.
  void drag(const QList<QPoint>& cells) const { dragAcross(grid(), cells); }
  /// The dock's one editor of class `Editor` (the test stops when there is none).
  template <class Editor>
  [[nodiscard]] Editor* the() const {
    auto* editor = dock->findChild<Editor*>();
    if (editor == nullptr) qFatal("the dock has no %s", Editor::staticMetaObject.className());
    return editor;
  }
  /// Waits until no computation runs (false when one still runs after kTimeout).
  [[nodiscard]] bool idle() const {
    const bool done = QTest::qWaitFor([this] { return !document.computed().busy; }, kTimeout);
    QCoreApplication::processEvents();
    return done;
  }
};

}  // namespace mhaviz::ui::testing::editors
