// mhaviz-window-bench: how the window feels, measured offscreen on the real MainWindow.
//   - parameter change -> repainted grid latency (p50/p95/max over 30 changes of the seed, which
//     changes every weight) at (N,L,S,E,H) = (2,32,32,64,8) and (1,512,512,512,8);
//   - the longest stall of the GUI event loop (gaps between ticks of a 1 ms timer) while
//     (1,2048,2048,512,8) is computed and drawn, and while a zoom into it is re-reduced;
//   - repaint time of the 8-head grid at L=S=2048 (a new stage of the same result): total time
//     to the drawn picture and the longest GUI stall, with background preparation on (as in the
//     window) and off (everything on the GUI thread, as export does);
//   - the model view (File > Open of a model index) at 12 layers x 12 heads x 512 tokens, E = 768:
//     open -> grid drawn (first and warm), the longest GUI stall meanwhile, a click on a map ->
//     that layer's full view drawn, and peak RSS. The model file is written first by a child
//     process (this binary with --write-model DIR), so its memory is not in this process's peak.
// Run: QT_QPA_PLATFORM=offscreen build/bin/mhaviz-window-bench [--smoke] [--model-only]
// --model-only measures the model view alone. MHAVIZ_BENCH_TRACE=1 prints each GUI gap over
// 15 ms with the GUI thread's own CPU time in it (little CPU: the machine's load, not GUI work).
// --smoke uses tiny sizes (for ctest); it checks that every picture arrives, never the timing.

#include <qcustomplot.h>

#include <sys/resource.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QMouseEvent>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "compute/compute_controller.hpp"
#include "bench_model_file.hpp"
#include "render/heatmap_grid.hpp"
#include "session/session_document.hpp"
#include "window/main_window.hpp"
#include "window/model_pages.hpp"
#include "window/model_view.hpp"

using mhaviz::ui::ComputeController;
using mhaviz::ui::HeatmapGrid;
using mhaviz::ui::MainWindow;
using mhaviz::ui::Stage;
using mhaviz::ui::ViewOptions;

namespace {

constexpr qint64 kTimeoutMs = 600000;

struct Size {
  std::int64_t N, L, S, E, H;
  [[nodiscard]] std::string str() const {
    return "(" + std::to_string(N) + "," + std::to_string(L) + "," + std::to_string(S) + "," +
           std::to_string(E) + "," + std::to_string(H) + ")";
  }
};

struct Row {
  std::string what, size, value;
};
std::vector<Row> g_rows;
bool g_ok = true;

void report(const std::string& what, const std::string& size, const std::string& value) {
  g_rows.push_back({what, size, value});
  std::fprintf(stderr, "  %s %s: %s\n", what.c_str(), size.c_str(), value.c_str());
}
void report(const std::string& what, const Size& size, const std::string& value) {
  report(what, size.str(), value);
}

std::string ms(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", x);
  return buf;
}

// Runs the event loop until `done` or the timeout; false on timeout.
bool waitFor(const std::function<bool()>& done, qint64 timeoutMs = kTimeoutMs) {
  QElapsedTimer t;
  t.start();
  while (!done()) {
    if (t.elapsed() > timeoutMs) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  }
  return true;
}

// CPU time of the calling thread: a gap in which the GUI thread used little of it was the
// machine's load (the thread waited for a core), not work on the GUI thread.
qint64 threadCpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<qint64>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

// Longest gap between ticks of a 1 ms timer: how long the GUI thread did not answer. With
// MHAVIZ_BENCH_TRACE set, every gap over 15 ms is printed with the GUI thread's CPU time in it.
class StallMeter {
 public:
  StallMeter() {
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(1);
    QObject::connect(&timer_, &QTimer::timeout, [this] {
      const qint64 now = clock_.nsecsElapsed();
      const qint64 cpu = threadCpuNs();
      if (now - last_ > 15000000 && qEnvironmentVariableIsSet("MHAVIZ_BENCH_TRACE"))
        std::fprintf(stderr, "    gap %.1f ms (GUI thread CPU %.1f ms) ending at %.1f ms\n",
                     (now - last_) / 1e6, (cpu - lastCpu_) / 1e6, now / 1e6);
      lastCpu_ = cpu;
      maxGapNs_ = std::max(maxGapNs_, now - last_);
      last_ = now;
    });
  }
  void start() {
    clock_.start();
    last_ = 0;
    maxGapNs_ = 0;
    lastCpu_ = threadCpuNs();
    timer_.start();
  }
  double stopMs() {
    timer_.stop();
    return static_cast<double>(std::max(maxGapNs_, clock_.nsecsElapsed() - last_)) / 1e6;
  }

 private:
  QTimer timer_;
  QElapsedTimer clock_;
  qint64 last_ = 0, maxGapNs_ = 0, lastCpu_ = 0;
};

mhaviz::Config configOf(const Size& s, std::uint64_t seed) {
  mhaviz::Config c;
  c.batch_size = s.N;
  c.tgt_len = s.L;
  c.src_len = s.S;
  c.embed_dim = s.E;
  c.num_heads = s.H;
  c.seed = seed;
  return c;
}

bool idle(MainWindow& w) {
  return waitFor([&] { return !w.controller()->isBusy() && !w.grid()->isPreparing(); });
}

// Changes the config and waits until the grid shows its result; returns ms (or -1).
double changeAndWait(MainWindow& w, const mhaviz::Config& config) {
  ComputeController* c = w.controller();
  bool shown = false;
  QElapsedTimer t;
  const auto conn = QObject::connect(w.grid(), &HeatmapGrid::pictureShown, [&] {
    if (!shown && c->result() && c->result()->config == config) {
      shown = true;
    }
  });
  double elapsed = -1;
  t.start();
  c->changeConfig(config, QStringLiteral("bench"));
  if (waitFor([&] { return shown; })) elapsed = static_cast<double>(t.nsecsElapsed()) / 1e6;
  QObject::disconnect(conn);
  if (elapsed < 0) {
    std::fprintf(stderr, "no picture for the change (error: %s)\n",
                 qPrintable(c->error().isEmpty() ? QStringLiteral("none") : c->error()));
    g_ok = false;
  }
  return elapsed;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  const auto k = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(k, v.size() - 1)];
}

void latency(MainWindow& w, const Size& size, int changes) {
  if (changeAndWait(w, configOf(size, 1000)) < 0) return;  // first computation, not counted
  idle(w);
  std::vector<double> times;
  for (int i = 0; i < changes; ++i) {
    const double t = changeAndWait(w, configOf(size, static_cast<std::uint64_t>(i + 1)));
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

// Longest GUI stall while `size` is computed and drawn, then while a zoom into the middle
// 1/8 x 1/8 of the maps is re-reduced at full resolution.
void stalls(MainWindow& w, const Size& size) {
  StallMeter meter;
  meter.start();
  double total = -1;
  QTimer::singleShot(20, [&] { total = changeAndWait(w, configOf(size, 7)); });
  waitFor([&] { return total != -1 || !g_ok; });
  idle(w);
  waitFor([] { return false; }, 200);
  report("longest GUI stall, compute + draw", size, ms(meter.stopMs()));
  report("change -> repainted grid (once)", size, ms(total));

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

// The grid at the result's size: a stage change (all maps re-read and re-drawn).
void repaint(const mhaviz::ui::ResultPtr& result, const Size& size, bool background) {
  HeatmapGrid grid;
  grid.resize(1400, 900);
  grid.setBackgroundPreparation(background);
  grid.show();
  ViewOptions view;
  bool shown = false;
  QObject::connect(&grid, &HeatmapGrid::pictureShown, [&] { shown = true; });
  grid.setResult(result, view);
  waitFor([&] { return shown; });
  std::vector<double> totals, stallsMs;
  for (int i = 0; i < 4; ++i) {
    view.stage = i % 2 == 0 ? Stage::raw_scores : Stage::weights;
    StallMeter meter;
    meter.start();
    shown = false;
    QElapsedTimer t;
    t.start();
    grid.setView(view);
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

double peakRssMiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // KiB on Linux
}

mhaviz::bench::BenchModel benchModel(bool smoke) {
  mhaviz::bench::BenchModel m;
  if (smoke) {
    m.layers = 2;
    m.heads = 2;
    m.tokens = 8;
    m.embed = 16;
  }
  return m;
}

// Opens the model through the window's model view and waits until the grid is drawn and
// painted; returns ms (or -1). `stallMs` gets the longest GUI stall meanwhile.
double openModelAndWait(MainWindow& w, const QString& index, double& stallMs) {
  mhaviz::ui::ModelView* view = w.pages()->modelView();
  bool finished = false;
  const auto conn = QObject::connect(view, &mhaviz::ui::ModelView::modelFinished,
                                     [&] { finished = true; });
  StallMeter meter;
  meter.start();
  QElapsedTimer t;
  t.start();
  w.pages()->openModel(index);
  double elapsed = -1;
  if (waitFor([&] { return finished && !view->isBusy(); })) {
    QCoreApplication::processEvents();  // the canvas's pending paint
    elapsed = static_cast<double>(t.nsecsElapsed()) / 1e6;
  }
  QObject::disconnect(conn);
  waitFor([] { return false; }, 100);
  stallMs = meter.stopMs();
  const auto loaded = view->loaded();
  if (elapsed < 0 || !view->error().isEmpty() || view->picture().isNull() || !loaded) {
    std::fprintf(stderr, "model view: no grid (error: %s)\n", qPrintable(view->error()));
    g_ok = false;
    return -1;
  }
  if (loaded->computed.disagreeing() != 0) {
    std::fprintf(stderr, "model view: %zu layers disagree with the stored outputs\n",
                 loaded->computed.disagreeing());
    g_ok = false;
  }
  return elapsed;
}

// The model view at 12 layers x 12 heads x 512 tokens (E = 768, batch 1).
void modelView(MainWindow& w, bool smoke) {
  const mhaviz::bench::BenchModel m = benchModel(smoke);
  const std::string size = std::to_string(m.layers) + "x" + std::to_string(m.heads) + "x" +
                           std::to_string(m.tokens) + ", E=" + std::to_string(m.embed);
  QTemporaryDir dir;
  QStringList args{QStringLiteral("--write-model"), dir.path()};
  if (smoke) args << QStringLiteral("--smoke");
  QElapsedTimer written;
  written.start();
  if (!dir.isValid() || QProcess::execute(QCoreApplication::applicationFilePath(), args) != 0) {
    std::fprintf(stderr, "model view: the model file could not be written\n");
    g_ok = false;
    return;
  }
  const QString index = dir.filePath(QString::fromStdString(m.name) + QStringLiteral(".json"));
  const qint64 npzBytes =
      QFileInfo(dir.filePath(QString::fromStdString(m.name) + QStringLiteral(".npz"))).size();
  report("model file written (child process)", size,
         ms(static_cast<double>(written.nsecsElapsed()) / 1e6) + ", .npz " +
             std::to_string(npzBytes) + " bytes");

  double stall = 0;
  const double first = openModelAndWait(w, index, stall);
  if (first < 0) return;
  report("model view: open -> grid drawn (first)", size, ms(first));
  report("longest GUI stall, model read + computed + drawn (first)", size, ms(stall));
  const double warm = openModelAndWait(w, index, stall);
  if (warm < 0) return;
  report("model view: open -> grid drawn (warm)", size, ms(warm));
  report("longest GUI stall, model read + computed + drawn (warm)", size, ms(stall));

  // A click on layer 5 (or the last), head 7 (or the last) opens that layer's full view.
  mhaviz::ui::ModelView* view = w.pages()->modelView();
  const auto loaded = view->loaded();
  const int layer = static_cast<int>(std::min<std::int64_t>(5, m.layers - 1));
  const int head = static_cast<int>(std::min<std::int64_t>(7, m.heads - 1));
  const mhaviz::Config want = loaded->model.layers[std::size_t(layer)].problem.config;
  const QRect r = view->mapRect(layer, head);
  if (r.isEmpty()) {
    std::fprintf(stderr, "model view: no map for layer %d head %d\n", layer, head);
    g_ok = false;
    return;
  }
  ComputeController* c = w.controller();
  bool shown = false;
  const auto conn = QObject::connect(w.grid(), &HeatmapGrid::pictureShown, [&] {
    if (c->result() && c->result()->config == want) shown = true;
  });
  StallMeter meter;
  meter.start();
  QElapsedTimer t;
  t.start();
  const QPointF at(r.center());
  QWidget* canvas = view->canvas();
  QMouseEvent press(QEvent::MouseButtonPress, at, canvas->mapToGlobal(at), Qt::LeftButton,
                    Qt::LeftButton, Qt::NoModifier);
  QMouseEvent release(QEvent::MouseButtonRelease, at, canvas->mapToGlobal(at), Qt::LeftButton,
                      Qt::NoButton, Qt::NoModifier);
  QCoreApplication::sendEvent(canvas, &press);
  QCoreApplication::sendEvent(canvas, &release);
  const bool ok = !w.pages()->showingModel() && waitFor([&] { return shown; });
  const double clickMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
  QObject::disconnect(conn);
  idle(w);
  waitFor([] { return false; }, 100);
  const double clickStall = meter.stopMs();
  if (!ok) {
    std::fprintf(stderr, "model view: the click did not open layer %d\n", layer);
    g_ok = false;
    return;
  }
  report("model view: click a map -> layer's full view drawn", size, ms(clickMs));
  report("longest GUI stall, click -> full view", size, ms(clickStall));
  char rss[48];
  std::snprintf(rss, sizeof rss, "%.0f MiB", peakRssMiB());
  report("peak RSS after the model view (window process)", size, rss);
}


}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "--write-model") {  // the child of modelView()
    try {
      mhaviz::bench::writeBenchModel(argv[2], benchModel(argc > 3 && std::string(argv[3]) == "--smoke"));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "cannot write the model: %s\n", e.what());
      return 1;
    }
    return 0;
  }
  QApplication app(argc, argv);
  QStandardPaths::setTestModeEnabled(true);  // no user settings are read or written
  QCoreApplication::setOrganizationName(QStringLiteral("mhaviz-tests"));
  QCoreApplication::setApplicationName(QStringLiteral("mhaviz-window-bench"));
  const bool smoke = app.arguments().contains(QStringLiteral("--smoke"));
  const bool modelOnly = app.arguments().contains(QStringLiteral("--model-only"));

  MainWindow window;
  mhaviz::ui::SessionDocument::Prompts prompts;  // never a modal prompt
  prompts.unsaved = [](const QString&) { return mhaviz::ui::UnsavedAnswer::discard; };
  prompts.recover = [](const QDateTime&) { return false; };
  prompts.error = [](const QString&, const QString& message) {
    std::fprintf(stderr, "error prompt: %s\n", qPrintable(message));
    g_ok = false;
  };
  window.document()->setPrompts(prompts);
  window.resize(1400, 900);
  window.show();
  window.controller()->setMemoryLimit(std::uint64_t{16} << 30);
  if (!idle(window)) return 1;

  const Size small = smoke ? Size{2, 8, 8, 16, 4} : Size{2, 32, 32, 64, 8};
  const Size medium = smoke ? Size{1, 64, 64, 32, 4} : Size{1, 512, 512, 512, 8};
  const Size big = smoke ? Size{1, 256, 256, 32, 8} : Size{1, 2048, 2048, 512, 8};
  const int changes = smoke ? 3 : 30;

  std::fprintf(stderr, "measuring%s...\n", smoke ? " (smoke sizes)" : "");
  const ViewOptions startView = window.controller()->view();
  modelView(window, smoke);  // first: the peak RSS it reports is the model view's
  // Back to the window as it started: the opened layer's tensors, solo head and stage go.
  window.pages()->showLayerView();
  window.controller()->setTensors(nullptr);
  window.controller()->setView(startView);
  if (!modelOnly) {
    latency(window, small, changes);
    latency(window, medium, changes);
    stalls(window, big);
  }
  const mhaviz::ui::ResultPtr result = modelOnly ? nullptr : window.controller()->result();
  if (result != nullptr) {
    const Size grid{result->N, result->L, result->S, result->E, result->H};
    repaint(result, grid, true);
    repaint(result, grid, false);
  }

  std::printf("%-40s %-20s %s\n", "measurement", "(N,L,S,E,H)", "result");
  for (const Row& r : g_rows) {
    std::printf("%-40s %-20s %s\n", r.what.c_str(), r.size.c_str(), r.value.c_str());
  }
  if (!g_ok) std::printf("FAILED: a picture did not arrive (see above)\n");
  return g_ok ? 0 : 1;
}
