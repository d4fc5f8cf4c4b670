// HeatmapGrid: filling the colour maps (reduced to the screen when a map has more cells than
// pixels) and colour ranges; the tick labels that fit come from render/grid_ticks.hpp. GUI
// thread only.

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QImage>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include "render/colormaps.hpp"
#include "render/grid_preparation.hpp"
#include "render/grid_ticks.hpp"
#include "render/heatmap_grid.hpp"
#include "render/heatmap_grid_state.hpp"

namespace mhaviz::ui {
namespace {

QCPRange finiteRange(const MapData& m, bool symmetric) {
  const double lo = m.finiteLo;
  const double hi = m.finiteHi;
  if (!m.hasFinite) return symmetric ? QCPRange(-1, 1) : QCPRange(0, 1);
  if (symmetric) {
    const double a = std::max(std::abs(lo), std::abs(hi));
    return a > 0 ? QCPRange(-a, a) : QCPRange(-1, 1);
  }
  if (hi - lo < 1e-12) return QCPRange(lo - 0.5e-6, hi + 0.5e-6);
  return QCPRange(lo, hi);
}

QString fmt(double x) { return QString::number(x, 'g', 3); }

}  // namespace

void HeatmapGrid::layoutNow() {
  m_plot->setViewport(QRect(QPoint(0, 0), m_plot->size()));
  QCPLayoutGrid* layout = m_plot->plotLayout();
  layout->update(QCPLayoutElement::upPreparation);
  layout->update(QCPLayoutElement::upMargins);
  layout->update(QCPLayoutElement::upLayout);
  if (placeScale()) layout->update(QCPLayoutElement::upLayout);  // beside the maps in view
  if (fitScaleTitle()) {
    layout->update(QCPLayoutElement::upMargins);
    layout->update(QCPLayoutElement::upLayout);
  }
}

bool HeatmapGrid::fitScaleTitle() {
  GridState& s = *m_state;
  if (s.scale == nullptr || s.scaleTitle.isEmpty()) return false;
  // Turned along the bar, the title wraps onto more lines rather than stand past the bar's ends
  // (over the caption above it).
  const int bar = s.scale->axis()->axisRect()->height();
  if (bar <= 0) return false;
  const QString wrapped =
      wrapLines(s.scaleTitle, s.scale->axis()->labelFont(), bar).join(QLatin1Char('\n'));
  if (wrapped == s.scale->axis()->label()) return false;
  s.scale->axis()->setLabel(wrapped);
  return true;
}

void HeatmapGrid::applyRanges() {
  GridState& s = *m_state;
  // Colour ranges: one shared range, or one per map. Unsigned stages share 0..1, or with
  // autoRange 0..the largest finite value shown, so that the colormap's whole length is used.
  const bool fixedUnit = !m_data.isSigned;
  QCPRange shared = fixedUnit ? QCPRange(0, 1) : QCPRange(m_data.lo, m_data.hi);
  const bool autoTop = fixedUnit && (m_view.autoRange || m_data.rangeFromData);
  if (autoTop) {
    double top = 0;
    for (const MapData& m : m_data.maps) {
      if (m.hasFinite) top = std::max(top, m.finiteHi);
    }
    if (top > 0) shared = QCPRange(0, top);
  }
  for (std::size_t i = 0; i < s.views.size(); ++i) {
    MapView& v = s.views[i];
    const MapData& m = m_data.maps[i];
    if (m_view.perHeadScale) {
      v.valueRange = finiteRange(m, m_data.isSigned);
      v.title->setText(
          m.shownTitle +
          QStringLiteral("   [%1, %2]").arg(fmt(v.valueRange.lower), fmt(v.valueRange.upper)));
    } else {
      v.valueRange = shared;
    }
    v.colorMap->setDataRange(v.valueRange);
  }
  auto scaleTicker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
  if (m_view.perHeadScale) {
    s.scale->setDataRange(QCPRange(0, 1));
    if (m_data.isSigned) {
      scaleTicker->setTicks(
          {{0.0, tr("-max|v|")}, {0.5, QStringLiteral("0")}, {1.0, tr("+max|v|")}});
    } else {
      scaleTicker->setTicks({{0.0, tr("min")}, {1.0, tr("max")}});
    }
    s.scale->axis()->setTicker(scaleTicker);
    s.scaleTitle = m_data.shownUnit + tr(" (range of each map)");
  } else {
    s.scale->setDataRange(s.views.front().valueRange);
    s.scale->axis()->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    s.scaleTitle = autoTop ? m_data.shownUnit + tr(" (automatic range: 0..largest)")
                           : m_data.shownUnit;
  }
  s.scale->axis()->setLabel(s.scaleTitle);
  fitScaleTitle();  // wrapped to the bar as last laid out (layoutNow wraps it again)
  if (s.nanKey != nullptr) {
    const bool nan = std::any_of(m_data.maps.begin(), m_data.maps.end(),
                                 [](const MapData& m) { return m.hasNan; });
    s.nanKey->setText(nan ? tr("NaN (a query with every key masked, or NaN/Inf in the tensors)")
                          : tr("NaN"));
  }
}

void HeatmapGrid::renderAll() {
  GridState& s = *m_state;
  if (s.views.empty()) {
    m_plot->replot();
    emit pictureShown();
    return;
  }
  const bool ready = m_data.statsReady;
  if (ready) applyRanges();
  layoutNow();
  for (std::size_t i = 0; i < s.views.size(); ++i) {
    s.views[i].hasShown = false;
    updateTicks(static_cast<int>(i));
  }
  // Tick labels change the margins: lay out again before sizing the maps to their pixels.
  layoutNow();
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

void HeatmapGrid::queueRender() {
  if (m_state->renderQueued) return;
  m_state->renderQueued = true;
  QTimer::singleShot(0, this, [this] {
    m_state->renderQueued = false;
    if (m_state->views.empty() || m_preparation->preparingStats()) return;  // the task's arrival renders again
    QElapsedTimer timer;
    timer.start();
    layoutNow();
    m_preparation->clearJobs();
    for (std::size_t i = 0; i < m_state->views.size(); ++i) {
      updateTicks(static_cast<int>(i));
      renderMap(static_cast<int>(i));
    }
    if (m_preparation->hasJobs()) launchPreparation(false);
    if (isVisible()) {
      m_plot->replot(QCustomPlot::rpQueuedReplot);
    } else {
      m_state->replotWhenShown = true;  // drawn by showEvent, as applyPrepared's maps
    }
    m_lastRenderMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  });
}

void HeatmapGrid::renderMap(int index) {
  MapView& v = m_state->views[static_cast<std::size_t>(index)];
  const MapData& m = m_data.maps[static_cast<std::size_t>(index)];
  if (m.rows <= 0 || m.cols <= 0) return;
  QCPAxis* x = v.rect->axis(QCPAxis::atBottom);
  QCPAxis* y = v.rect->axis(QCPAxis::atLeft);
  const int widthPx = std::max(1, v.rect->width());
  const int heightPx = std::max(1, v.rect->height());

  int c0 = 0, c1 = m.cols - 1, y0 = 0, y1 = m.rows - 1;
  int colBlock = 1, rowBlock = 1;
  if (m.cols > widthPx || m.rows > heightPx) {
    // Only the visible region, at full resolution when it fits, else reduced by blocks.
    ::mhaviz::ui::visibleCells(x->range(), m.cols, &c0, &c1);
    ::mhaviz::ui::visibleCells(y->range(), m.rows, &y0, &y1);
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
  if (m_preparation->enabled() && (!m_data.statsReady || m.values.empty())) {
    // Described (big) map: reduce on a pool thread; the current picture stays meanwhile.
    m_preparation->addJob({index, r0, c0, nRows, nCols, rowBlock, colBlock});
    return;
  }
  v.shown = reduceRegion(m, r0, c0, nRows, nCols, rowBlock, colBlock, m_view.reduce);
  v.hasShown = true;
  fillMap(index);
}

void HeatmapGrid::fillMap(int index) {
  MapView& v = m_state->views[static_cast<std::size_t>(index)];
  const MapData& m = m_data.maps[static_cast<std::size_t>(index)];
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
    const QRgb masked = maskedCellColor().rgba();
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
    v.note->setText(tr("reduced %1x%2 -> %3x%4 (%5)")
                        .arg(nRows)
                        .arg(nCols)
                        .arg(g.rows)
                        .arg(g.cols)
                        .arg(m_view.reduce == Reduce::mean ? tr("mean") : tr("max")));
  } else {
    v.note->setText(QString());
  }
}

void HeatmapGrid::updateTicks(int index) {
  updateMapTicks(m_state->views[static_cast<std::size_t>(index)],
                 m_data.maps[static_cast<std::size_t>(index)], m_view);
}

}  // namespace mhaviz::ui
