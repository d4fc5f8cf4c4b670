#include "render/heatmap_grid.hpp"

#include <qcustomplot.h>

#include <QLabel>
#include <QResizeEvent>
#include <QShowEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QTimer>
#include <algorithm>
#include <utility>

#include "render/colormaps.hpp"
#include "render/grid_input.hpp"
#include "render/grid_layout.hpp"
#include "render/grid_preparation.hpp"
#include "render/heatmap_grid_state.hpp"

namespace mhaviz::ui {

HeatmapGrid::HeatmapGrid(QWidget* parent)
    : QWidget(parent),
      m_scroll(new QScrollArea(this)),
      m_plot(new QCustomPlot),
      m_state(std::make_unique<GridState>()),
      m_layout(std::make_unique<GridLayout>(m_plot)),
      m_preparation(std::make_unique<GridPreparation>(this)) {
  m_scroll->setFrameShape(QFrame::NoFrame);
  m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  m_scroll->setWidgetResizable(false);
  m_scroll->setWidget(m_plot);
  m_scroll->setGeometry(rect());
  m_plot->resize(size());
  m_input = new GridInput(m_plot, m_scroll, *m_state, m_data, m_view, this);
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
  connect(m_input, &GridInput::cellHovered, this, &HeatmapGrid::cellHovered);
  connect(m_input, &GridInput::cellClicked, this, &HeatmapGrid::cellClicked);
  connect(m_input, &GridInput::visibleCellsChanged, this, &HeatmapGrid::visibleCellsChanged);
  connect(m_input, &GridInput::zoomOutAtWhole, this, &HeatmapGrid::zoomOutAtWhole);
  connect(m_input, &GridInput::rangesChanged, this, &HeatmapGrid::queueRender);
  connect(m_scroll->verticalScrollBar(), &QScrollBar::valueChanged, this, [this] {
    if (placeScale()) {
      layoutNow();
      m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
  });
}

HeatmapGrid::~HeatmapGrid() = default;  // a preparation still running is cancelled

void HeatmapGrid::setStageData(StageData stage, const ViewOptions& view, const QString& whyEmpty) {
  m_changeTimer.start();
  m_preparation->cancel();  // nothing made for the previous data arrives
  m_view = view;
  m_message = whyEmpty;
  m_input->forgetHover();
  const std::size_t maps = m_data.maps.size();
  m_data = std::move(stage);
  // Without background preparation the maps to derive and the statistics are computed here (GUI
  // thread); with it, by the preparation's task (applyPrepared takes the derived maps).
  if (!m_preparation->enabled()) {
    deriveMaps(m_data);
    if (!m_data.statsReady) computeStats(m_data);
  }
  const std::optional<QRectF> zoom = std::exchange(m_continueZoom, std::nullopt);
  m_keepArrangement = zoom.has_value() && maps == m_data.maps.size();
  rebuild();
  m_keepArrangement = false;
  if (zoom.has_value()) m_input->showCells(*zoom);
  renderAll();
  m_lastRenderMs = static_cast<double>(m_changeTimer.nsecsElapsed()) / 1e6;
}

void HeatmapGrid::setView(const ViewOptions& view) {
  m_changeTimer.start();
  m_view = view;
  m_input->forgetHover();
  rebuild();
  renderAll();
  m_lastRenderMs = static_cast<double>(m_changeTimer.nsecsElapsed()) / 1e6;
}

void HeatmapGrid::setBackgroundPreparation(bool on) { m_preparation->setEnabled(on); }

bool HeatmapGrid::backgroundPreparation() const { return m_preparation->enabled(); }

bool HeatmapGrid::isPreparing() const {
  return m_preparation->preparingStats() || m_preparation->awaitingPicture();
}

void HeatmapGrid::setOutOfDate(bool outOfDate, const QString& why) {
  m_outOfDate = outOfDate;
  m_outOfDateWhy = why;
  QString text = tr("Out of date");
  if (!why.isEmpty()) text += QStringLiteral(": ") + why;
  text += tr(" (showing the last computed result)");
  m_state->badge->setText(text);
  m_state->badge->setVisible(outOfDate);
  GridLayout::placeBadge(m_state->badge, width());
}

void HeatmapGrid::clear() {
  m_preparation->cancel();
  m_preparation->setAwaitingPicture(false);
  m_input->forgetHover();
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

QRectF HeatmapGrid::visibleCells() const { return m_input->visibleCells(); }

QSize HeatmapGrid::mapPixels() const {
  return m_state->views.empty() ? QSize() : m_state->views.front().rect->rect().size();
}

void HeatmapGrid::setWheelZoomFactor(double factor) {
  m_wheelZoomFactor = factor;
  for (MapView& v : m_state->views) v.rect->setRangeZoomFactor(factor);
}

double HeatmapGrid::lastRenderMs() const { return m_lastRenderMs; }

void HeatmapGrid::setCaption(const QString& caption) { m_layout->setCaption(caption); }

QStringList HeatmapGrid::captionLines() const {
  return m_layout->captionParts(m_plot->width(), true) +
         m_layout->captionParts(m_plot->width(), false);
}

void HeatmapGrid::setAxisTitles(bool on) { m_layout->setAxisTitles(on); }

void HeatmapGrid::setScrollWhenSmall(bool on) { m_layout->setScrollWhenSmall(on); }

void HeatmapGrid::setMaskedColor(std::optional<QColor> colour) { m_maskedColor = colour; }

QColor HeatmapGrid::maskedCellColor() const {
  return m_maskedColor.value_or(maskedColor(m_state->colormap));
}

void HeatmapGrid::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (!m_state->replotWhenShown) return;
  m_state->replotWhenShown = false;
  m_plot->replot();
}

void HeatmapGrid::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  m_scroll->setGeometry(rect());
  GridLayout::placeBadge(m_state->badge, width());
  const GridArrangement next = arrangement();
  const bool rewrap =
      !m_layout->caption().isEmpty() && event->size().width() != event->oldSize().width();
  if (!m_data.maps.empty() && (next.columns != m_state->arrangement.columns || rewrap)) {
    rebuild();  // arranges and sizes the plot itself
  } else if (next != m_state->arrangement) {
    m_state->arrangement = next;  // the same columns, other sizes
    applyArrangement();
  }
  if (!m_data.maps.empty()) queueRender();
}

QSize HeatmapGrid::visibleSize() const { return size().expandedTo(QSize(1, 1)); }

GridArrangement HeatmapGrid::arrangement() const {
  m_layout->setRangeInTitles(m_view.perHeadScale);
  const int bar = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_scroll);
  return m_layout->arrange(m_data, visibleSize(), bar);
}

void HeatmapGrid::applyArrangement() {
  const GridArrangement& a = m_state->arrangement;
  if (m_plot->size() != a.plot) m_plot->resize(a.plot);
  m_plot->setViewport(QRect(QPoint(0, 0), m_plot->size()));
  for (MapView& v : m_state->views) {
    v.rect->setMaximumSize(a.rect);
    v.title->setWrapWidth(a.slotWidth);
    v.note->setWrapWidth(a.slotWidth);
    v.note->setKeepLine(a.notes);
  }
}

bool HeatmapGrid::placeScale() {
  GridState& s = *m_state;
  if (s.scale == nullptr || s.scaleOffset == nullptr || s.scaleRest == nullptr) return false;
  // Scrolling maps keep the scale in view: as tall as the view, moved down with the scroll
  // (the spacers above and below it take the rest of the maps' height).
  const int view = visibleSize().height();
  const int body = s.body != nullptr ? s.body->outerRect().height() : 0;
  int offset = 0, rest = 0;
  if (m_plot->height() > view && body > 0) {
    // The part of the maps' rows in view (the caption above them may take the top of it).
    const int bodyTop = s.body->outerRect().top();
    const int scroll = m_scroll->verticalScrollBar()->value();
    const int top = std::max(bodyTop, scroll);
    const int bottom = std::min(bodyTop + body, scroll + view);
    const int height = std::clamp(bottom - top - 2 * kPlotRowSpacing, std::min(body, 40), body);
    offset = std::clamp(top - bodyTop, 0, body - height);
    rest = body - height - offset;
  }
  if (s.scaleOffset->maximumSize().height() == offset &&
      s.scaleRest->maximumSize().height() == rest) {
    return false;
  }
  for (const auto& [spacer, height] : {std::pair{s.scaleOffset, offset}, {s.scaleRest, rest}}) {
    spacer->setMinimumSize(0, height);
    spacer->setMaximumSize(QWIDGETSIZE_MAX, height);
  }
  return true;
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

}  // namespace mhaviz::ui
