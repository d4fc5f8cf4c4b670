#include "render/heatmap_grid.hpp"

#include <qcustomplot.h>

#include <QApplication>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QTimer>
#include <algorithm>
#include <cmath>

#include "mhaviz/core/errors.hpp"
#include "render/colormaps.hpp"
#include "render/heatmap_grid_state.hpp"
#include "tasks/latest_task.hpp"

namespace mhaviz::ui {
namespace {

// Pixels reserved around each map for its title, tick labels and margins when choosing the
// number of grid columns.
constexpr int kMapChromeW = 70;
constexpr int kMapChromeH = 60;
// Pixels the legend and the margins around the grid take.
constexpr int kLegendH = 56;

// Maps with more cells than this in total are described (not copied) and, with background
// preparation on, summarised and reduced off the GUI thread.
constexpr std::int64_t kDirectCells = 1 << 20;

std::int64_t totalCells(const mhaviz::ForwardResult& r, const ViewOptions& view) {
  const std::int64_t side = std::max({r.L, r.Sx, r.E, r.hd, std::int64_t{1}});
  const std::int64_t maps = view.soloHead >= 0 ? 1 : r.H + 1;
  return side * side * maps;  // an upper bound: cheap and enough to choose the path
}

}  // namespace

HeatmapGrid::HeatmapGrid(QWidget* parent)
    : QWidget(parent),
      m_scroll(new QScrollArea(this)),
      m_plot(new QCustomPlot),
      m_state(std::make_unique<GridState>()),
      m_preparation(std::make_unique<LatestTask>(this)) {
  m_scroll->setFrameShape(QFrame::NoFrame);
  m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  m_scroll->setWidgetResizable(false);
  m_scroll->setWidget(m_plot);
  m_scroll->setGeometry(rect());
  m_plot->resize(size());
  m_plot->installEventFilter(this);
  m_plot->setNoAntialiasingOnDrag(true);
  m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  m_plot->setMouseTracking(true);
  m_plot->plotLayout()->clear();
  m_plot->setBackground(palette().color(QPalette::Base));
  m_state->badge = new QLabel(this);
  m_state->badge->setStyleSheet(
      QStringLiteral("QLabel { background: rgba(180, 30, 30, 225); color: white; font-weight: bold;"
                     " padding: 4px 8px; border-radius: 4px; }"));
  m_state->badge->setWordWrap(true);
  m_state->badge->hide();
  connect(m_plot, &QCustomPlot::mouseMove, this, &HeatmapGrid::onMouseMove);
  connect(m_plot, &QCustomPlot::mousePress, this, &HeatmapGrid::onMousePress);
  connect(m_plot, &QCustomPlot::mouseRelease, this, &HeatmapGrid::onMouseRelease);
}

HeatmapGrid::~HeatmapGrid() = default;  // a preparation still running is cancelled

void HeatmapGrid::setResult(std::shared_ptr<const mhaviz::ForwardResult> result,
                            const ViewOptions& view) {
  m_changeTimer.start();
  m_result = std::move(result);
  m_fixedData = false;
  m_view = view;
  extract();
  rebuild();
  renderAll();
  m_lastRenderMs = static_cast<double>(m_changeTimer.nsecsElapsed()) / 1e6;
}

void HeatmapGrid::setStageData(StageData stageData, const ViewOptions& view) {
  m_changeTimer.start();
  m_result.reset();
  m_fixedData = false;
  m_view = view;
  extract();  // cancels tasks of the previous data
  m_fixedData = true;
  m_data = std::move(stageData);
  if (!m_data.statsReady) computeStats(m_data);
  rebuild();
  renderAll();
  m_lastRenderMs = static_cast<double>(m_changeTimer.nsecsElapsed()) / 1e6;
}

void HeatmapGrid::setView(const ViewOptions& view) {
  m_changeTimer.start();
  const bool sameData = view.batch == m_view.batch && view.stage == m_view.stage &&
                        view.soloHead == m_view.soloHead &&
                        view.showAverage == m_view.showAverage &&
                        view.keyLabels == m_view.keyLabels;
  m_view = view;
  if (!sameData && !m_fixedData) extract();
  rebuild();
  renderAll();
  m_lastRenderMs = static_cast<double>(m_changeTimer.nsecsElapsed()) / 1e6;
}

void HeatmapGrid::setOutOfDate(bool outOfDate, const QString& why) {
  m_outOfDate = outOfDate;
  m_outOfDateWhy = why;
  QString text = tr("Out of date");
  if (!why.isEmpty()) text += QStringLiteral(": ") + why;
  text += tr(" (showing the last computed result)");
  m_state->badge->setText(text);
  m_state->badge->setVisible(outOfDate);
  placeBadge();
}

void HeatmapGrid::clear() {
  m_preparation->cancel();
  m_preparing = false;
  m_awaitingPicture = false;
  m_pendingJobs.clear();
  m_result.reset();
  m_fixedData = false;
  m_data = StageData{};
  m_message.clear();
  rebuild();
  m_plot->replot();
}

int HeatmapGrid::mapCount() const { return static_cast<int>(m_state->views.size()); }

QStringList HeatmapGrid::mapTitles() const {
  QStringList titles;
  for (const MapData& map : m_data.maps) titles << map.shownTitle;
  return titles;
}

QString HeatmapGrid::shownMapTitle(int map) const {
  if (map < 0 || map >= mapCount()) return {};
  return m_state->views[static_cast<std::size_t>(map)].title->shownText();
}

QString HeatmapGrid::mapTitleToolTip(int map) const {
  if (map < 0 || map >= mapCount()) return {};
  return m_state->views[static_cast<std::size_t>(map)].title->text();
}

QStringList HeatmapGrid::columnLabels(int map) const {
  QStringList labels;
  if (map < 0 || map >= static_cast<int>(m_data.maps.size())) return labels;
  const MapData& m = m_data.maps[static_cast<std::size_t>(map)];
  for (int c = 0; c < m.cols; ++c) {
    labels << (static_cast<std::size_t>(c) < m.columns.size()
                   ? m.columns[static_cast<std::size_t>(c)].label
                   : QString::number(c));
  }
  return labels;
}

QCustomPlot* HeatmapGrid::plot() const { return m_plot; }

double HeatmapGrid::lastRenderMs() const { return m_lastRenderMs; }

void HeatmapGrid::setCaption(const QString& caption) { m_caption = caption; }

QStringList HeatmapGrid::captionLines() const {
  return captionParts(m_plot->width(), true) + captionParts(m_plot->width(), false);
}

void HeatmapGrid::setAxisTitles(bool on) { m_axisTitles = on; }

void HeatmapGrid::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  m_scroll->setGeometry(rect());
  placeBadge();
  if (m_data.maps.empty()) {
    fitPlot(1);
    return;
  }
  const int columns = chooseColumns(static_cast<int>(m_data.maps.size()));
  const bool rewrap = !m_caption.isEmpty() && event->size().width() != event->oldSize().width();
  if (columns != m_state->columns || rewrap) {
    rebuild();  // fits the plot itself
  } else {
    fitPlot(columns);
  }
  queueRender();
}

bool HeatmapGrid::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_plot && event->type() == QEvent::Wheel &&
      wheelZoomsOutAtWhole(*static_cast<QWheelEvent*>(event))) {
    emit zoomOutAtWhole();
  }
  if (watched == m_plot && event->type() == QEvent::Wheel &&
      m_scroll->verticalScrollBar()->isVisible()) {
    // Over a map the wheel zooms; elsewhere (titles, gaps, legend) it scrolls the maps.
    const auto* wheel = static_cast<QWheelEvent*>(event);
    if (m_plot->axisRectAt(wheel->position()) == nullptr) {
      QApplication::sendEvent(m_scroll->verticalScrollBar(), event);
      return true;
    }
  }
  return QWidget::eventFilter(watched, event);
}

QSize HeatmapGrid::visibleSize() const { return size().expandedTo(QSize(1, 1)); }

QFont HeatmapGrid::captionFont(bool heading) const {
  QFont font = m_plot->font();
  font.setPointSizeF(font.pointSizeF() * (heading ? 1.3 : 1.1));
  font.setBold(heading);
  return font;
}

QStringList HeatmapGrid::captionParts(int width, bool heading) const {
  // The first line is the heading (bold); the rest the body, both wrapped to the plot's width.
  const qsizetype nl = m_caption.indexOf(QLatin1Char('\n'));
  const QString text = heading ? m_caption.left(nl < 0 ? m_caption.size() : nl)
                               : (nl < 0 ? QString() : m_caption.mid(nl + 1));
  if (text.isEmpty()) return {};
  return wrapLines(text, captionFont(heading), std::max(100, width - kCaptionPad));
}

int HeatmapGrid::captionHeight(int width) const {
  if (m_caption.isEmpty()) return 0;
  int height = 0;
  for (const bool heading : {true, false}) {
    const QStringList lines = captionParts(width, heading);
    if (!lines.isEmpty()) {
      height += static_cast<int>(lines.size()) * QFontMetrics(captionFont(heading)).lineSpacing() +
                kCaptionPad / 2;
    }
  }
  return height;
}

int HeatmapGrid::neededHeight(int n, int columns) const {
  if (n <= 0 || columns <= 0) return 0;
  const int gridRows = (n + columns - 1) / columns;
  // Per map row: title, note, tick labels (measured: presentation mode has larger fonts), row
  // spacing, and a readable axis rect.
  QFont title = m_plot->font();
  title.setBold(true);
  const QFontMetrics text(m_plot->font());
  const int axisTitle = m_axisTitles ? text.height() + 4 : 0;  // below every map
  // Column labels turned on their side stand taller than the one line of tick labels counted
  // here: tokens when wider than a cell, and bias_k / zero, which have an axis line of their
  // own below the map and turn when they would collide.
  int tokens = 0, extra = 0;
  if (!m_data.maps.empty()) {
    for (const ColumnInfo& c : m_data.maps.front().columns) {
      const int width = text.horizontalAdvance(c.label) + 8;
      if (c.kind != mhaviz::KeyKind::source) {
        extra = std::max(extra, width);
      } else if (!m_view.keyLabels.isEmpty()) {
        tokens = std::max(tokens, width - text.height());
      }
    }
  }
  const int turned = std::min(tokens, text.height() * 6) + extra;
  const int chrome = QFontMetrics(title).height() + text.height() * 3 + 16 + axisTitle + turned;
  return captionHeight(visibleSize().width()) + kLegendH +
         gridRows * (std::max(kMapChromeH, chrome) + kReadableRectPx) + (gridRows - 1) * 8;
}

void HeatmapGrid::fitPlot(int columns) {
  const QSize visible = visibleSize();
  QSize plotSize = visible;
  if (m_scrollWhenSmall) {
    const int needed = neededHeight(static_cast<int>(m_data.maps.size()), columns);
    if (needed > visible.height()) {
      const int bar = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_scroll);
      plotSize = QSize(std::max(1, visible.width() - bar), needed);
    }
  }
  if (m_plot->size() != plotSize) m_plot->resize(plotSize);
}

void HeatmapGrid::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange && m_followPalette) {
    rebuild();
    renderAll();
    return;
  }
  if (event->type() != QEvent::FontChange || m_restyleQueued) return;
  // A new font (presentation mode) restyles every text and wraps the caption again; once, after
  // the change has reached the plot (a child) too.
  m_restyleQueued = true;
  QTimer::singleShot(0, this, [this] {
    m_restyleQueued = false;
    rebuild();
    renderAll();
  });
}

QColor HeatmapGrid::textColor() const {
  return m_followPalette ? palette().color(QPalette::Text) : QColor(Qt::black);
}

void HeatmapGrid::placeBadge() {
  QLabel* badge = m_state->badge;
  badge->setMaximumWidth(std::max(200, width() - 16));
  badge->adjustSize();
  badge->move(8, 8);
  badge->raise();
}

void HeatmapGrid::extract() {
  m_message.clear();
  m_data = StageData{};
  m_preparation->cancel();  // output of tasks for the previous data is dropped
  m_preparing = false;
  m_pendingJobs.clear();
  if (!m_result) return;
  try {
    // Big maps are only described: their cells are read from the result (kept alive by
    // m_result) when reduced, never copied.
    const bool big = totalCells(*m_result, m_view) > kDirectCells;
    m_data = extractStage(*m_result, m_view, big ? ExtractMode::describe : ExtractMode::copy);
    // Without background preparation the statistics are computed here (GUI thread).
    if (!m_data.statsReady && !m_background) computeStats(m_data);
  } catch (const mhaviz::InvalidInput& e) {
    m_message = QString::fromStdString(e.what());
  }
}

double HeatmapGrid::cellPixels(int n, int columns, QSize size) const {
  if (m_data.maps.empty() || n <= 0 || columns <= 0) return 0;
  const double availW = std::max(100, size.width() - 110);  // colour scale
  const double availH = std::max(100, size.height() - 40 - captionHeight(size.width()));
  const double rows = std::max(1, m_data.maps.front().rows);
  const double cols = std::max(1, m_data.maps.front().cols);
  const int gridRows = (n + columns - 1) / columns;
  // Axis titles (query / key) take a line beside and below every map.
  const int axisTitle = m_axisTitles ? QFontMetrics(m_plot->font()).height() + 4 : 0;
  const double cellW = availW / columns - kMapChromeW - axisTitle;
  const double cellH = availH / gridRows - kMapChromeH - axisTitle;
  return std::min(cellW / cols, cellH / rows);
}

int HeatmapGrid::chooseColumns(int n) const {
  if (m_data.groupColumns > 0) return std::min(n, m_data.groupColumns);  // one group a column
  if (n <= 1 || m_data.maps.empty()) return 1;
  int best = 1;
  double bestScale = -1;
  for (int c = 1; c <= n; ++c) {
    const double scale = cellPixels(n, c, visibleSize());
    if (scale > bestScale + 1e-9) {
      bestScale = scale;
      best = c;
    }
  }
  return best;
}

}  // namespace mhaviz::ui
