#pragma once
// The model view's analysis in the window (QtTest, offscreen): in the step view the session,
// and so the text view, follow the slider, keeping the selected layer's place in its step and its
// head. The Image view (ui/vision) of a vision transformer names its layer in the window's
// language, the token views show a layer's patches over the image, and the overlay follows View >
// Colormap. (The model view's own analysis, over a bare main window, is tested in tests/ui/model;
// the Image view's in tests/ui/vision.)
//
// The class is declared here; its tests are defined in test_model_analysis_layers.cpp (with
// QTEST_MAIN) and test_model_analysis_image.cpp.

#include <QObject>
#include <QtTest>

#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "prompted_window.hpp"
#include "window/main_window.hpp"

namespace mhaviz::ui::testing::model_analysis {

inline constexpr int kTimeout = 60000;

/// Opens a bundled model and waits until the view has drawn it.
inline ModelView* openExample(testing::PromptedWindow& w, const char* name) {
  w.window.resize(1300, 900);
  w.window.show();
  ModelView* view = w.window.pages()->modelView();
  if (!w.window.pages()->openModelExample(QString::fromLatin1(name))) return nullptr;
  if (!QTest::qWaitFor([view] { return view->loaded() != nullptr && !view->picture().isNull(); },
                       kTimeout)) {
    return nullptr;
  }
  // The first layer is opened after the picture: its result settles the view (a solo head
  // chosen before it came would be fitted against the window's previous result).
  if (!w.idle()) return nullptr;
  return view;
}

}  // namespace mhaviz::ui::testing::model_analysis

class TestModelAnalysis : public QObject {
  Q_OBJECT

 private slots:
  // In the order they ran before they were split into files (each file is named for the
  // tests it holds): QtTest runs slots as declared, and one order is what has been run (in
  // another, the model view's hover went unseen after the weights-only test's double click).
  void initTestCase();
  void theSessionAndTheTextViewFollowTheStepSlider();
  void theImageViewNamesTheLayerInTheWindowsLanguage();
  void tokenViewsShowThePatchesOfALayerOverTheImage();
  void imageViewOverlayFollowsTheWindowsColormap();
};
