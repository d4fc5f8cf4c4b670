// mhaviz-window-bench, the head view (View > Head view) at 64 and 512 tokens x 8 heads, every
// pair attended (no mask: 8 x L x S lines at coverage 100 %): the GUI thread's time to paint the
// canvas (the figure the 50 ms budget is about), and the time until the picture is complete
// (the lines are read, picked and drawn on the head view's task) after a new result, a hovered
// query, a scroll to the middle and coverage 90 %, each with the longest GUI stall meanwhile.
// Reference in the same run: QPainter drawing the same 64-token lines on the GUI thread, as the
// head view did before it drew its lines itself on a task.

#include <QCoreApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "document/document.hpp"
#include "tokens/head_lines.hpp"
#include "tokens/head_view.hpp"
#include "tokens/head_view_picture.hpp"
#include "window/main_window.hpp"
#include "window_bench_common.hpp"

namespace mhaviz::bench {

using mhaviz::ui::HeadView;
using mhaviz::ui::MainWindow;

namespace {

double msSince(const QElapsedTimer& t) { return static_cast<double>(t.nsecsElapsed()) / 1e6; }

// Runs `change` from inside the event loop and waits until the head view's picture is the one
// asked for; returns ms to it (-1 on timeout) and sets the longest GUI stall meanwhile.
double toPicture(HeadView* view, const std::function<void()>& change, double& stallMs) {
  StallMeter meter;
  meter.start();
  QElapsedTimer t;
  bool changed = false;
  QTimer::singleShot(5, [&] {
    t.start();
    change();
    changed = true;
  });
  waitFor([&] { return changed; });
  const bool done = waitFor([&] { return !view->isDrawing(); }, 120000);
  const double ms = done ? msSince(t) : -1;
  waitFor([] { return false; }, 30);
  stallMs = meter.stopMs();
  if (!done) g_ok = false;
  return ms;
}

// The GUI thread's time to paint the whole visible canvas (median of 5).
double paintMs(HeadView* view) {
  std::vector<double> times;
  for (int i = 0; i < 5; ++i) {
    QElapsedTimer t;
    t.start();
    view->canvas()->repaint();
    times.push_back(msSince(t));
  }
  return percentile(times, 0.5);
}

std::string timed(double ms, double stall) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.1f ms to picture, longest GUI stall %.1f ms", ms, stall);
  return buf;
}

// QPainter's raster engine drawing the picture's lines (antialiased, width 1 + 2α, as the head
// view drew them before) into an image of the canvas's size: the reference.
double qpainterMs(const mhaviz::ui::HeadLines& lines, QSize size) {
  QImage image(size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QElapsedTimer t;
  t.start();
  QPainter painter(&image);
  mhaviz::ui::HeadViewLook look;
  mhaviz::ui::paintHeadLines(painter, lines, look);
  painter.end();
  return msSince(t);
}

}  // namespace

void headView(MainWindow& w, bool smoke) {
  auto* dock = w.headViewDock();
  if (dock == nullptr) {
    g_ok = false;
    return;
  }
  dock->toggleViewAction()->trigger();
  waitFor([&] { return dock->isVisible(); }, 10000);
  HeadView* view = w.headView();
  for (const std::int64_t n :
       smoke ? std::vector<std::int64_t>{8, 32} : std::vector<std::int64_t>{64, 512}) {
    const Size size{1, n, n, 64, 8};
    if (changeAndWait(w, configOf(size, 11)).picture < 0) return;
    idle(w);
    double stall = 0;
    // A new result of the same size: the weights read, lines picked and drawn again.
    const auto result = w.document()->computed().result;
    const auto fitted = mhaviz::ui::fitView(w.document()->view(), mhaviz::ui::viewBounds(*result));
    const double fresh = toPicture(
        view, [&] { view->setResult(result, fitted); }, stall);
    report("head view: new result -> lines drawn", size, timed(fresh, stall));
    char buf[128];
    std::snprintf(buf, sizeof buf, "%.2f ms (median of 5; %zu lines, canvas %dx%d)", paintMs(view),
                  view->lines().lines.size(), view->canvas()->width(), view->canvas()->height());
    report("head view: GUI paint of the canvas", size, buf);
    if (n == (smoke ? 8 : 64)) {
      std::snprintf(buf, sizeof buf, "%.1f ms for the same lines (reference)",
                    qpainterMs(view->lines(), view->canvas()->size()));
      report("head view: QPainter drawing them instead", size, buf);
    }
    const double hover = toPicture(
        view,
        [&] {
          view->setHover({mhaviz::ui::TokenHit::Side::query, int(n / 2)});
        },
        stall);
    report("head view: hover a query -> its lines", size, timed(hover, stall));
    const double leave = toPicture(
        view, [&] { view->setHover({}); }, stall);
    report("head view: pointer leaves -> all lines", size, timed(leave, stall));
    auto* scroll = view->findChild<QScrollArea*>();
    const double scrolled = toPicture(
        view,
        [&] {
          QScrollBar* bar = scroll->verticalScrollBar();
          bar->setValue((bar->minimum() + bar->maximum()) / 2);
        },
        stall);
    std::snprintf(buf, sizeof buf, "%.2f ms", paintMs(view));
    report("head view: scroll to the middle -> lines", size, timed(scrolled, stall));
    report("head view: GUI paint there", size, buf);
    const double coverage = toPicture(
        view, [&] { view->setCoverage(0.9); }, stall);
    report("head view: coverage 90 % -> lines", size, timed(coverage, stall));
    view->setCoverage(1.0);
    waitFor([&] { return !view->isDrawing(); });
  }
  dock->toggleViewAction()->trigger();
}

}  // namespace mhaviz::bench
