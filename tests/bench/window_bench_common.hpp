#pragma once
// What the parts of mhaviz-window-bench share: the sizes, the report table, waiting on the
// event loop, the GUI stall meter and "change the config, wait for its picture".

#include <QtGlobal>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <QElapsedTimer>
#include <QStringList>
#include <QTimer>

#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::ui {
class MainWindow;
}

namespace mhaviz::bench {

inline constexpr qint64 kTimeoutMs = 600000;

struct Size {
  std::int64_t N, L, S, E, H;
  [[nodiscard]] std::string str() const;
};

/// Whether a picture failed to arrive (the bench then exits non-zero).
extern bool g_ok;

/// Adds a row to the table printed at the end (and prints it at once on stderr).
void report(const std::string& what, const std::string& size, const std::string& value);
void report(const std::string& what, const Size& size, const std::string& value);
/// The table of every report, on stdout.
void printReport();

std::string ms(double x);

/// Runs the event loop until `done` or the timeout; false on timeout.
bool waitFor(const std::function<bool()>& done, qint64 timeoutMs = kTimeoutMs);

/// Whether MHAVIZ_BENCH_TRACE is set (print gaps and the phases of a change).
bool tracing();

/// Longest gap between ticks of a 1 ms timer: how long the GUI thread did not answer. With
/// MHAVIZ_BENCH_TRACE set, every gap over 15 ms is printed with the GUI thread's CPU time in it
/// (little CPU: the thread waited for a core, the machine's load, not GUI work).
class StallMeter {
 public:
  StallMeter();
  void start();
  double stopMs();

 private:
  QTimer timer_;
  QElapsedTimer clock_;
  qint64 last_ = 0, maxGapNs_ = 0, lastCpu_ = 0;
};

mhaviz::Config configOf(const Size& s, std::uint64_t seed);

/// Waits until the window computes and prepares nothing.
bool idle(mhaviz::ui::MainWindow& w);

/// What one change cost: to the picture, to the result's arrival on the GUI thread, and the
/// worker's own figure for the computation (all ms; -1 when not reached).
struct ChangeTimes {
  double picture = -1, resultArrived = -1, workerCompute = -1;
};

/// Changes the config and waits until the grid shows its result.
ChangeTimes changeAndWait(mhaviz::ui::MainWindow& w, const mhaviz::Config& config);

double percentile(std::vector<double> v, double p);

/// The model view at 12 layers x 12 heads x 512 tokens (window_bench_model.cpp).
void modelView(mhaviz::ui::MainWindow& w, bool smoke);
/// The head view at 64 and 512 tokens x 8 heads (window_bench_tokens.cpp).
void headView(mhaviz::ui::MainWindow& w, bool smoke);
/// A vision transformer's capture (version 3) at 24 x 24 patches + [CLS], 12 layers x 12 heads,
/// E = 768, with the Image view (window_bench_model.cpp).
void visionModelView(mhaviz::ui::MainWindow& w, bool smoke);
/// A weights-only model file (version 4) at 12 layers x 12 heads x 512 tokens.
void weightsModelView(mhaviz::ui::MainWindow& w, bool smoke);
/// The child process of the model views: `args` are this binary's (--write-model DIR [--smoke]
/// [--kind computed|vision|weights]); writes the model file into DIR. Returns the exit code.
int writeModelChild(const QStringList& args);

}  // namespace mhaviz::bench
