// What the grid's colour maps hold and when they are drawn (render/grid_renderer.hpp).
#include "render/grid_renderer.hpp"

#include <qcustomplot.h>

#include <QImage>
#include <QTimer>
#include <QWidget>
#include <algorithm>
#include <cmath>
#include <utility>

#include "render/grid_colour_scale.hpp"
#include "render/grid_geometry.hpp"
#include "render/grid_preparation.hpp"
#include "render/grid_ticks.hpp"
#include "render/heatmap_grid.hpp"  // HeatmapGrid::tr: the notes keep the grid's translations
#include "render/heatmap_grid_state.hpp"

namespace mhaviz::ui {

GridRenderer::GridRenderer(QWidget* grid, QCustomPlot* plot, GridGeometry& geometry,
                           GridColourScale& colours, GridState& state, GridContent& content)
    : m_grid(grid),
      m_plot(plot),
      m_geometry(geometry),
      m_colours(colours),
      m_state(state),
      m_content(content),
      m_preparation(std::make_unique<GridPreparation>(grid)) {}

GridRenderer::~GridRenderer() = default;

void GridRenderer::setBackgroundPreparation(bool on) { m_preparation->setEnabled(on); }

bool GridRenderer::backgroundPreparation() const { return m_preparation->enabled(); }

bool GridRenderer::isPreparing() const {
  return m_preparation->preparingStats() || m_preparation->awaitingPicture();
}

void GridRenderer::cancel() { m_preparation->cancel(); }

void GridRenderer::clear() {
  m_preparation->cancel();
  m_preparation->setAwaitingPicture(false);
}

void GridRenderer::startChange() { m_changeTimer.start(); }

void GridRenderer::finishChange() {
  m_lastRenderMs = static_cast<double>(m_changeTimer.nsecsElapsed()) / 1e6;
}

void GridRenderer::replotOrDefer(bool queued) {
  // Hidden (the model view or another workspace in front), the picture is drawn when the grid
  // is shown: colouring and painting every map on the GUI thread stalled the model view's
  // opening, which makes a layer the session behind it, by tens of milliseconds.
  if (m_grid->isVisible()) {
    m_plot->replot(queued ? QCustomPlot::rpQueuedReplot : QCustomPlot::rpRefreshHint);
  } else {
    m_replotWhenShown = true;
  }
}

void GridRenderer::shown() {
  if (!m_replotWhenShown) return;
  m_replotWhenShown = false;
  m_plot->replot();
}

void GridRenderer::renderAll() {
  GridState& s = m_state;
  if (s.views.empty()) {
    m_plot->replot();
    emit pictureShown();
    return;
  }
  const bool ready = m_content.data().statsReady;
  if (ready) m_colours.applyRanges();
  for (MapView& v : s.views) v.hasShown = false;
  m_geometry.layoutWithTicks();
  m_preparation->clearJobs();
  for (std::size_t i = 0; i < s.views.size(); ++i) renderMap(static_cast<int>(i));
  if (!ready) {
    // Statistics and maps come from a background task; until then the plot keeps showing its
    // last picture (nothing is replotted).
    m_preparation->setAwaitingPicture(true);
    launchPreparation(true);
    return;
  }
  if (m_preparation->hasJobs()) {
    m_preparation->setAwaitingPicture(true);
    launchPreparation(false);
    return;
  }
  m_preparation->setAwaitingPicture(false);
  m_plot->replot();
  emit pictureShown();
}

void GridRenderer::queueRender() {
  if (m_renderQueued) return;
  m_renderQueued = true;
  QTimer::singleShot(0, this, [this] {
    m_renderQueued = false;
    // While the statistics are prepared, the task's arrival renders again.
    if (m_state.views.empty() || m_preparation->preparingStats()) return;
    QElapsedTimer timer;
    timer.start();
    m_geometry.layoutNow();
    m_geometry.updateTicks();
    m_preparation->clearJobs();
    for (std::size_t i = 0; i < m_state.views.size(); ++i) renderMap(static_cast<int>(i));
    if (m_preparation->hasJobs()) launchPreparation(false);
    replotOrDefer(true);
    m_lastRenderMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  });
}

void GridRenderer::launchPreparation(bool withStats) {
  m_preparation->launch(m_content.shared(), m_content.view.reduce, withStats,
                        [this](PreparedMaps& prepared) { applyPrepared(prepared); });
}

void GridRenderer::applyPrepared(PreparedMaps& prepared) {
  GridState& s = m_state;
  if (s.views.empty()) return;
  if (prepared.withStats) {
    if (!takeStats(prepared, m_content.edit())) return;
    m_preparation->statsArrived();
    m_colours.applyRanges();
  }
  for (std::size_t k = 0; k < prepared.grids.size(); ++k) {
    const auto index = static_cast<std::size_t>(prepared.indices[k]);
    if (index >= s.views.size() || prepared.grids[k].rows == 0) continue;
    s.views[index].shown = std::move(prepared.grids[k]);
    s.views[index].hasShown = true;
    fillMap(static_cast<int>(index));
  }
  replotOrDefer(false);
  if (m_preparation->awaitingPicture()) {
    m_preparation->setAwaitingPicture(false);
    finishChange();
    emit pictureShown();
  }
  queueRender();  // the view may have changed (zoom, resize) while the task ran
}

void GridRenderer::renderMap(int index) {
  MapView& v = m_state.views[static_cast<std::size_t>(index)];
  const MapData& m = m_content.data().maps[static_cast<std::size_t>(index)];
  if (m.rows <= 0 || m.cols <= 0) return;
  QCPAxis* x = v.rect->axis(QCPAxis::atBottom);
  QCPAxis* y = v.rect->axis(QCPAxis::atLeft);
  const int widthPx = std::max(1, v.rect->width());
  const int heightPx = std::max(1, v.rect->height());

  int c0 = 0, c1 = m.cols - 1, y0 = 0, y1 = m.rows - 1;
  int colBlock = 1, rowBlock = 1;
  if (m.cols > widthPx || m.rows > heightPx) {
    // Only the visible region, at full resolution when it fits, else reduced by blocks.
    visibleCells(x->range(), m.cols, &c0, &c1);
    visibleCells(y->range(), m.rows, &y0, &y1);
    colBlock = blockFactor(c1 - c0 + 1, widthPx);
    rowBlock = blockFactor(y1 - y0 + 1, heightPx);
  }
  // Display row yd shows data row rows-1-yd (query 0 at the top).
  const int r0 = m.rows - 1 - y1;
  const int nRows = y1 - y0 + 1;
  const int nCols = c1 - c0 + 1;
  if (v.hasShown && v.shown.row0 == r0 && v.shown.col0 == c0 && v.shown.sourceRows == nRows &&
      v.shown.sourceCols == nCols && v.shown.rowBlock == rowBlock && v.shown.colBlock == colBlock) {
    return;  // the colour map already holds this region at this resolution
  }
  if (m_preparation->enabled() && (!m_content.data().statsReady || m.values.empty())) {
    // Described (big) map: reduce on a pool thread; the current picture stays meanwhile.
    m_preparation->addJob({index, r0, c0, nRows, nCols, rowBlock, colBlock});
    return;
  }
  v.shown = reduceRegion(m, r0, c0, nRows, nCols, rowBlock, colBlock, m_content.view.reduce);
  v.hasShown = true;
  fillMap(index);
}

void GridRenderer::fillMap(int index) {
  MapView& v = m_state.views[static_cast<std::size_t>(index)];
  const MapData& m = m_content.data().maps[static_cast<std::size_t>(index)];
  const ReducedGrid& g = v.shown;
  if (g.rows <= 0 || g.cols <= 0) return;
  const int r0 = g.row0;
  const int c0 = g.col0;
  const int nRows = g.sourceRows;
  const int nCols = g.sourceCols;

  // QCPColorMapData cells are centred on the ends of its key/value ranges; a dimension of one
  // block is stored as two equal cells a quarter block either side of the centre.
  const int nx = std::max(2, g.cols);
  const int ny = std::max(2, g.rows);
  const double halfX = (g.colBlock - 1) / 2.0;
  const double halfY = (g.rowBlock - 1) / 2.0;
  QCPRange keyRange(c0 + halfX, c0 + (g.cols - 1) * g.colBlock + halfX);
  // Block i (from the top) has its centre at display y = rows-1-(r0 + i*rowBlock + halfY).
  QCPRange valueRange(m.rows - 1 - (r0 + (g.rows - 1) * g.rowBlock + halfY),
                      m.rows - 1 - (r0 + halfY));
  if (g.cols == 1)
    keyRange = QCPRange(keyRange.lower - g.colBlock / 4.0, keyRange.lower + g.colBlock / 4.0);
  if (g.rows == 1) {
    valueRange = QCPRange(valueRange.lower - g.rowBlock / 4.0, valueRange.lower + g.rowBlock / 4.0);
  }
  auto* cells = new QCPColorMapData(nx, ny, keyRange, valueRange);
  const double lo = v.valueRange.lower;
  const double hi = v.valueRange.upper;
  for (int yi = 0; yi < ny; ++yi) {
    const int bi = std::min(g.rows - 1, g.rows == 1 ? 0 : g.rows - 1 - yi);
    const double* src =
        g.values.data() + static_cast<std::size_t>(bi) * static_cast<std::size_t>(g.cols);
    for (int xi = 0; xi < nx; ++xi) {
      double z = src[std::min(xi, g.cols - 1)];
      if (std::isinf(z)) z = z < 0 ? lo : hi;  // -inf (masked scores) at the bottom of the scale
      cells->setCell(xi, yi, z);
    }
  }
  v.colorMap->setData(cells, false);

  if (v.maskOverlay != nullptr) {
    QImage image(g.cols, g.rows, QImage::Format_ARGB32);
    image.fill(Qt::transparent);
    const QRgb masked = m_colours.maskedCellColor().rgba();
    bool any = false;
    for (int bi = 0; bi < g.rows; ++bi) {
      auto* line = reinterpret_cast<QRgb*>(image.scanLine(bi));
      for (int bj = 0; bj < g.cols; ++bj) {
        const std::size_t k = static_cast<std::size_t>(bi) * static_cast<std::size_t>(g.cols) +
                              static_cast<std::size_t>(bj);
        // NaN cells keep their NaN colour: a fully masked row is NaN, not just masked.
        if (g.masked[k] != 0 && !std::isnan(g.values[k])) {
          line[bj] = masked;
          any = true;
        }
      }
    }
    v.maskOverlay->setPixmap(QPixmap::fromImage(image));
    v.maskOverlay->topLeft->setCoords(c0 - 0.5, m.rows - 1 - r0 + 0.5);
    v.maskOverlay->bottomRight->setCoords(c0 + g.cols * g.colBlock - 0.5,
                                          m.rows - 1 - (r0 + g.rows * g.rowBlock) + 0.5);
    v.maskOverlay->setVisible(any);
  }

  if (g.reduced()) {
    v.note->setText(HeatmapGrid::tr("reduced %1x%2 -> %3x%4 (%5)")
                        .arg(nRows)
                        .arg(nCols)
                        .arg(g.rows)
                        .arg(g.cols)
                        .arg(m_content.view.reduce == Reduce::mean ? HeatmapGrid::tr("mean")
                                                                   : HeatmapGrid::tr("max")));
  } else {
    v.note->setText(QString());
  }
}

}  // namespace mhaviz::ui
