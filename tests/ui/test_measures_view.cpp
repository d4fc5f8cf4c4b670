// The measures in the window: the Head measures dock shows the numbers the compute worker
// attached to the result, and the value norms stage draws them with the zero column at 0.

#include <QCheckBox>
#include <QSpinBox>
#include <QTest>
#include <cmath>

#include "compute/compute_controller.hpp"
#include "mhaviz/core/measures.hpp"
#include "prompted_window.hpp"
#include "render/head_measures_view.hpp"
#include "render/heatmap_grid.hpp"
#include "window/main_window.hpp"
#include "window/parameter_panel.hpp"

using mhaviz::ui::ComputeController;
using mhaviz::ui::HeadMeasuresView;
using mhaviz::ui::HeatmapGrid;
using mhaviz::ui::MainWindow;
using mhaviz::ui::Stage;

namespace {
constexpr int kTimeout = 30000;
}

class TestMeasuresView : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { mhaviz::ui::testing::isolateSettings("mhaviz-measures-view-tests"); }

  void init() {
    m_window = new MainWindow;
    m_window->resize(1200, 800);
    m_window->show();
    QVERIFY(idle());
    QVERIFY(controller()->result() != nullptr);
  }

  void cleanup() {
    delete m_window;
    m_window = nullptr;
  }

  // The worker attaches the measures; the dock shows one bar per head of the shown batch element,
  // equal to the core's head averages.
  void dockShowsTheWorkersHeadAverages() {
    spin("num_heads")->setValue(4);
    spin("batch_size")->setValue(2);
    QVERIFY(idle());
    auto r = controller()->result();
    QVERIFY(r->measures != nullptr);
    HeadMeasuresView* view = m_window->headMeasures();
    QVERIFY(view->message().isEmpty());
    QCOMPARE(static_cast<int>(view->sections().size()), 4);  // no bias_k / zero yet
    for (const auto& section : view->sections()) QCOMPARE(section.values.size(), std::size_t{4});
    for (int h = 0; h < 4; ++h) {
      QCOMPARE(view->sections()[0].values[h], r->measures->average(0, h).normalized_entropy);
      QCOMPARE(view->sections().back().values[h], r->measures->average(0, h).ablation);
    }
    auto v = controller()->view();
    v.batch = 1;
    controller()->setView(v);
    QCoreApplication::processEvents();
    QCOMPARE(view->sections()[1].values[2], r->measures->average(1, 2).confidence);
    check("add_zero_attn")->click();
    QVERIFY(idle());
    QCOMPARE(static_cast<int>(view->sections().size()), 5);  // + the sink share on zero
    QVERIFY(view->sections()[3].title.contains(QStringLiteral("zero")));
  }

  // Value norms: one map per head plus the sum over heads; the zero column is 0 in every head
  // even where its weight is not; the colour range runs to the largest value.
  void valueNormsStage() {
    check("add_bias_kv")->click();
    check("add_zero_attn")->click();
    QVERIFY(idle());
    auto v = controller()->view();
    v.stage = Stage::value_norms;
    controller()->setView(v);
    QVERIFY(idle());
    const auto r = controller()->result();
    const auto& data = grid()->stageData();
    QCOMPARE(static_cast<std::int64_t>(data.maps.size()), r->H + 1);
    QCOMPARE(data.maps.back().title, QStringLiteral("sum over heads"));
    QVERIFY(data.rangeFromData);
    const int zero = data.maps[0].cols - 1;
    double top = 0;
    for (const auto& map : data.maps) {
      for (int i = 0; i < map.rows; ++i) {
        QCOMPARE(map.valueAt(i, zero), 0.0);
        for (int j = 0; j < map.cols; ++j) top = std::max(top, map.valueAt(i, j));
      }
    }
    QVERIFY(r->weights.value(r->Sx - 1) > 0.0);  // the zero column has weight, yet norm 0
    QCOMPARE(data.hi, top);
    QVERIFY(top > 1e-6);
  }

 private:
  ComputeController* controller() const { return m_window->controller(); }
  HeatmapGrid* grid() const { return m_window->grid(); }
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
    const bool done = QTest::qWaitFor(
        [this] { return !controller()->isBusy() && !grid()->isPreparing(); }, kTimeout);
    QCoreApplication::processEvents();
    return done;
  }

  MainWindow* m_window = nullptr;
};

QTEST_MAIN(TestMeasuresView)
#include "test_measures_view.moc"
