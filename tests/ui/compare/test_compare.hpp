#pragma once
// The compare layer's tests (QtTest, offscreen), without the MainWindow: the compare dock and
// menu installed in a bare QMainWindow over a Document and its Computation (installCompare, as
// the window installs them). The class is declared here; its tests are defined in
// test_compare_panel.cpp (compare mode: pin A, B - A, swap, sizes that differ, a restored A, the
// Compare menu; with QTEST_MAIN), test_compare_settings.cpp (the settings that differ, the
// difference table), test_compare_models.cpp (two model files compared) and
// test_compare_model_limits.cpp (files that do not fit, what ends a comparison).

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QMainWindow>
#include <QObject>
#include <QStackedWidget>
#include <QString>
#include <QtTest>
#include <memory>

#include "compare/compare_panel.hpp"
#include "compare/model_compare.hpp"
#include "compute/computation.hpp"
#include "document/document.hpp"
#include "mhaviz/core/model/model.hpp"

namespace mhaviz::ui::testing::compare {

inline constexpr int kTimeout = 30000;

/// A model file read and computed on this thread, as the model view reads the model it opens.
inline ModelSide modelSide(const QString& path) {
  auto model =
      std::make_shared<const mhaviz::model::Model>(mhaviz::model::read_model(path.toStdString()));
  auto computed =
      std::make_shared<const mhaviz::model::ComputedModel>(mhaviz::model::compute_model(*model));
  return ModelSide{QFileInfo(path).fileName(), std::move(model), std::move(computed)};
}

/// What the window assembles for compare mode, and no more: the document, its computation, and
/// the compare dock and Compare menu installed in a bare main window, the dock shown as the
/// window's Compare workspace shows it. It computes the current configuration at once, as the
/// window does when it starts. A map chosen in the comparison is selected, as the window's model
/// pages select it (they also open its layer as the session).
struct CompareWindow {
  Document document;
  Computation computation{&document};
  QMainWindow window;  // (destroyed first: the panel goes before the document it follows)
  ComparePanel* panel;

  CompareWindow() : panel(installCompare(&window, &document)) {
    window.resize(1400, 900);
    panel->dock()->show();
    window.show();
    computation.recompute();
    QObject::connect(models(), &ModelCompare::mapChosen, &document, [this](int layer, int head) {
      document.setSelection({layer, head, document.selection().batch});
    });
  }
  [[nodiscard]] ModelCompare* models() const { return panel->modelCompare(); }
  /// The dock's pages: the panel, or two model files compared.
  [[nodiscard]] QStackedWidget* pages() const {
    return qobject_cast<QStackedWidget*>(panel->dock()->widget());
  }
  /// The Compare menu's entries.
  [[nodiscard]] const ComparePanel::MenuActions& menu() const { return panel->menuActions(); }
  /// `path` as the model open in the model view (B), as the window tells the comparison when
  /// the model view has opened it: its first layer selected (every head), batch element 0.
  void openModel(const QString& path) {
    models()->setOpenModel(modelSide(path));
    document.setSelection({0, -1});
  }
  /// Waits until no computation runs.
  [[nodiscard]] bool idle() const {
    const bool done = QTest::qWaitFor([this] { return !document.computed().busy; }, kTimeout);
    QCoreApplication::processEvents();
    return done;
  }
  /// Waits until the compare panel shows the difference of its current A, B and view.
  [[nodiscard]] bool shown() const {
    return QTest::qWaitFor([this] { return panel->isUpToDate(); }, kTimeout);
  }
};

}  // namespace mhaviz::ui::testing::compare

class TestCompareLayer : public QObject {
  Q_OBJECT

 private slots:
  // Compare mode's panel (test_compare_panel.cpp)
  void headersNameTheSettingsThatDiffer();
  void aNanDifferenceSaysWhereItComesFrom();
  void pinChangeAndTheDifferenceIsBMinusA();
  void differentSizesSayWhyInsteadOfDrawing();
  void aRestoredAIsComputedWithItsTensors();
  void theCompareMenuFollowsThePanel();
  void thePanelsButtonsFollowThePin();
  // The settings that differ and the difference table (test_compare_settings.cpp)
  void differingSettingsLeaveOutWhatIsTheSame();
  void differingSettingsAreWrittenAsInTheFile();
  void differencesAreWrittenShort();
  void theDifferenceTableShowsEveryLayerAndHead();
  void theDifferenceTableWithoutADifference();
  // Two model files compared (test_compare_models.cpp)
  void comparingTwoWeightsOnlyFilesShowsABAndTheDifference();
  void theComparisonFollowsTheTableTheSelectionAndTheBatch();
  // What does not fit and what ends a comparison (test_compare_model_limits.cpp)
  void filesThatDoNotFitSayWhyInline();
  void anotherModelOrLeavingEndsTheComparison();
};
