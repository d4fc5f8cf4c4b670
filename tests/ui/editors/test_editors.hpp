#pragma once
// The editors layer's tests (QtTest, offscreen): the mask, padding, input and weight editors end
// to end (editor controls -> Document (undoable config change) -> the real compute worker ->
// ForwardResult), in the Masks and inputs dock over a bare main window (mask_editors.hpp); that
// dock in its window; the is_causal hint on the same document.
//
// The class is declared here; its tests are defined in test_editors_attn.cpp (with QTEST_MAIN),
// test_editors_padding_inputs.cpp and test_editors_dock.cpp.

#include <QObject>
#include <memory>

#include "mask_editors.hpp"

class TestEditors : public QObject {
  Q_OBJECT

 private slots:
  void init();
  void cleanup();
  // The attention-mask editor (test_editors_attn.cpp)
  void eachMaskKindReachesTheResult();
  void causalMaskIsMinusInfAboveTheDiagonal();
  void aClickOnAPatternStartsACustomMaskFromIt();
  void choosingCustomStartsFromThePatternShown();
  void aPatternTooLargeToEditSaysWhy();
  void alibiIsFloatThreeDAndDiffersPerHead();
  void customClicksToggleExactlyThoseCellsAndSurviveResize();
  void customToolsClearInvertFill();
  // Padding, inputs and weights (test_editors_padding_inputs.cpp)
  void fullyPaddedElementShowsNaNRowsAndTheNote();
  void aFieldStaysUnderThePointerWhenRowsAboveChange();
  void paddingAndTheMapsShowTheSameBatchElement();
  void thePaddedKeysListIsFilledWhileShown();
  void tokenLabelsReachTheConfigAndWrongCountsAreReported();
  void inputAndWeightKindsChangeTheResult();
  // Undo (test_editors_attn.cpp)
  void undoRestoresThePreviousMask();
  // The dock in its window, the is_causal hint (test_editors_dock.cpp)
  void theDockIsTabbedAndResizeNotesReachTheStatusBar();
  void theCausalHintShowsWhileIsCausalLacksAMask();

 private:
  using MaskEditors = mhaviz::ui::testing::editors::MaskEditors;
  [[nodiscard]] MaskEditors& e() const { return *m_editors; }
  [[nodiscard]] mhaviz::ui::Document* document() const { return &m_editors->document; }
  [[nodiscard]] mhaviz::ui::Computation* computation() const { return &m_editors->computation; }
  [[nodiscard]] QDockWidget* dock() const { return m_editors->dock; }
  [[nodiscard]] mhaviz::ui::AttnMaskEditor* editor() const { return m_editors->editor(); }
  [[nodiscard]] mhaviz::ui::MaskGridView* grid() const { return m_editors->grid(); }
  [[nodiscard]] bool idle() const { return m_editors->idle(); }

  std::unique_ptr<MaskEditors> m_editors;
};
