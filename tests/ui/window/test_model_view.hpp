#pragma once
// The model view in the window (QtTest, offscreen): clicking a map makes its layer the session
// and the docks follow (parameters read-only, the head view and text view with the model's token
// labels) while the model view stays; the docks describe the model on screen; presentation mode
// hides the bar above a layer; a layer's name in the window's language; a weights-only file's
// stored weights in the head view and the Head measures dock. The model view itself, over a bare
// main window, is tested in tests/ui/model.
//
// The class is declared here; its tests are defined in test_model_view_files.cpp (with
// QTEST_MAIN) and test_model_view_layers.cpp; File > Examples holds the bundled models.

#include <QObject>
#include <QString>
#include <QtTest>

#include "../model/weights_only_model.hpp"
#include "mhaviz/core/base/tensor.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "prompted_window.hpp"
#include "window/main_window.hpp"

namespace mhaviz::ui::testing {

inline constexpr int kTimeout = 60000;

/// A bundled example model's index file.
inline QString modelPath(const char* name) {
  return QStringLiteral(MHAVIZ_SOURCE_DIR "/resources/examples/models/") + QLatin1String(name) +
         QStringLiteral(".json");
}

/// Opens `path` through File > Open and waits until the view has drawn it (or failed).
inline void openAndWait(testing::PromptedWindow& w, const QString& path) {
  w.window.resize(1300, 900);
  w.window.show();
  QVERIFY(w.session()->open(path));
  ModelView* view = w.window.pages()->modelView();
  QTRY_VERIFY_WITH_TIMEOUT(
      !view->isBusy() && (!view->picture().isNull() || !view->error().isEmpty()), kTimeout);
}

}  // namespace mhaviz::ui::testing

class TestModelView : public QObject {
  Q_OBJECT

 private slots:
  // In the order they ran before they were split into files (each file is named for the
  // tests it holds): QtTest runs slots as declared, and one order is what has been run (in
  // another, the model view's hover went unseen after the weights-only test's double click).
  void initTestCase();
  void clickingAMapShowsItsLayerInTheDocks();
  void docksDescribeTheModelOnScreen();
  void aLayerOpenedIsNotDrawnFromThePreviousLayer();
  void aLayerCancelledLeavesThePreviousPictureNotABlank();
  void theReleaseEndingADoubleClickSelectsNothing();
  void theCompareWorkspaceEditsTheLayerSelected();
  void theDocksSayWhenNoModelIsOpen();
  void presentationModeHidesTheBarAndBringsItBack();
  void theLayerNameFollowsTheLanguage();
  void weightsOnlyLayersShowStoredWeightsAndSayWhatIsNotAvailable();
  void fileExamplesHoldTheBundledModels();
};
