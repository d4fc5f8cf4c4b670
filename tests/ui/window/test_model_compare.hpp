#pragma once
// Two model files compared in the window (QtTest, offscreen): with a weights-only model open in
// the model view (B), Compare > Compare the model with a file… reads a second file (A); the
// Compare workspace then shows A | B | B − A for the map that differs most, selected in the model
// view too; the model view's selection and batch element and the table's follow each other; a
// captured model keeps the Compare workspace while its layer becomes the session; leaving the
// comparison, or opening another model, ends it and gives the workspaces back. What the
// comparison itself shows is tested in the compare layer (tests/ui/compare), with the model
// files it shares with these tests (model_compare_files.hpp).
//
// The class is declared here; the tests are defined in test_model_compare_difference.cpp (with
// QTEST_MAIN) and test_model_compare_limits.cpp.

#include <QAction>
#include <QObject>
#include <QString>
#include <QtTest>

#include "../compare/model_compare_files.hpp"
#include "compare/compare_panel.hpp"
#include "compare/model_compare.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "prompted_window.hpp"
#include "window/main_window.hpp"

namespace mhaviz::ui::testing::model_compare {

/// Opens `path` (File > Open) and waits until the model view has drawn it.
inline void openAndWait(testing::PromptedWindow& w, const QString& path) {
  w.window.resize(1400, 900);
  w.window.show();
  QVERIFY(w.session()->open(path));
  ModelView* view = w.window.pages()->modelView();
  QTRY_VERIFY_WITH_TIMEOUT(
      !view->isBusy() && (!view->picture().isNull() || !view->error().isEmpty()), kTimeout);
  QVERIFY2(view->error().isEmpty(), qPrintable(view->error()));
}

/// The Compare menu's entries.
inline const ComparePanel::MenuActions& menu(MainWindow& window) {
  return window.comparePanel()->menuActions();
}

}  // namespace mhaviz::ui::testing::model_compare

class TestModelCompare : public QObject {
  Q_OBJECT

 private slots:
  // test_model_compare_difference.cpp: the comparison beside the model view
  void initTestCase();
  void theComparisonFollowsTheModelView();

  // test_model_compare_limits.cpp: a captured model, what ends a comparison
  void aCapturedModelComparedKeepsTheCompareWorkspace();
  void leavingOrOpeningAnotherModelEndsTheComparison();
};
