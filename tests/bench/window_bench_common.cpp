#include "window_bench_common.hpp"

#include <QCoreApplication>
#include <QObject>
#include <algorithm>
#include <cstdio>
#include <ctime>

#include "document/document.hpp"
#include "render/heatmap_grid.hpp"
#include "window/main_window.hpp"

namespace mhaviz::bench {

using mhaviz::ui::Document;
using mhaviz::ui::HeatmapGrid;
using mhaviz::ui::MainWindow;

namespace {

struct Row {
  std::string what, size, value;
};
std::vector<Row> g_rows;

// CPU time of the calling thread: a gap in which the GUI thread used little of it was the
// machine's load (the thread waited for a core), not work on the GUI thread.
qint64 threadCpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<qint64>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

}  // namespace

bool g_ok = true;

std::string Size::str() const {
  // Appended piece by piece: GCC 12 warns (-Wrestrict, falsely) on "(" + std::to_string(...).
  std::string text = "(";
  for (const std::int64_t v : {N, L, S, E, H}) text.append(std::to_string(v)).append(",");
  text.back() = ')';
  return text;
}

void report(const std::string& what, const std::string& size, const std::string& value) {
  g_rows.push_back({what, size, value});
  std::fprintf(stderr, "  %s %s: %s\n", what.c_str(), size.c_str(), value.c_str());
}

void report(const std::string& what, const Size& size, const std::string& value) {
  report(what, size.str(), value);
}

void printReport() {
  std::printf("%-44s %-20s %s\n", "measurement", "(N,L,S,E,H)", "result");
  for (const Row& r : g_rows) {
    std::printf("%-44s %-20s %s\n", r.what.c_str(), r.size.c_str(), r.value.c_str());
  }
}

std::string ms(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", x);
  return buf;
}

bool waitFor(const std::function<bool()>& done, qint64 timeoutMs) {
  // The GUI thread sleeps until an event comes, as in the window's own event loop: a loop of
  // processEvents(flags, 5) returns at once when nothing is pending, so it polled without
  // pause and kept one of the machine's two cores busy, which the worker's threads then
  // shared (the 32k pass took about three times the core bench's time). A 5 ms timer wakes the
  // loop to check `done` and the timeout.
  QTimer wake;
  wake.start(5);
  QElapsedTimer t;
  t.start();
  while (!done()) {
    if (t.elapsed() > timeoutMs) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
  }
  return true;
}

bool tracing() { return qEnvironmentVariableIsSet("MHAVIZ_BENCH_TRACE"); }

StallMeter::StallMeter() {
  timer_.setTimerType(Qt::PreciseTimer);
  timer_.setInterval(1);
  QObject::connect(&timer_, &QTimer::timeout, [this] {
    const qint64 now = clock_.nsecsElapsed();
    const qint64 cpu = threadCpuNs();
    if (now - last_ > 15000000 && tracing())
      std::fprintf(stderr, "    gap %.1f ms (GUI thread CPU %.1f ms) ending at %.1f ms\n",
                   static_cast<double>(now - last_) / 1e6,
                   static_cast<double>(cpu - lastCpu_) / 1e6, static_cast<double>(now) / 1e6);
    lastCpu_ = cpu;
    maxGapNs_ = std::max(maxGapNs_, now - last_);
    last_ = now;
  });
}

void StallMeter::start() {
  clock_.start();
  last_ = 0;
  maxGapNs_ = 0;
  lastCpu_ = threadCpuNs();
  timer_.start();
}

double StallMeter::stopMs() {
  timer_.stop();
  return static_cast<double>(std::max(maxGapNs_, clock_.nsecsElapsed() - last_)) / 1e6;
}

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
  return waitFor([&] {
    return !w.document()->computed().busy && !w.document()->computed().measuring &&
           !w.grid()->isPreparing();
  });
}

namespace {
// Whether a result was computed from `config`: the reduced view's result labels each block, so
// the token labels are left out of the comparison.
bool computedFrom(const mhaviz::ui::ResultPtr& result, const mhaviz::Config& config) {
  if (!result) return false;
  mhaviz::Config a = result->config, b = config;
  a.query_labels.clear();
  a.key_labels.clear();
  b.query_labels.clear();
  b.key_labels.clear();
  return a == b;
}
}  // namespace

ChangeTimes changeAndWait(MainWindow& w, const mhaviz::Config& config) {
  Document* document = w.document();
  bool shown = false;
  ChangeTimes times;
  QElapsedTimer t;
  const auto arrived = QObject::connect(document, &Document::changed, [&](Document::Changes what) {
    if ((what & Document::Change::result) && times.resultArrived < 0 &&
        computedFrom(document->computed().result, config)) {
      times.resultArrived = static_cast<double>(t.nsecsElapsed()) / 1e6;
      times.workerCompute = document->computed().computeMs;
    }
  });
  const auto drawn = QObject::connect(w.grid(), &HeatmapGrid::pictureShown, [&] {
    if (!shown && computedFrom(document->computed().result, config)) shown = true;
  });
  t.start();
  document->changeConfig(config, QStringLiteral("bench"));
  if (waitFor([&] { return shown; })) times.picture = static_cast<double>(t.nsecsElapsed()) / 1e6;
  QObject::disconnect(arrived);
  QObject::disconnect(drawn);
  if (times.picture < 0) {
    std::fprintf(stderr, "no picture for the change (error: %s)\n",
                 qPrintable(document->computed().error.isEmpty() ? QStringLiteral("none")
                                                                 : document->computed().error));
    g_ok = false;
  } else if (tracing()) {
    std::fprintf(stderr,
                 "    change: worker computed %.1f ms, result on the GUI thread at %.1f ms, "
                 "picture at %.1f ms\n",
                 times.workerCompute, times.resultArrived, times.picture);
  }
  return times;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  const auto k = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(k, v.size() - 1)];
}

}  // namespace mhaviz::bench
