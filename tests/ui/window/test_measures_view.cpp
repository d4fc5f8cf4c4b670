// The measures in the window: the Head measures dock shows the numbers the compute worker
// attached to the result, and the value norms stage draws them with the zero column at 0. The
// worker computes them after the result (Document::Change::measures): the dock never shows
// an older result's numbers meanwhile, and the value norms stage waits for them.

#include <QCheckBox>
#include <QSpinBox>
#include <QTest>
#include <cmath>
#include <cstring>

#include "../document/announced.hpp"
#include "compute/computation.hpp"
#include "compute/compute_worker.hpp"
#include "document/document.hpp"
#include "mhaviz/core/analysis/logit_scale.hpp"
#include "mhaviz/core/analysis/measures.hpp"
#include "prompted_window.hpp"
#include "render/head_measures_view.hpp"
#include "render/heatmap_grid.hpp"
#include "window/main_window.hpp"
#include "window/parameter_panel.hpp"
#include "window_test.hpp"

using mhaviz::ui::Computation;
using mhaviz::ui::Document;
using mhaviz::ui::HeadMeasuresView;
using mhaviz::ui::HeatmapGrid;
using mhaviz::ui::MainWindow;
using mhaviz::ui::Stage;
using mhaviz::ui::testing::Announced;

namespace {
constexpr int kTimeout = 30000;

bool identical(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
}  // namespace

class TestMeasuresView : public mhaviz::ui::testing::WindowTest {
  Q_OBJECT

 private slots:
  void initTestCase() { mhaviz::ui::testing::isolateSettings("mhaviz-measures-view-tests"); }

  void init() {
    m_window = new MainWindow;
    m_window->resize(1200, 800);
    m_window->show();
    QVERIFY(measuredAndDrawn());
    QVERIFY(document()->computed().result != nullptr);
  }

  void cleanup() {
    delete m_window;
    m_window = nullptr;
  }

  // The worker attaches the measures; the dock shows one bar per head of the shown batch element,
  // equal to the core's head averages.
  void dockShowsTheWorkersHeadAverages() {
    fields().numHeads->setValue(4);
    fields().batchSize->setValue(2);
    QVERIFY(measuredAndDrawn());
    auto r = document()->computed().result;
    const auto measures = document()->computed().measures();  // held beside the result
    QVERIFY(measures != nullptr);
    HeadMeasuresView* view = m_window->headMeasures();
    QVERIFY(view->message().isEmpty());
    QCOMPARE(static_cast<int>(view->sections().size()), 5);  // no bias_k / zero yet
    for (const auto& section : view->sections()) QCOMPARE(section.values.size(), std::size_t{4});
    const std::vector<double> scales = mhaviz::logit_scales(r->params, r->E, r->H);
    for (int h = 0; h < 4; ++h) {
      QCOMPARE(view->sections()[0].values[h], measures->average(0, h).normalized_entropy);
      QCOMPARE(view->sections()[3].values[h], measures->average(0, h).ablation);
      QCOMPARE(view->sections().back().values[h], scales[static_cast<std::size_t>(h)]);
    }
    QVERIFY(view->sections().back().title.contains(QStringLiteral("logit scale")));
    auto v = document()->view();
    v.batch = 1;
    document()->setView(v);
    QCoreApplication::processEvents();
    QCOMPARE(view->sections()[1].values[2], measures->average(1, 2).confidence);
    fields().addZeroAttn->click();
    QVERIFY(measuredAndDrawn());
    QCOMPARE(static_cast<int>(view->sections().size()), 6);  // + the share sent to nothing
    QVERIFY(view->sections()[3].title.contains(QStringLiteral("sent to nothing")));
    QVERIFY(view->sections()[3].title.contains(QStringLiteral("zero")));
  }

  // Value norms: one map per head plus the sum over heads; the zero column is 0 in every head
  // even where its weight is not; the colour range runs to the largest value.
  void valueNormsStage() {
    fields().addBiasKv->click();
    fields().addZeroAttn->click();
    QVERIFY(measuredAndDrawn());
    auto v = document()->view();
    v.stage = Stage::value_norms;
    document()->setView(v);
    QVERIFY(measuredAndDrawn());
    const auto r = document()->computed().result;
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

  // Value zeroing: two L × S' maps (cosine distance, relative L2) equal to the core's; the zero
  // column is exactly 0 although it has weight.
  void valueZeroingStage() {
    fields().addBiasKv->click();
    fields().addZeroAttn->click();
    QVERIFY(measuredAndDrawn());
    auto v = document()->view();
    v.stage = Stage::value_zeroing;
    document()->setView(v);
    QVERIFY(measuredAndDrawn());
    const auto r = document()->computed().result;
    const auto& data = grid()->stageData();
    QCOMPARE(static_cast<int>(data.maps.size()), 2);
    QVERIFY(data.maps[0].title.startsWith(QStringLiteral("cosine distance")));
    QVERIFY(data.maps[1].title.startsWith(QStringLiteral("relative L2")));
    QVERIFY(data.rangeFromData);
    const mhaviz::ValueZeroing want = mhaviz::value_zeroing(*r);
    const int zero = data.maps[0].cols - 1;
    for (int i = 0; i < data.maps[0].rows; ++i) {
      for (int j = 0; j < data.maps[0].cols; ++j) {
        QCOMPARE(data.maps[0].valueAt(i, j), want.cosine.value(i * r->Sx + j));
        QCOMPARE(data.maps[1].valueAt(i, j), want.relative_l2.value(i * r->Sx + j));
      }
      QCOMPARE(data.maps[0].valueAt(i, zero), 0.0);
      QCOMPARE(data.maps[1].valueAt(i, zero), 0.0);
    }
    QVERIFY(r->weights.value(r->Sx - 1) > 0.0);
    QVERIFY(data.hi > 1e-6);
  }

  // Sink scores (Gu et al. 2024): a heads × S' map, then the mean over heads as one row, each cell
  // the core's sink_scores of the batch element shown, the bias_k and zero columns included, on
  // the weights' fixed 0..1 scale.
  void sinkScoresStage() {
    fields().addBiasKv->click();
    fields().addZeroAttn->click();
    fields().batchSize->setValue(2);
    QVERIFY(measuredAndDrawn());
    auto v = document()->view();
    v.stage = Stage::sink_scores;
    v.batch = 1;
    document()->setView(v);
    QVERIFY(measuredAndDrawn());
    const auto r = document()->computed().result;
    const mhaviz::SinkScores want = mhaviz::sink_scores(*r);
    const auto& data = grid()->stageData();
    QCOMPARE(data.maps.size(), std::size_t{2});
    QVERIFY(!data.rangeFromData);
    const auto& heads = data.maps[0];
    const auto& mean = data.maps[1];
    QCOMPARE(static_cast<std::int64_t>(heads.rows), r->H);
    QCOMPARE(mean.rows, 1);
    QCOMPARE(static_cast<std::int64_t>(heads.cols), r->Sx);
    QCOMPARE(heads.title, QStringLiteral("every head"));
    QCOMPARE(mean.title, QStringLiteral("mean over heads"));
    for (std::int64_t j = 0; j < r->Sx; ++j) {
      double expected = 0;
      for (std::int64_t h = 0; h < r->H; ++h) {
        QCOMPARE(heads.valueAt(int(h), int(j)), want.at(1, h, j));
        expected += want.at(1, h, j) / double(r->H);
      }
      QCOMPARE(mean.valueAt(0, int(j)), expected);
    }
    QVERIFY(want.at(1, 0, r->Sx - 1) > 0.0);  // the zero column takes weight: sent to nothing
  }

  // A seed change: when the new result arrives its measures are still to come, and the dock
  // says so instead of showing the previous result's bars; then they arrive with the same
  // tensors, and the dock shows exactly the core's numbers for the new result.
  void dockShowsTheCurrentResultsMeasuresAfterASeedChange() {
    fields().numHeads->setValue(4);
    fields().batchSize->setValue(2);
    QVERIFY(measuredAndDrawn());
    const auto before = document()->computed().result;
    const auto beforeMeasures = document()->computed().measures();
    QVERIFY(beforeMeasures != nullptr);
    HeadMeasuresView* view = m_window->headMeasures();
    // What the dock shows before the change: this result's own numbers, one bar per head.
    QCOMPARE(static_cast<int>(view->sections()[0].values.size()), 4);
    for (int h = 0; h < 4; ++h) {
      QVERIFY(identical(view->sections()[0].values[h],
                        beforeMeasures->average(0, h).normalized_entropy));
      QVERIFY(identical(view->sections()[1].values[h], beforeMeasures->average(0, h).confidence));
    }
    mhaviz::ui::ResultPtr arrived;
    bool measuringAtArrival = false, barsAtArrival = true, measuresAtArrival = true;
    QString messageAtArrival;
    const auto conn = connect(document(), &Document::changed, this, [&](Document::Changes what) {
      if (arrived || !(what & Document::Change::result)) return;
      arrived = document()->computed().result;
      measuringAtArrival = document()->computed().measuring;
      measuresAtArrival = document()->computed().measures() != nullptr;
      barsAtArrival = !view->sections().empty();
      messageAtArrival = view->message();
    });
    const Announced measured(document(), Document::Change::measures);
    mhaviz::Config next = document()->config();
    next.seed = before->config.seed + 17;
    document()->changeConfig(next, QStringLiteral("seed"));
    const bool settled = measuredAndDrawn();
    disconnect(conn);
    QVERIFY(settled);
    QVERIFY(arrived != nullptr);
    QCOMPARE(arrived->config.seed, next.seed);
    QVERIFY(!measuresAtArrival);
    QVERIFY(measuringAtArrival);
    QVERIFY(!barsAtArrival);  // no stale bars of the previous seed
    // It says the measures are on their way (not that the result has none).
    QCOMPARE(messageAtArrival, HeadMeasuresView::tr("Computing the head measures of this result…"));
    QCOMPARE(measured.count(), 1);
    const auto r = document()->computed().result;
    QCOMPARE(document()->computed().analyses, measured.analyses.at(0));
    QVERIFY(document()->computed().measures() != nullptr);
    QCOMPARE(r, arrived);  // the same pass, not a new one: the measures came beside it
    QVERIFY(view->message().isEmpty());
    // The core's numbers for this result, computed here on one thread.
    const mhaviz::Problem problem =
        mhaviz::ui::makeComputeProblem(r->config, document()->tensors().get());
    mhaviz::RunControl one;
    one.threads = 1;
    const mhaviz::ResultMeasures want = mhaviz::measure_result(*r, problem.inputs, one);
    for (int h = 0; h < 4; ++h) {
      QVERIFY(identical(view->sections()[0].values[h], want.average(0, h).normalized_entropy));
      QVERIFY(identical(view->sections()[1].values[h], want.average(0, h).confidence));
      QVERIFY(identical(view->sections()[3].values[h], want.average(0, h).ablation));
      QVERIFY(identical(view->sections().back().values[h],
                        want.logit_scale[static_cast<std::size_t>(h)]));
      QVERIFY(!identical(view->sections()[1].values[h], beforeMeasures->average(0, h).confidence));
    }
  }

  // A change made as soon as the previous result arrives: the previous result's measures, if
  // they come at all, are dropped; only the newest result's measures reach the window.
  void measuresOfASupersededResultAreDropped() {
    QVERIFY(measuredAndDrawn());
    mhaviz::Config a = document()->config();
    a.seed += 101;
    mhaviz::Config b = a;
    b.seed += 1;
    const Announced measured(document(), Document::Change::measures);
    bool changed = false;
    const auto conn = connect(document(), &Document::changed, this, [&](Document::Changes what) {
      if (changed || !(what & Document::Change::result) ||
          document()->computed().result->config.seed != a.seed) {
        return;
      }
      changed = true;
      document()->changeConfig(b, QStringLiteral("seed"));
    });
    document()->changeConfig(a, QStringLiteral("seed"));
    const bool settled = QTest::qWaitFor([&] { return changed; }, kTimeout) && measuredAndDrawn();
    disconnect(conn);
    QVERIFY(changed);
    QVERIFY(settled);
    QCOMPARE(measured.count(), 1);
    const auto analyses = measured.analyses.at(0);
    QCOMPARE(document()->computed().result->config.seed, b.seed);
    QCOMPARE(document()->computed().analyses, analyses);
    QVERIFY(identical(m_window->headMeasures()->sections()[1].values[0],
                      analyses->measures->average(0, 0).confidence));
  }

  // The value norms stage when the seed changes: its picture waits for the measures (no
  // "no value norms" message meanwhile) and then draws the new result's norms.
  void valueNormsStageFollowsASeedChange() {
    auto v = document()->view();
    v.stage = Stage::value_norms;
    document()->setView(v);
    QVERIFY(measuredAndDrawn());
    QVERIFY(grid()->message().isEmpty());
    QStringList messages;
    const auto conn =
        connect(grid(), &HeatmapGrid::pictureShown, this, [&] { messages << grid()->message(); });
    mhaviz::Config next = document()->config();
    next.seed += 5;
    document()->changeConfig(next, QStringLiteral("seed"));
    const bool settled = measuredAndDrawn();
    disconnect(conn);
    QVERIFY(settled);
    for (const QString& m : messages) QVERIFY2(m.isEmpty(), qPrintable(m));
    const auto r = document()->computed().result;
    QCOMPARE(r->config.seed, next.seed);
    QCOMPARE(grid()->result(), r);
    const mhaviz::ValueNorms want = mhaviz::value_norms(*r);
    const auto& map = grid()->stageData().maps[0];
    for (int i = 0; i < map.rows; ++i) {
      for (int j = 0; j < map.cols; ++j) {
        QVERIFY(identical(map.valueAt(i, j), want.per_head.value(i * r->Sx + j)));
      }
    }
  }

 private:
  HeatmapGrid* grid() const { return m_window->grid(); }
  /// Idle, with the head measures in and the picture prepared.
  [[nodiscard]] bool measuredAndDrawn() const {
    const bool done = QTest::qWaitFor(
        [this] {
          return !document()->computed().busy && !document()->computed().measuring &&
                 !grid()->isPreparing();
        },
        kTimeout);
    QCoreApplication::processEvents();
    return done;
  }
};

QTEST_MAIN(TestMeasuresView)
#include "test_measures_view.moc"
