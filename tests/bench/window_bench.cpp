// mhaviz-window-bench: how the window feels, measured offscreen on the real MainWindow.
//   - parameter change -> repainted grid latency (p50/p95/max over 30 changes of the seed, which
//     changes every weight) at (N,L,S,E,H) = (2,32,32,64,8) and (1,512,512,512,8);
//   - at (1,2048,2048,512,8): the first change -> repainted grid (the first computation at that
//     size in this process) and warm ones (new seeds of the same size after the first one has
//     completed), each with the longest stall of the GUI event loop (gaps between ticks of a
//     1 ms timer) while it is computed and drawn; then a zoom into it re-reduced;
//   - repaint time of the 8-head grid at L=S=2048 (a new stage of the same result): total time
//     to the drawn picture and the longest GUI stall, with background preparation on (as in the
//     window) and off (everything on the GUI thread, as export does);
//   - the model view (window_bench_model.cpp), and the model view of a vision transformer's
//     capture (version 3, with the Image view) and of a weights-only file (version 4), then
//     that file compared with a second one (Compare > Compare the model with a file…);
//   - the head view at 64 and 512 tokens x 8 heads (window_bench_tokens.cpp);
//   - with --long alone: L = S = 32768, E = 512, H = 8, causal (the reduced view): the change ->
//     repainted grid, the longest GUI stall while it computes, and the process's peak RSS.
// Run: QT_QPA_PLATFORM=offscreen build/bin/mhaviz-window-bench [--smoke] [--model-only]
//      [--big-only] [--head-view-only] [--repaint-only] [--vision-only] [--weights-only]
//      [--warm=N] [--long]
// --model-only measures the model views (all three kinds) alone; --vision-only the vision
// transformer's alone; --weights-only the weights-only file's alone; --big-only the (1,2048,2048,512,8) changes (first
// and N warm ones, default 3) and the zoom alone; --head-view-only the head view alone;
// --repaint-only one (1,2048,2048,512,8) change, then the grid repaint with background on.
// MHAVIZ_BENCH_TRACE=1 prints each GUI gap over 15 ms with the GUI thread's own CPU time in it,
// and the phases of each big change (the worker's computation, the result's arrival on the GUI
// thread, the picture).
// --smoke uses tiny sizes (for ctest); it checks that every picture arrives, never the timing.

#include <qcustomplot.h>

#include <sys/resource.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "mhaviz/core/base/pages.hpp"
#include "model/model_pages.hpp"
#include "render/heatmap_grid.hpp"
#include "render/result_maps.hpp"
#include "session/session_files.hpp"
#include "window/main_window.hpp"
#include "window_bench_common.hpp"

using mhaviz::ui::Computation;
using mhaviz::ui::Document;
using mhaviz::ui::HeatmapGrid;
using mhaviz::ui::MainWindow;
using mhaviz::ui::Stage;
using mhaviz::ui::ViewOptions;

using namespace mhaviz::bench;

namespace {

void latency(MainWindow& w, const Size& size, int changes) {
  if (changeAndWait(w, configOf(size, 1000)).picture < 0) return;  // first one, not counted
  idle(w);
  std::vector<double> times;
  for (int i = 0; i < changes; ++i) {
    const double t = changeAndWait(w, configOf(size, static_cast<std::uint64_t>(i + 1))).picture;
    if (t < 0) return;
    times.push_back(t);
    idle(w);
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "p50 %.1f ms, p95 %.1f ms, max %.1f ms (%d changes)",
                percentile(times, 0.5), percentile(times, 0.95),
                *std::max_element(times.begin(), times.end()), changes);
  report("change -> repainted grid", size, buf);
}

// One change to `seed` at `size`, measured: to the picture, and the longest GUI stall from the
// change until the window is idle again (everything computed and drawn). -1 when no picture.
double measuredChange(MainWindow& w, const Size& size, std::uint64_t seed, double& stallMs,
                      ChangeTimes& times) {
  StallMeter meter;
  meter.start();
  bool done = false;
  // From inside the running event loop, as a user's change arrives.
  QTimer::singleShot(20, [&] {
    times = changeAndWait(w, configOf(size, seed));
    done = true;
  });
  waitFor([&] { return done; });
  idle(w);
  waitFor([] { return false; }, 200);
  stallMs = meter.stopMs();
  return times.picture;
}

std::string phases(const ChangeTimes& t) {
  char buf[128];
  std::snprintf(buf, sizeof buf, " (worker computed %.0f ms; result on the GUI thread at %.0f ms)",
                t.workerCompute, t.resultArrived);
  return buf;
}

// At `size`: the first change -> repainted grid and `warm` more of the same size (new seeds,
// each after the one before has completed), each with the longest GUI stall while it is
// computed and drawn; then a zoom into the middle 1/8 x 1/8 of the maps re-reduced at full
// resolution.
void bigChanges(MainWindow& w, const Size& size, int warm) {
  double stall = 0;
  ChangeTimes times;
  const double first = measuredChange(w, size, 7, stall, times);
  if (first < 0) return;
  report("change -> repainted grid, first", size, ms(first) + phases(times));
  report("longest GUI stall, first change", size, ms(stall));
  std::vector<double> warmMs, warmStalls;
  for (int i = 0; i < warm; ++i) {
    const double t = measuredChange(w, size, 100 + static_cast<std::uint64_t>(i), stall, times);
    if (t < 0) return;
    warmMs.push_back(t);
    warmStalls.push_back(stall);
    report("change -> repainted grid, warm #" + std::to_string(i + 1), size, ms(t) + phases(times));
    report("longest GUI stall, warm #" + std::to_string(i + 1), size, ms(stall));
  }
  if (warm > 0) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "median %.1f ms, min %.1f ms; longest GUI stall median %.1f ms, "
                  "max %.1f ms (%d changes)",
                  percentile(warmMs, 0.5), *std::min_element(warmMs.begin(), warmMs.end()),
                  percentile(warmStalls, 0.5),
                  *std::max_element(warmStalls.begin(), warmStalls.end()), warm);
    report("change -> repainted grid, warm", size, buf);
  }

  HeatmapGrid* grid = w.grid();
  QCPColorMap* map = nullptr;
  for (int i = 0; i < grid->plot()->plottableCount() && map == nullptr; ++i) {
    map = qobject_cast<QCPColorMap*>(grid->plot()->plottable(i));
  }
  if (map == nullptr) {
    g_ok = false;
    return;
  }
  // A window that fits the map's pixels, so that the re-reduction shows single cells.
  const QRect rect = map->keyAxis()->axisRect()->rect();
  const int side = static_cast<int>(
      std::max<std::int64_t>(2, std::min<std::int64_t>({size.L / 8, rect.width(), rect.height()})));
  const double lo = static_cast<double>(size.L / 2) - 0.5;
  StallMeter meter;
  meter.start();
  QElapsedTimer t;
  t.start();
  map->keyAxis()->setRange(lo, lo + side);
  map->valueAxis()->setRange(lo, lo + side);
  const bool exact = waitFor([&] { return map->data()->keySize() == side; }, 60000);
  const double zoomMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
  waitFor([] { return false; }, 100);
  report("longest GUI stall, zoom re-reduction", size, ms(meter.stopMs()));
  report("zoom -> exact cells shown", size, exact ? ms(zoomMs) : std::string("not reached"));
  if (!exact) g_ok = false;
}

// The long context in the window: one change to L = S = 32768 causal, drawn reduced.
void longContext(MainWindow& w, bool smoke) {
  const Size size = smoke ? Size{1, 2048, 2048, 32, 4} : Size{1, 32768, 32768, 512, 8};
  mhaviz::Config c = configOf(size, 7);
  c.attn_mask_spec.kind = mhaviz::gen::MaskKind::causal;
  if (smoke) w.computation()->setMemoryLimit(std::uint64_t{64} << 20);  // reduced at this size
  StallMeter meter;
  meter.start();
  ChangeTimes times;
  bool done = false;
  QTimer::singleShot(20, [&] {
    times = changeAndWait(w, c);
    done = true;
  });
  waitFor([&] { return done; });
  idle(w);
  const double stall = meter.stopMs();
  if (times.picture < 0) return;
  report("change -> repainted grid, causal, reduced", size, ms(times.picture) + phases(times));
  report("longest GUI stall while it computes", size, ms(stall));
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(u.ru_maxrss) / 1024.0);
  report("peak RSS of the window process", size, buf);
}

// The grid at the result's size: a stage change (all maps re-read and re-drawn).
void repaint(const mhaviz::ui::ResultPtr& result, const Size& size, bool background) {
  HeatmapGrid grid;
  grid.resize(1400, 900);
  grid.setBackgroundPreparation(background);
  grid.show();
  ViewOptions view;
  bool shown = false;
  QObject::connect(&grid, &HeatmapGrid::pictureShown, [&] { shown = true; });
  showResult(grid, result, view);
  waitFor([&] { return shown; });
  std::vector<double> totals, stallsMs;
  for (int i = 0; i < 4; ++i) {
    view.stage = i % 2 == 0 ? Stage::raw_scores : Stage::weights;
    StallMeter meter;
    meter.start();
    shown = false;
    QElapsedTimer t;
    t.start();
    showView(grid, view);
    if (!waitFor([&] { return shown; })) {
      g_ok = false;
      return;
    }
    totals.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    waitFor([] { return false; }, 20);
    stallsMs.push_back(meter.stopMs());
  }
  char buf[128];
  std::snprintf(buf, sizeof buf, "%.1f ms to picture, longest GUI stall %.1f ms (median of 4)",
                percentile(totals, 0.5), percentile(stallsMs, 0.5));
  report(std::string(background ? "grid repaint, background on" : "grid repaint, all on GUI"), size,
         buf);
}

}  // namespace

int main(int argc, char** argv) {
  mhaviz::restart_with_huge_pages(argv);  // as the window starts (app/gui_main.cpp)
  if (argc >= 3 && std::string(argv[1]) == "--write-model") {  // the child of the model views
    QStringList childArgs;
    for (int i = 0; i < argc; ++i) childArgs << QString::fromLocal8Bit(argv[i]);
    return writeModelChild(childArgs);
  }
  QApplication app(argc, argv);
  QStandardPaths::setTestModeEnabled(true);  // no user settings are read or written
  QCoreApplication::setOrganizationName(QStringLiteral("mhaviz-tests"));
  QCoreApplication::setApplicationName(QStringLiteral("mhaviz-window-bench"));
  const QStringList args = app.arguments();
  const bool smoke = args.contains(QStringLiteral("--smoke"));
  const bool modelOnly = args.contains(QStringLiteral("--model-only"));
  const bool bigOnly = args.contains(QStringLiteral("--big-only"));
  const bool longOnly = args.contains(QStringLiteral("--long"));
  const bool headOnly = args.contains(QStringLiteral("--head-view-only"));
  const bool repaintOnly = args.contains(QStringLiteral("--repaint-only"));
  const bool visionOnly = args.contains(QStringLiteral("--vision-only"));
  const bool weightsOnly = args.contains(QStringLiteral("--weights-only"));
  int warm = 3;
  for (const QString& a : args) {
    if (a.startsWith(QStringLiteral("--warm="))) warm = a.mid(7).toInt();
  }

  MainWindow window;
  mhaviz::ui::SessionFiles::Prompts prompts;  // never a modal prompt
  prompts.unsaved = [](const QString&) { return mhaviz::ui::UnsavedAnswer::discard; };
  prompts.recover = [](const QDateTime&) { return false; };
  prompts.error = [](const QString&, const QString& message) {
    std::fprintf(stderr, "error prompt: %s\n", qPrintable(message));
    g_ok = false;
  };
  window.session()->setPrompts(prompts);
  window.resize(1400, 900);
  window.show();
  window.computation()->setMemoryLimit(std::uint64_t{16} << 30);
  if (!idle(window)) return 1;

  const Size small = smoke ? Size{2, 8, 8, 16, 4} : Size{2, 32, 32, 64, 8};
  const Size medium = smoke ? Size{1, 64, 64, 32, 4} : Size{1, 512, 512, 512, 8};
  const Size big = smoke ? Size{1, 256, 256, 32, 8} : Size{1, 2048, 2048, 512, 8};
  const int changes = smoke ? 3 : 30;

  std::fprintf(stderr, "measuring%s...\n", smoke ? " (smoke sizes)" : "");
  if (longOnly) {
    longContext(window, smoke);
    printReport();
    if (!g_ok) std::printf("FAILED: a picture did not arrive (see above)\n");
    return g_ok ? 0 : 1;
  }
  if (repaintOnly) {
    double stall = 0;
    ChangeTimes times;
    if (measuredChange(window, big, 7, stall, times) < 0) return 1;
    const mhaviz::ui::ResultPtr result = window.document()->computed().result;
    repaint(result, Size{result->N, result->L, result->S, result->E, result->H}, true);
    printReport();
    return g_ok ? 0 : 1;
  }
  if (visionOnly || weightsOnly) {
    if (visionOnly) visionModelView(window, smoke);
    if (weightsOnly) weightsModelView(window, smoke);
    printReport();
    if (!g_ok) std::printf("FAILED: a picture did not arrive (see above)\n");
    return g_ok ? 0 : 1;
  }
  if (headOnly) {
    headView(window, smoke);
    printReport();
    return g_ok ? 0 : 1;
  }
  if (!bigOnly) {
    const ViewOptions startView = window.document()->view();
    modelView(window, smoke);  // first: the peak RSS it reports is the model view's
    visionModelView(window, smoke);
    weightsModelView(window, smoke);
    // Back to the window as it started: the opened layer's tensors, solo head and stage go.
    window.pages()->showLayerView();
    window.document()->setTensors(nullptr);
    window.document()->setView(startView);
  }
  if (!modelOnly) {
    if (!bigOnly) {
      headView(window, smoke);
      latency(window, small, changes);
      latency(window, medium, changes);
    }
    bigChanges(window, big, warm);
  }
  const mhaviz::ui::ResultPtr result =
      modelOnly || bigOnly ? nullptr : window.document()->computed().result;
  if (result != nullptr) {
    const Size grid{result->N, result->L, result->S, result->E, result->H};
    repaint(result, grid, true);
    repaint(result, grid, false);
  }

  printReport();
  if (!g_ok) std::printf("FAILED: a picture did not arrive (see above)\n");
  return g_ok ? 0 : 1;
}
