// The heatmap grid widget: what it shows, and the order in which its parts build, place, colour
// and fill the picture (render/heatmap_grid.hpp).
#include "render/heatmap_grid.hpp"

#include <qcustomplot.h>

#include <QResizeEvent>
#include <QScrollBar>
#include <QShowEvent>
#include <QTimer>
#include <utility>

#include "render/grid_colour_scale.hpp"
#include "render/grid_geometry.hpp"
#include "render/grid_input.hpp"
#include "render/grid_layout.hpp"
#include "render/grid_picture.hpp"
#include "render/grid_plot.hpp"
#include "render/grid_renderer.hpp"
#include "render/grid_viewport.hpp"
#include "render/heatmap_grid_state.hpp"

namespace mhaviz::ui {

HeatmapGrid::HeatmapGrid(QWidget* parent)
    : QWidget(parent),
      m_plot(new GridPlot),
      m_content(std::make_unique<GridContent>()),
      m_state(std::make_unique<GridState>()),
      m_layout(std::make_unique<GridLayout>(m_plot)),
      m_viewport(std::make_unique<GridViewport>(this, m_plot)),
      m_colours(std::make_unique<GridColourScale>(*m_state, *m_content)),
      m_geometry(std::make_unique<GridGeometry>(m_plot, *m_layout, *m_viewport, *m_colours,
                                                *m_state, *m_content)),
      m_input(new GridInput(m_plot, m_viewport->scrollArea(), *m_state, *m_content, this)),
      m_picture(std::make_unique<GridPicture>(this, m_plot, *m_layout, *m_geometry, *m_colours,
                                              *m_state, *m_content,
                                              [input = m_input](int map, bool horizontal) {
                                                input->onAxisRangeChanged(map, horizontal);
                                              })),
      m_renderer(std::make_unique<GridRenderer>(this, m_plot, *m_geometry, *m_colours, *m_state,
                                                *m_content)) {
  m_plot->setNoAntialiasingOnDrag(true);
  // One paint buffer, not two: QCustomPlot gives its "overlay" layer (the selection rectangle,
  // which the grid does not use) a buffer of its own, as large as the plot, cleared at every
  // replot. A layer of 13 maps of 577 tokens is a plot of 588 x 7029 pixels: 16.5 MB allocated
  // (page by page) and filled again for nothing whenever the plot changes size.
  m_plot->layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);
  m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  m_plot->setMouseTracking(true);
  m_plot->plotLayout()->clear();
  m_plot->setBackground(palette().color(QPalette::Base));
  connect(m_input, &GridInput::cellHovered, this, &HeatmapGrid::cellHovered);
  connect(m_input, &GridInput::cellClicked, this, &HeatmapGrid::cellClicked);
  connect(m_input, &GridInput::visibleCellsChanged, this, &HeatmapGrid::visibleCellsChanged);
  connect(m_input, &GridInput::zoomOutAtWhole, this, &HeatmapGrid::zoomOutAtWhole);
  connect(m_input, &GridInput::rangesChanged, m_renderer.get(), &GridRenderer::queueRender);
  connect(m_renderer.get(), &GridRenderer::pictureShown, this, &HeatmapGrid::pictureShown);
  connect(m_viewport->scrollBar(), &QScrollBar::valueChanged, this, [this] {
    if (m_viewport->placeScale(*m_state)) {
      m_geometry->layoutNow();
      m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
  });
}

HeatmapGrid::~HeatmapGrid() = default;  // a preparation still running is cancelled

void HeatmapGrid::setStageData(StageData stage, const ViewOptions& view, const QString& whyEmpty) {
  m_renderer->startChange();
  m_renderer->cancel();  // nothing made for the previous data arrives
  m_content->view = view;
  m_content->message = whyEmpty;
  m_input->forgetHover();
  const std::size_t maps = m_content->data().maps.size();
  m_content->set(std::move(stage));
  // Without background preparation the maps to derive and the statistics are computed here (GUI
  // thread); with it, by the renderer's background task.
  if (!m_renderer->backgroundPreparation()) {
    StageData& shown = m_content->edit();
    deriveMaps(shown);
    if (!shown.statsReady) computeStats(shown);
  }
  const std::optional<QRectF> zoom = std::exchange(m_continueZoom, std::nullopt);
  m_picture->rebuild(/*keepArrangement=*/zoom.has_value() && maps == m_content->data().maps.size());
  if (zoom.has_value()) m_input->showCells(*zoom);
  m_renderer->renderAll();
  m_renderer->finishChange();
}

void HeatmapGrid::setView(const ViewOptions& view) {
  m_renderer->startChange();
  m_content->view = view;
  m_input->forgetHover();
  m_picture->rebuild();
  m_renderer->renderAll();
  m_renderer->finishChange();
}

void HeatmapGrid::setBackgroundPreparation(bool on) { m_renderer->setBackgroundPreparation(on); }

bool HeatmapGrid::isPreparing() const { return m_renderer->isPreparing(); }

void HeatmapGrid::setOutOfDate(bool outOfDate, const QString& why) {
  m_viewport->setOutOfDate(outOfDate, why);
}

void HeatmapGrid::clear() {
  m_renderer->clear();
  m_input->forgetHover();
  m_content->set(StageData{});
  m_content->message.clear();
  m_picture->rebuild();
  m_plot->replot();
}

void HeatmapGrid::redraw() {
  m_picture->rebuild();
  m_renderer->renderAll();
}

int HeatmapGrid::mapCount() const { return static_cast<int>(m_state->views.size()); }

QStringList HeatmapGrid::mapTitles() const {
  QStringList titles;
  for (const MapData& map : m_content->data().maps) titles << map.shownTitle;
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
  const std::vector<MapData>& maps = m_content->data().maps;
  if (map < 0 || map >= static_cast<int>(maps.size())) return labels;
  const MapData& m = maps[static_cast<std::size_t>(map)];
  for (int c = 0; c < m.cols; ++c) {
    labels << (static_cast<std::size_t>(c) < m.columns.size()
                   ? m.columns[static_cast<std::size_t>(c)].label
                   : QString::number(c));
  }
  return labels;
}

QCustomPlot* HeatmapGrid::plot() const { return m_plot; }

double HeatmapGrid::lastRenderMs() const { return m_renderer->lastRenderMs(); }

QString HeatmapGrid::message() const { return m_content->message; }

const ViewOptions& HeatmapGrid::view() const { return m_content->view; }

const std::shared_ptr<const mhaviz::ForwardResult>& HeatmapGrid::result() const {
  return m_content->data().result;
}

const StageData& HeatmapGrid::stageData() const { return m_content->data(); }

void HeatmapGrid::setCaption(const QString& caption) { m_layout->setCaption(caption); }

QStringList HeatmapGrid::captionLines() const {
  return m_layout->captionParts(m_plot->width(), true) +
         m_layout->captionParts(m_plot->width(), false);
}

void HeatmapGrid::setAxisTitles(bool on) { m_layout->setAxisTitles(on); }

void HeatmapGrid::setFollowPalette(bool on) { m_picture->setFollowPalette(on); }

void HeatmapGrid::setScrollWhenSmall(bool on) { m_layout->setScrollWhenSmall(on); }

void HeatmapGrid::setInViewUpTo(int maps) { m_layout->setInViewUpTo(maps); }

void HeatmapGrid::setMaskedColor(std::optional<QColor> colour) {
  m_colours->setMaskedColor(colour);
}

QColor HeatmapGrid::maskedCellColor() const { return m_colours->maskedCellColor(); }

QScrollArea* HeatmapGrid::scrollArea() const { return m_viewport->scrollArea(); }

QRectF HeatmapGrid::visibleCells() const { return m_input->visibleCells(); }

QSize HeatmapGrid::mapPixels() const {
  return m_state->views.empty() ? QSize() : m_state->views.front().rect->rect().size();
}

void HeatmapGrid::setWheelZoomFactor(double factor) { m_picture->setWheelZoomFactor(factor); }

void HeatmapGrid::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  m_renderer->shown();
}

void HeatmapGrid::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  m_viewport->fit();
  const bool hasMaps = !m_content->data().maps.empty();
  const GridArrangement next = m_geometry->fitting();
  const bool rewrap =
      !m_layout->caption().isEmpty() && event->size().width() != event->oldSize().width();
  if (hasMaps && (next.columns != m_geometry->current().columns || rewrap)) {
    m_picture->rebuild();  // arranges and sizes the plot itself
  } else if (next != m_geometry->current()) {
    m_geometry->apply(next);  // the same columns, other sizes
  }
  if (hasMaps) m_renderer->queueRender();
}

void HeatmapGrid::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange && m_picture->followPalette()) {
    redraw();
    return;
  }
  if (event->type() != QEvent::FontChange || m_restyleQueued) return;
  // A new font (presentation mode) restyles every text and wraps the caption again; once, after
  // the change has reached the plot (a child) too.
  m_restyleQueued = true;
  QTimer::singleShot(0, this, [this] {
    m_restyleQueued = false;
    redraw();
  });
}

}  // namespace mhaviz::ui
