// mhaviz-window-bench, the model view (File > Open of a model index) at 12 layers x 12 heads x
// 512 tokens, E = 768: open -> grid drawn (first and warm), the longest GUI stall meanwhile, a
// click on a map -> that layer's full view drawn, and peak RSS. The model file is written first
// by a child process (this binary with --write-model DIR [--smoke] [--kind KIND]), so its memory
// is not in this process's peak.
// Two more model kinds, open -> grid drawn (first and warm) with the longest GUI stall:
//   - a vision transformer's capture (format version 3) at 24 x 24 patches + the class token,
//     12 layers x 12 heads, E = 768, with the Image view open: also open -> its scene shown;
//   - a weights-only file (format version 4) of 12 layers x 12 heads x 512 tokens, then a second
//     one of the same shape compared with it (Compare > Compare the model with a file...): to
//     A | B | B - A of the largest difference and the table of every layer and head.

#include <qcustomplot.h>

#include <sys/resource.h>

#include <QCoreApplication>
#include <QDockWidget>
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
#include "compare/compare_panel.hpp"
#include "compare/model_compare.hpp"
#include "document/document.hpp"
#include "model/model_pages.hpp"
#include "model/model_view.hpp"
#include "render/heatmap_grid.hpp"
#include "vision/image_view.hpp"
#include "window/main_window.hpp"
#include "window_bench_common.hpp"

namespace mhaviz::bench {

using mhaviz::ui::Document;
using mhaviz::ui::HeatmapGrid;
using mhaviz::ui::MainWindow;

namespace {

double peakRssMiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // KiB on Linux
}

const char* kindName(BenchModelKind kind) {
  switch (kind) {
    case BenchModelKind::vision:
      return "vision";
    case BenchModelKind::weights:
      return "weights";
    case BenchModelKind::computed:
      break;
  }
  return "computed";
}

BenchModel benchModel(bool smoke, BenchModelKind kind = BenchModelKind::computed,
                      std::uint64_t seed = 0) {
  BenchModel m;
  m.kind = kind;
  m.seed = seed;
  m.name = std::string("bench_") + kindName(kind);
  if (seed != 0) m.name.append("_").append(std::to_string(seed));
  if (smoke) {
    m.layers = 2;
    m.heads = 2;
    m.tokens = 8;
    m.embed = 16;
    m.grid = 3;
    m.patch = 4;
  }
  if (kind == BenchModelKind::vision) m.tokens = 1 + m.grid * m.grid;
  return m;
}

std::string sizeText(const BenchModel& m) {
  std::string text = std::to_string(m.layers) + "x" + std::to_string(m.heads) + "x" +
                     std::to_string(m.tokens);
  if (m.kind != BenchModelKind::weights) text += ", E=" + std::to_string(m.embed);
  return text;
}

// Writes the model file of `kind` by a child process into `dir`; returns its index ("" when it
// failed) and reports the time and the tensors file's size.
QString writeModel(const QTemporaryDir& dir, bool smoke, BenchModelKind kind, const char* what,
                   std::uint64_t seed = 0) {
  const BenchModel m = benchModel(smoke, kind, seed);
  QStringList args{QStringLiteral("--write-model"), dir.path(), QStringLiteral("--kind"),
                   QString::fromLatin1(kindName(kind))};
  if (seed != 0) args << QStringLiteral("--seed") << QString::number(seed);
  if (smoke) args << QStringLiteral("--smoke");
  QElapsedTimer written;
  written.start();
  if (!dir.isValid() || QProcess::execute(QCoreApplication::applicationFilePath(), args) != 0) {
    std::fprintf(stderr, "%s: the model file could not be written\n", what);
    g_ok = false;
    return {};
  }
  const QString index = dir.filePath(QString::fromStdString(m.name) + QStringLiteral(".json"));
  const qint64 npzBytes =
      QFileInfo(dir.filePath(QString::fromStdString(m.name) + QStringLiteral(".npz"))).size();
  report(std::string(what) + " file written (child process)", sizeText(m),
         ms(static_cast<double>(written.nsecsElapsed()) / 1e6) + ", .npz " +
             std::to_string(npzBytes) + " bytes");
  return index;
}

// Opens the model through the window's model view and waits until the grid is drawn and
// painted; returns ms (or -1). `stallMs` gets the longest GUI stall meanwhile. With `image`
// (the Image view, its dock shown), also waits until its scene of the new model is built and
// painted: `imageMs` gets that time, and the stall covers it too.
double openModelAndWait(MainWindow& w, const QString& index, double& stallMs,
                        mhaviz::ui::ImageView* image = nullptr, double* imageMs = nullptr) {
  mhaviz::ui::ModelView* view = w.pages()->modelView();
  bool finished = false;
  const auto conn = QObject::connect(view, &mhaviz::ui::ModelView::modelFinished,
                                     [&] { finished = true; });
  // The scene of the model opened now: built after modelLoaded (the grid drawn).
  bool loadedNow = false;
  double sceneAt = -1;
  QElapsedTimer t;
  QMetaObject::Connection loadedConn, sceneConn;
  if (image != nullptr) {
    loadedConn = QObject::connect(view, &mhaviz::ui::ModelView::modelLoaded,
                                  [&] { loadedNow = true; });
    sceneConn = QObject::connect(image, &mhaviz::ui::ImageView::sceneReady, [&] {
      if (!loadedNow || sceneAt >= 0) return;
      image->canvas()->repaint();  // the finished scene painted, as the event loop would next
      sceneAt = static_cast<double>(t.nsecsElapsed()) / 1e6;
    });
  }
  StallMeter meter;
  meter.start();
  t.start();
  w.pages()->openModel(index);
  double elapsed = -1;
  if (waitFor([&] { return finished && !view->isBusy(); })) {
    QCoreApplication::processEvents();  // the canvas's pending paint
    elapsed = static_cast<double>(t.nsecsElapsed()) / 1e6;
  }
  QObject::disconnect(conn);
  if (image != nullptr) {
    if (!waitFor([&] { return sceneAt >= 0; }) || image->scene() == nullptr ||
        !image->message().isEmpty()) {
      std::fprintf(stderr, "image view: no scene (%s)\n", qPrintable(image->message()));
      g_ok = false;
    }
    QObject::disconnect(loadedConn);
    QObject::disconnect(sceneConn);
    if (imageMs != nullptr) *imageMs = sceneAt;
  }
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
  const std::string size = sizeText(m);
  QTemporaryDir dir;
  const QString index = writeModel(dir, smoke, BenchModelKind::computed, "model");
  if (index.isEmpty()) return;

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
  const Document* document = w.document();
  bool shown = false;
  const auto conn = QObject::connect(w.grid(), &HeatmapGrid::pictureShown, [&] {
    if (document->computed().result && document->computed().result->config == want) shown = true;
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

// A vision transformer's capture (version 3) in the model view, the Image view open beside it.
void visionModelView(MainWindow& w, bool smoke) {
  const BenchModel m = benchModel(smoke, BenchModelKind::vision);
  const std::string size = sizeText(m) + " (" + std::to_string(m.grid) + "x" +
                           std::to_string(m.grid) + " patches + [CLS])";
  QTemporaryDir dir;
  const QString index = writeModel(dir, smoke, BenchModelKind::vision, "vision model");
  if (index.isEmpty()) return;
  w.imageViewDock()->show();  // as a user who looks at the image does
  waitFor([] { return false; }, 100);
  for (const char* when : {"first", "warm"}) {
    double stall = 0;
    double image = -1;
    const double open = openModelAndWait(w, index, stall, w.imageView(), &image);
    if (open < 0 || image < 0) return;
    report(std::string("vision model: open -> grid drawn (") + when + ")", size, ms(open));
    report(std::string("vision model: open -> Image view's scene shown (") + when + ")", size,
           ms(image));
    report(std::string("longest GUI stall, vision model read + computed + drawn (") + when + ")",
           size, ms(stall));
  }
  w.imageViewDock()->hide();
}

// A weights-only file (version 4) in the model view.
void weightsModelView(MainWindow& w, bool smoke) {
  const BenchModel m = benchModel(smoke, BenchModelKind::weights);
  const std::string size = sizeText(m) + " (weights only)";
  QTemporaryDir dir;
  const QString index = writeModel(dir, smoke, BenchModelKind::weights, "weights-only model");
  if (index.isEmpty()) return;
  for (const char* when : {"first", "warm"}) {
    double stall = 0;
    const double open = openModelAndWait(w, index, stall);
    if (open < 0) return;
    report(std::string("weights only: open -> grid drawn (") + when + ")", size, ms(open));
    report(std::string("longest GUI stall, weights-only read + drawn (") + when + ")", size,
           ms(stall));
  }
  // Compare > Compare the model with a file…: a second file of the same shape read, compared
  // (every layer and head) and its map of the largest difference drawn as A | B | B - A.
  const QString other = writeModel(dir, smoke, BenchModelKind::weights, "second weights-only", 1);
  if (other.isEmpty()) return;
  mhaviz::ui::ModelCompare* compare = w.comparePanel()->modelCompare();
  StallMeter meter;
  meter.start();
  QElapsedTimer t;
  t.start();
  compare->compareWith(other);
  const bool shown = waitFor([&] {
    return compare->isUpToDate() && compare->difference() != nullptr &&
           compare->gridDiff()->mapCount() > 0;
  });
  QCoreApplication::processEvents();
  const double compared = static_cast<double>(t.nsecsElapsed()) / 1e6;
  waitFor([] { return false; }, 100);
  const double stall = meter.stopMs();
  if (!shown || compare->hasProblem()) {
    std::fprintf(stderr, "weights only: no comparison (%s)\n", qPrintable(compare->message()));
    g_ok = false;
    return;
  }
  report("weights only: compare with a second file -> A | B | B - A and table", size,
         ms(compared));
  report("longest GUI stall, second file read + compared + drawn", size, ms(stall));
  compare->close();
}

int writeModelChild(const QStringList& args) {
  const bool smoke = args.contains(QStringLiteral("--smoke"));
  BenchModelKind kind = BenchModelKind::computed;
  const auto at = args.indexOf(QStringLiteral("--kind"));
  if (at >= 0 && at + 1 < args.size()) {
    if (args[at + 1] == QLatin1String("vision")) kind = BenchModelKind::vision;
    if (args[at + 1] == QLatin1String("weights")) kind = BenchModelKind::weights;
  }
  std::uint64_t seed = 0;
  const auto seedAt = args.indexOf(QStringLiteral("--seed"));
  if (seedAt >= 0 && seedAt + 1 < args.size()) seed = args[seedAt + 1].toULongLong();
  try {
    writeBenchModel(args[2].toStdString(), benchModel(smoke, kind, seed));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cannot write the model: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace mhaviz::bench
