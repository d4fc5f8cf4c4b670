// mhaviz-window-bench, the model view (File > Open of a model index) at 12 layers x 12 heads x
// 512 tokens, E = 768: open -> grid drawn (first and warm), the longest GUI stall meanwhile, a
// click on a map -> that layer's full view drawn, and peak RSS. The model file is written first
// by a child process (this binary with --write-model DIR), so its memory is not in this
// process's peak.

#include <qcustomplot.h>

#include <sys/resource.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QMouseEvent>
#include <QProcess>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>

#include "bench_model_file.hpp"
#include "compute/computation.hpp"
#include "render/heatmap_grid.hpp"
#include "window/main_window.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "window_bench_common.hpp"

namespace mhaviz::bench {

using mhaviz::ui::Computation;
using mhaviz::ui::HeatmapGrid;
using mhaviz::ui::MainWindow;

namespace {

double peakRssMiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // KiB on Linux
}

BenchModel benchModel(bool smoke) {
  BenchModel m;
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

}  // namespace

// The model view at 12 layers x 12 heads x 512 tokens (E = 768, batch 1).
void modelView(MainWindow& w, bool smoke) {
  const BenchModel m = benchModel(smoke);
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
  Computation* computation = w.computation();
  bool shown = false;
  const auto conn = QObject::connect(w.grid(), &HeatmapGrid::pictureShown, [&] {
    if (computation->result() && computation->result()->config == want) shown = true;
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
  // A double click opens the layer (a click selects it, the model view staying).
  QMouseEvent twice(QEvent::MouseButtonDblClick, at, canvas->mapToGlobal(at), Qt::LeftButton,
                    Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(canvas, &press);
  QCoreApplication::sendEvent(canvas, &release);
  QCoreApplication::sendEvent(canvas, &twice);
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
  report("model view: double-click a map -> layer's full view drawn", size, ms(clickMs));
  report("longest GUI stall, click -> full view", size, ms(clickStall));
  char rss[48];
  std::snprintf(rss, sizeof rss, "%.0f MiB", peakRssMiB());
  report("peak RSS after the model view (window process)", size, rss);
}

int writeModelChild(const char* dir, bool smoke) {
  try {
    writeBenchModel(dir, benchModel(smoke));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cannot write the model: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace mhaviz::bench
