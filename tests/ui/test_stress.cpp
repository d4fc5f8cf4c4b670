// Stress: thousands of random parameter and view changes sent to the window's controller with
// no pause (valid and invalid ones, sizes up and down, masks on and off). The window must end
// showing exactly the last valid setting, without crashing, without a stale picture, and with
// bounded memory growth (kRssBoundMiB).

#include <qcustomplot.h>

#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTest>
#include <QUndoStack>
#include <cmath>
#include <cstdio>
#include <optional>
#include <random>

#include "compute/compute_controller.hpp"
#include "mhaviz/core/forward.hpp"
#include "mhaviz/core/memory.hpp"
#include "mhaviz/core/problem.hpp"
#include "prompted_window.hpp"
#include "render/heatmap_grid.hpp"
#include "stages/stage_data.hpp"
#include "window/main_window.hpp"

using mhaviz::ui::ComputeController;
using mhaviz::ui::HeatmapGrid;
using mhaviz::ui::MainWindow;
using mhaviz::ui::Stage;
using mhaviz::ui::ViewOptions;

namespace {

constexpr int kChanges = 3000;
constexpr double kRssBoundMiB = 200;  // allowed RSS growth over the whole run
constexpr int kTimeoutMs = 60000;

double rssMiB() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  long pages = 0, resident = 0;
  const int read = std::fscanf(f, "%ld %ld", &pages, &resident);
  std::fclose(f);
  if (read != 2) return 0;
  return static_cast<double>(resident) * 4096.0 / (1024.0 * 1024.0);
}

// A random setting near `c`: sizes up and down within L, S, E <= 64, heads that may not divide
// E, masks on and off, bias_kv / zero_attn / batch_first toggles, unbatched, bad dropout.
mhaviz::Config mutate(mhaviz::Config c, std::mt19937& gen) {
  auto pick = [&gen](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); };
  switch (pick(0, 9)) {
    case 0:
      c.tgt_len = pick(0, 64);  // 0 is invalid
      break;
    case 1:
      c.src_len = pick(1, 64);
      break;
    case 2:
      c.embed_dim = 8 * pick(1, 8);
      break;
    case 3:
      c.num_heads = std::array<int, 6>{1, 2, 3, 4, 5, 8}[static_cast<std::size_t>(pick(0, 5))];
      break;
    case 4: {
      const int k = pick(0, 7);
      c.attn_mask_spec.kind = std::array<mhaviz::gen::MaskKind, 8>{
          mhaviz::gen::MaskKind::none, mhaviz::gen::MaskKind::causal, mhaviz::gen::MaskKind::window,
          mhaviz::gen::MaskKind::band, mhaviz::gen::MaskKind::block,  mhaviz::gen::MaskKind::random,
          mhaviz::gen::MaskKind::none, mhaviz::gen::MaskKind::alibi}[static_cast<std::size_t>(k)];
      // alibi needs a float 3-D mask: with the defaults (bool, 2-D) the setting is invalid.
      if (c.attn_mask_spec.kind == mhaviz::gen::MaskKind::alibi && pick(0, 1) == 0) {
        c.attn_mask_spec.dtype = mhaviz::gen::MaskDType::floating;
        c.attn_mask_spec.shape = mhaviz::gen::MaskShape::three_d;
      } else {
        c.attn_mask_spec.dtype = mhaviz::gen::MaskDType::boolean;
        c.attn_mask_spec.shape = mhaviz::gen::MaskShape::two_d;
      }
      break;
    }
    case 5:
      c.add_bias_kv = !c.add_bias_kv;
      break;
    case 6:
      c.add_zero_attn = !c.add_zero_attn;
      break;
    case 7:
      c.batch_first = !c.batch_first;
      break;
    case 8:
      c.batch_size = pick(0, 3) == 0 ? std::nullopt : std::optional<std::int64_t>(pick(1, 3));
      break;
    default:
      c.dropout = pick(0, 4) == 0 ? 1.5 : 0.0;  // 1.5 is invalid
      c.seed = static_cast<std::uint64_t>(pick(0, 5));
      break;
  }
  return c;
}

bool valid(const mhaviz::Config& c) {
  if (!ComputeController::quickCheck(c, mhaviz::kDefaultMemoryLimit).isEmpty()) return false;
  try {
    const mhaviz::Problem p = mhaviz::make_problem(c);
    mhaviz::validate(p.config, p.params, p.inputs);
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

bool sameValue(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b));
}

}  // namespace

class TestStress : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { mhaviz::ui::testing::isolateSettings("mhaviz-stress-tests"); }

  void thousandsOfChangesEndOnTheLastValidSetting() {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    ComputeController* c = window.controller();
    HeatmapGrid* grid = window.grid();
    auto idle = [&] {
      return QTest::qWaitFor([&] { return !c->isBusy() && !grid->isPreparing(); }, kTimeoutMs);
    };
    QVERIFY(idle());
    const double rssBefore = rssMiB();

    std::mt19937 gen(20261130);
    mhaviz::Config config = c->config();
    QElapsedTimer timer;
    timer.start();
    int validCount = 0, sampled = 0;
    for (int i = 0; i < kChanges; ++i) {
      config = mutate(config, gen);
      c->changeConfig(config, QStringLiteral("stress change %1").arg(i));
      if (i % 5 == 0) {
        ViewOptions v = c->view();
        v.stage = static_cast<Stage>(std::uniform_int_distribution<int>(0, 10)(gen));
        v.batch = std::uniform_int_distribution<int>(0, 2)(gen);
        v.showAverage = (i % 2) == 0;
        c->setView(v);
      }
      // Results and errors interleave with the changes, but nothing ever waits.
      if (i % 25 == 0) QCoreApplication::processEvents();
      if (i % 50 == 0) {
        ++sampled;
        if (valid(config)) ++validCount;
      }
    }
    // End on a valid setting (the stream above ends wherever the dice fell).
    while (!valid(config)) config = mutate(config, gen);
    c->changeConfig(config, QStringLiteral("final"));
    QVERIFY(idle());
    QTest::qWait(300);  // a stale result or picture arriving late would show up here
    QVERIFY(idle());
    const double sendMs = static_cast<double>(timer.elapsed());

    QCOMPARE(c->config(), config);
    QVERIFY2(c->error().isEmpty(), qPrintable(c->error()));
    QVERIFY(!c->isOutOfDate());
    QVERIFY(c->result() != nullptr);
    QVERIFY(c->result()->config == config);
    checkPictureIs(grid, config);

    // Invalid settings afterwards keep the last valid picture, marked out of date.
    mhaviz::Config bad = config;
    for (int i = 0; i < 200; ++i) {
      bad.embed_dim = 16;
      bad.num_heads = 3;  // 16 is not divisible by 3
      bad.tgt_len = 1 + i % 64;
      c->changeConfig(bad, QStringLiteral("bad %1").arg(i));
    }
    QVERIFY(idle());
    QVERIFY(!c->error().isEmpty());
    QVERIFY(c->isOutOfDate());
    QVERIFY(c->result()->config == config);
    checkPictureIs(grid, config);

    const double rssAfter = rssMiB();
    qInfo(
        "stress: %d changes (+%d view changes) in %.0f ms; ~%d%% valid; %d stale results "
        "dropped; RSS %.1f -> %.1f MiB (growth %.1f MiB, bound %.0f MiB)",
        kChanges, kChanges / 5, sendMs, 100 * validCount / std::max(1, sampled),
        c->staleResultsDropped(), rssBefore, rssAfter, rssAfter - rssBefore, kRssBoundMiB);
#if defined(__SANITIZE_ADDRESS__)
    // ASan keeps freed memory in quarantine, so RSS says nothing about growth there (leaks
    // are LeakSanitizer's job in that build).
    qInfo("stress: RSS bound not checked under AddressSanitizer");
#else
    QVERIFY2(rssAfter - rssBefore < kRssBoundMiB,
             qPrintable(QStringLiteral("RSS grew by %1 MiB").arg(rssAfter - rssBefore)));
#endif
  }

 private:
  // The grid shows `config`'s result: same maps as a fresh forward pass, and every colour-map
  // cell holds the fresh value (maps are at most 64x64 here, so nothing is reduced).
  static void checkPictureIs(HeatmapGrid* grid, const mhaviz::Config& config) {
    const mhaviz::Problem p = mhaviz::make_problem(config);
    const mhaviz::ForwardResult fresh = mhaviz::forward(p.config, p.params, p.inputs);
    const ViewOptions view = grid->view();
    QVERIFY(view.batch < fresh.N);
    const mhaviz::ui::StageData expected = mhaviz::ui::extractStage(fresh, view);
    const mhaviz::ui::StageData& shown = grid->stageData();
    QCOMPARE(grid->mapCount(), static_cast<int>(expected.maps.size()));
    QCOMPARE(shown.maps.size(), expected.maps.size());
    for (std::size_t m = 0; m < expected.maps.size(); ++m) {
      const auto& e = expected.maps[m];
      const auto& s = shown.maps[m];
      QCOMPARE(s.title, e.title);
      QCOMPARE(s.rows, e.rows);
      QCOMPARE(s.cols, e.cols);
      for (int r = 0; r < e.rows; ++r) {
        for (int col = 0; col < e.cols; ++col) {
          QVERIFY2(sameValue(s.valueAt(r, col), e.valueAt(r, col)),
                   qPrintable(QStringLiteral("map %1 cell (%2, %3)").arg(m).arg(r).arg(col)));
        }
      }
    }
    // The colour map of the first map holds those values (query 0 at the top).
    QCPColorMap* colorMap = nullptr;
    for (int i = 0; i < grid->plot()->plottableCount() && colorMap == nullptr; ++i) {
      colorMap = qobject_cast<QCPColorMap*>(grid->plot()->plottable(i));
    }
    QVERIFY(colorMap != nullptr);
    const auto& e = expected.maps.front();
    if (e.rows >= 2 && e.cols >= 2) {
      QCOMPARE(colorMap->data()->keySize(), e.cols);
      QCOMPARE(colorMap->data()->valueSize(), e.rows);
      for (int r = 0; r < e.rows; ++r) {
        for (int col = 0; col < e.cols; ++col) {
          const double x = e.valueAt(r, col);
          if (!std::isfinite(x)) continue;  // NaN and -inf are drawn by colour, not by value
          QVERIFY2(sameValue(colorMap->data()->cell(col, e.rows - 1 - r), x),
                   qPrintable(QStringLiteral("colour map cell (%1, %2)").arg(r).arg(col)));
        }
      }
    }
  }
};

QTEST_MAIN(TestStress)
#include "test_stress.moc"
