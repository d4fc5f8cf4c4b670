// The dock in its window (tabbed with the dock given, the document's resize notes on the status
// bar) and the is_causal hint (shown while is_causal has no mask, its one-click fix).

#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <cstdint>
#include <memory>
#include <vector>

#include "editors/causal_hint.hpp"
#include "mhaviz/core/base/tensor_map.hpp"
#include "test_editors.hpp"

using mhaviz::gen::MaskKind;
using namespace mhaviz::ui::testing::editors;

// installMaskEditors: the dock is tabbed with the Parameters dock, and what the document did to
// the masks and labels for new sizes (gen::fit_to_sizes's notes, one per line) is said on the
// window's status bar as one line.
void TestEditors::theDockIsTabbedAndResizeNotesReachTheStatusBar() {
  QCOMPARE(dock()->objectName(), QStringLiteral("maskDock"));
  QCOMPARE(e().window.dockWidgetArea(dock()), Qt::LeftDockWidgetArea);
  QVERIFY(e().window.tabifiedDockWidgets(e().parameters).contains(dock()));

  e().change(QStringLiteral("custom"), [](mhaviz::Config& c) {
    c.attn_mask_spec.kind = MaskKind::custom;
    c.attn_mask_spec.cells = {{1, 2, -1, std::nullopt}, {6, 7, -1, std::nullopt}};
    c.key_labels = {"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"};
  });
  QVERIFY(idle());
  QSignalSpy fitted(document(), &mhaviz::ui::Document::sizesFitted);
  e().change(QStringLiteral("Set src_len to 4"), [](mhaviz::Config& c) { c.src_len = 4; });
  QCOMPARE(fitted.count(), 1);
  const QString notes = fitted.at(0).at(0).toString();
  // Two notes: the cell (6, 7) dropped, the last four key labels dropped.
  QCOMPARE(notes.count(u'\n'), 1);
  QVERIFY2(notes.contains(QStringLiteral("key_labels")), qPrintable(notes));
  const QString message = e().window.statusBar()->currentMessage();
  QCOMPARE(message, QString(notes).replace(u'\n', QStringLiteral("; ")));
  QVERIFY(idle());
  QCOMPARE(document()->config().attn_mask_spec.cells,
           (std::vector<mhaviz::gen::MaskCell>{{1, 2, -1, std::nullopt}}));
}

// PyTorch 2.x takes is_causal as a hint that requires attn_mask: the line under the check box
// shows while is_causal is set without one (generated or loaded), and its button makes the mask
// causal in one undoable change. (The parameter panel that holds it, its error line and the
// check box's tool tip: isCausalWithoutMaskShowsTheCoreMessageAndOneClickFix in
// tests/ui/window/test_masks.cpp.)
void TestEditors::theCausalHintShowsWhileIsCausalLacksAMask() {
  QWidget holder;  // never shown: isHidden() is the hint's own choice
  auto* hint = new mhaviz::ui::CausalHint(document(), &holder);
  auto* fix = hint->fixButton();
  QVERIFY(fix != nullptr);
  QVERIFY(hint->isHidden());  // is_causal unset
  QVERIFY(mhaviz::ui::CausalHint::isCausalToolTip().contains(QStringLiteral("requires attn_mask")));

  e().change(QStringLiteral("Set is_causal"), [](mhaviz::Config& c) { c.is_causal = true; });
  QVERIFY(!hint->isHidden());
  QVERIFY(idle());
  QVERIFY2(document()->computed().error.contains(
               QStringLiteral("Need attn_mask if specifying the is_causal hint")),
           qPrintable(document()->computed().error));

  const int steps = document()->undoStack()->count();
  fix->click();
  QCOMPARE(document()->config().attn_mask_spec.kind, MaskKind::causal);
  QVERIFY(document()->config().is_causal);
  QCOMPARE(document()->undoStack()->count(), steps + 1);
  QVERIFY(hint->isHidden());
  QVERIFY(idle());
  QVERIFY2(document()->computed().error.isEmpty(), qPrintable(document()->computed().error));
  QCOMPARE(maskAt(*document()->computed().result, 0, 0, 0, 1), -kInf);

  document()->undoStack()->undo();  // no mask again: the hint is back
  QVERIFY(!hint->isHidden());
  // A loaded attn_mask is the mask the hint asks for.
  std::vector<std::uint8_t> causal(64);
  for (int i = 0; i < 8; ++i) {
    for (int j = i + 1; j < 8; ++j) causal[static_cast<std::size_t>(i * 8 + j)] = 1;
  }
  auto tensors = std::make_shared<mhaviz::io::TensorMap>();
  tensors->emplace("attn_mask", mhaviz::Tensor::from_bools({8, 8}, causal));
  document()->setTensors(tensors);
  QVERIFY(hint->isHidden());
  document()->setTensors(nullptr);
  QVERIFY(!hint->isHidden());
  QVERIFY(idle());
}
