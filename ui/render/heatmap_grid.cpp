#include "render/heatmap_grid.hpp"

#include <qcustomplot.h>

#include <QLabel>
#include <QResizeEvent>
#include <algorithm>
#include <cmath>

#include "mhaviz/core/errors.hpp"
#include "render/colormaps.hpp"
#include "render/heatmap_grid_state.hpp"

namespace mhaviz::ui {
namespace {

// Pixels reserved around each map for its title, tick labels and margins when choosing the
// number of grid columns.
constexpr int kMapChromeW = 70;
constexpr int kMapChromeH = 60;

// Maps with more cells than this in total are described (not copied) and, with background
// preparation on, summarised and reduced off the GUI thread.
constexpr std::int64_t kDirectCells = 1 << 20;

bool anyMasked(const StageData& data) {
  return std::any_of(data.maps.begin(), data.maps.end(),
                     [](const MapData& m) { return m.hasMask(); });
}

bool anyNan(const StageData& data) {
  return std::any_of(data.maps.begin(), data.maps.end(), [](const MapData& m) { return m.hasNan; });
}

std::int64_t totalCells(const mhaviz::ForwardResult& r, const ViewOptions& view) {
  const std::int64_t side = std::max({r.L, r.Sx, r.E, r.hd, std::int64_t{1}});
  const std::int64_t maps = view.soloHead >= 0 ? 1 : r.H + 1;
  return side * side * maps;  // an upper bound: cheap and enough to choose the path
}

bool hasKind(const std::vector<ColumnInfo>& infos, KeyKind kind) {
  return std::any_of(infos.begin(), infos.end(),
                     [kind](const ColumnInfo& c) { return c.kind == kind; });
}

// Index of the first appended key (bias_k or zero) in `infos`, or -1.
int firstExtra(const std::vector<ColumnInfo>& infos) {
  for (std::size_t i = 0; i < infos.size(); ++i) {
    if (infos[i].kind != KeyKind::source) return static_cast<int>(i);
  }
  return -1;
}

void addSeparator(QCustomPlot* plot, QCPAxisRect* rect, bool vertical, double at) {
  for (int layer = 0; layer < 2; ++layer) {
    auto* line = new QCPItemStraightLine(plot);
    line->setClipAxisRect(rect);
    line->point1->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    line->point2->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    line->point1->setCoords(vertical ? at : 0.0, vertical ? 0.0 : at);
    line->point2->setCoords(vertical ? at : 1.0, vertical ? 1.0 : at);
    line->setPen(layer == 0 ? QPen(Qt::white, 3) : QPen(extraKeyColor(), 1.6, Qt::DashLine));
    line->setSelectable(false);
  }
}

// `c` moved towards `to` by `amount` (0: c, 1: to): dimmed text that works on light and dark.
QColor mix(const QColor& c, const QColor& to, double amount) {
  auto channel = [amount](int a, int b) {
    return static_cast<int>(std::lround(a + (b - a) * amount));
  };
  return QColor(channel(c.red(), to.red()), channel(c.green(), to.green()),
                channel(c.blue(), to.blue()));
}

void styleAxis(QCPAxis* axis, const QColor& color) {
  axis->setBasePen(QPen(color, 0));
  axis->setTickPen(QPen(color, 0));
  axis->setSubTickPen(QPen(color, 0));
  axis->setTickLabelColor(color);
  axis->setLabelColor(color);
}

QCPAxis* addExtraAxis(QCPAxisRect* rect, QCPAxis::AxisType type) {
  QCPAxis* axis = rect->addAxis(type);
  axis->setBasePen(Qt::NoPen);
  axis->setTickPen(Qt::NoPen);  // the labels sit under their columns; the colour marks them
  axis->setTickLabelColor(extraKeyColor());
  axis->setSubTicks(false);
  axis->setTickLength(0, 4);
  axis->setOffset(0);
  axis->grid()->setVisible(false);
  axis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
  return axis;
}

}  // namespace

HeatmapGrid::HeatmapGrid(QWidget* parent)
    : QWidget(parent),
      m_plot(new QCustomPlot(this)),
      m_state(std::make_unique<GridState>()),
      m_inbox(std::make_shared<PrepInbox>()),
      m_cancel(std::make_shared<std::atomic<bool>>(false)) {
  m_inbox->grid = this;
  m_plot->setGeometry(rect());
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

HeatmapGrid::~HeatmapGrid() {
  m_cancel->store(true);
  const std::lock_guard<std::mutex> lock(m_inbox->mutex);
  m_inbox->grid = nullptr;  // running tasks finish on their own and post nothing
}

void HeatmapGrid::setResult(std::shared_ptr<const mhaviz::ForwardResult> result,
                            const ViewOptions& view) {
  m_changeTimer.start();
  m_result = std::move(result);
  m_view = view;
  extract();
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
  if (!sameData) extract();
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
  ++m_dataGen;
  m_cancel->store(true);
  m_preparing = false;
  m_awaitingPicture = false;
  m_pendingJobs.clear();
  m_result.reset();
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

void HeatmapGrid::setAxisTitles(bool on) { m_axisTitles = on; }

void HeatmapGrid::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  m_plot->setGeometry(rect());
  placeBadge();
  if (!m_data.maps.empty()) {
    if (chooseColumns(static_cast<int>(m_data.maps.size())) != m_state->columns) rebuild();
    queueRender();
  }
}

void HeatmapGrid::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() != QEvent::PaletteChange || !m_followPalette) return;
  rebuild();
  renderAll();
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
  ++m_dataGen;  // output of tasks for the previous data is dropped
  m_cancel->store(true);
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

double HeatmapGrid::cellPixels(int n, int columns) const {
  if (m_data.maps.empty() || n <= 0 || columns <= 0) return 0;
  const QSize size = m_plot->viewport().size();
  const double availW = std::max(100, size.width() - 110);  // colour scale
  const double availH =
      std::max(100, size.height() - (m_caption.isEmpty() ? 40 : 70) - (m_axisTitles ? 20 : 0));
  const double rows = std::max(1, m_data.maps.front().rows);
  const double cols = std::max(1, m_data.maps.front().cols);
  const int gridRows = (n + columns - 1) / columns;
  const double cellW = availW / columns - kMapChromeW;
  const double cellH = availH / gridRows - kMapChromeH;
  return std::min(cellW / cols, cellH / rows);
}

int HeatmapGrid::chooseColumns(int n) const {
  if (n <= 1 || m_data.maps.empty()) return 1;
  int best = 1;
  double bestScale = -1;
  for (int c = 1; c <= n; ++c) {
    const double scale = cellPixels(n, c);
    if (scale > bestScale + 1e-9) {
      bestScale = scale;
      best = c;
    }
  }
  return best;
}

void HeatmapGrid::rebuild() {
  GridState& s = *m_state;
  m_plot->clearItems();
  m_plot->clearPlottables();
  m_plot->plotLayout()->clear();
  s.views.clear();
  s.scale = nullptr;
  s.nanKey = nullptr;
  delete s.margins;
  s.margins = nullptr;
  m_plot->setViewport(QRect(QPoint(0, 0), m_plot->size()));
  const QColor background = m_followPalette ? palette().color(QPalette::Base) : QColor(Qt::white);
  if (m_followPalette) m_plot->setBackground(background);
  const QColor text = textColor();

  QCPLayoutGrid* top = m_plot->plotLayout();
  top->setRowSpacing(4);
  // Filler rows above and below keep the picture vertically centred when square cells leave
  // height unused.
  top->addElement(0, 0, new QCPLayoutElement(m_plot));
  top->setRowStretchFactor(0, 0.001);
  int row = 1;
  if (!m_caption.isEmpty()) {
    QFont font = m_plot->font();
    font.setPointSizeF(font.pointSizeF() * 1.3);
    font.setBold(true);
    auto* caption = new QCPTextElement(m_plot, m_caption, font);
    caption->setTextColor(text);
    top->addElement(row++, 0, caption);
  }
  if (m_data.maps.empty()) {
    const QString message = !m_message.isEmpty() ? m_message : tr("No result to show yet.");
    auto* element = new QCPTextElement(m_plot, message);
    element->setTextColor(text);
    top->addElement(row, 0, element);
    return;
  }

  s.colormap = effectiveColormap(m_view.colormap, m_data.isSigned);
  s.gradient = makeGradient(s.colormap);
  const int n = static_cast<int>(m_data.maps.size());
  s.columns = chooseColumns(n);

  // Body: [filler | maps | colour scale | filler], so that maps with square cells are centred.
  auto* body = new QCPLayoutGrid;
  const int bodyRow = row++;
  top->addElement(bodyRow, 0, body);
  auto* maps = new QCPLayoutGrid;
  maps->setColumnSpacing(14);
  maps->setRowSpacing(8);
  body->addElement(0, 0, new QCPLayoutElement(m_plot));
  body->addElement(0, 1, maps);
  body->setColumnSpacing(8);
  s.margins = new QCPMarginGroup(m_plot);
  // Square cells: each axis rect at most cell * (cols, rows) pixels.
  const double cellPx = cellPixels(n, s.columns);
  const MapData& first = m_data.maps.front();
  const QSize maxRect = cellPx > 0 ? QSize(std::max(60, static_cast<int>(cellPx * first.cols)),
                                           std::max(60, static_cast<int>(cellPx * first.rows)))
                                   : QSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
  QFont noteFont = m_plot->font();
  noteFont.setPointSizeF(noteFont.pointSizeF() * 0.85);

  QFont titleFont = m_plot->font();
  titleFont.setBold(true);
  for (int i = 0; i < n; ++i) {
    const MapData& m = m_data.maps[static_cast<std::size_t>(i)];
    MapView v;
    auto* cell = new QCPLayoutGrid;
    maps->addElement(i / s.columns, i % s.columns, cell);
    v.title = new QCPTextElement(m_plot, m.shownTitle, titleFont);
    v.title->setTextColor(text);
    v.note = new QCPTextElement(m_plot, QString(), noteFont);
    v.note->setTextColor(m_followPalette ? mix(text, background, 0.35) : QColor(90, 90, 90));
    v.note->setMargins(QMargins(2, 0, 2, 0));
    v.rect = new QCPAxisRect(m_plot, true);
    v.rect->setMaximumSize(maxRect);
    cell->addElement(0, 0, v.title);
    cell->addElement(1, 0, v.note);
    cell->addElement(2, 0, v.rect);
    cell->setRowSpacing(0);
    cell->setRowStretchFactor(0, 0.001);
    cell->setRowStretchFactor(1, 0.001);
    v.rect->setMarginGroup(QCP::msLeft | QCP::msRight | QCP::msTop | QCP::msBottom, s.margins);
    v.rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    v.rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    QCPAxis* x = v.rect->axis(QCPAxis::atBottom);
    QCPAxis* y = v.rect->axis(QCPAxis::atLeft);
    for (QCPAxis* axis : {x, y}) {
      axis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
      axis->setSubTicks(false);
      axis->setTickLength(0, 4);
      axis->grid()->setVisible(false);
      styleAxis(axis, text);
    }
    x->setRange(-0.5, m.cols - 0.5);
    y->setRange(-0.5, m.rows - 0.5);

    v.colorMap = new QCPColorMap(x, y);
    v.colorMap->setInterpolate(false);
    v.colorMap->setTightBoundary(false);
    v.colorMap->setGradient(s.gradient);

    if (m.hasMask()) {
      v.maskOverlay = new QCPItemPixmap(m_plot);
      v.maskOverlay->setClipAxisRect(v.rect);
      v.maskOverlay->topLeft->setAxes(x, y);
      v.maskOverlay->bottomRight->setAxes(x, y);
      v.maskOverlay->setScaled(true, Qt::IgnoreAspectRatio, Qt::FastTransformation);
      v.maskOverlay->setSelectable(false);
    }
    const int extraCol = firstExtra(m.columns);
    if (extraCol >= 0) {
      v.extraX = addExtraAxis(v.rect, QCPAxis::atBottom);
      v.extraX->setRange(x->range());
      addSeparator(m_plot, v.rect, true, extraCol - 0.5);
    }
    const int extraRow = firstExtra(m.rowsInfo);
    if (extraRow >= 0) {
      v.extraY = addExtraAxis(v.rect, QCPAxis::atLeft);
      v.extraY->setRange(y->range());
      addSeparator(m_plot, v.rect, false, m.rows - extraRow - 0.5);
    }
    if (m_axisTitles) {
      const bool keyCols = !m.columns.empty() && hasKind(m.columns, KeyKind::source) &&
                           m_view.stage != Stage::q && m_view.stage != Stage::head_output &&
                           m_view.stage != Stage::merged && m_view.stage != Stage::output;
      const QString xTitle = keyCols ? tr("key")
                             : (m_view.stage == Stage::merged || m_view.stage == Stage::output)
                                 ? tr("embedding dimension")
                                 : tr("head dimension");
      const QString yTitle = m.rowsInfo.empty() ? tr("query") : tr("key");
      (v.extraX != nullptr ? v.extraX : x)->setLabel(xTitle);
      (v.extraY != nullptr ? v.extraY : y)->setLabel(yTitle);
    }
    const int index = i;
    connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this, index](const QCPRange&) { onAxisRangeChanged(index, true); });
    connect(y, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this, index](const QCPRange&) { onAxisRangeChanged(index, false); });
    s.views.push_back(v);
  }

  // One colour scale for all maps.
  s.scale = new QCPColorScale(m_plot);
  s.scale->setType(QCPAxis::atRight);
  s.scale->setBarWidth(14);
  s.scale->setGradient(s.gradient);
  s.scale->setRangeDrag(false);
  s.scale->setRangeZoom(false);
  s.scale->axis()->setLabel(m_data.shownUnit);
  styleAxis(s.scale->axis(), text);
  body->addElement(0, 2, s.scale);
  body->addElement(0, 3, new QCPLayoutElement(m_plot));
  // The maps take all the width they can use (up to square cells); the fillers get the rest.
  body->setColumnStretchFactor(0, 0.001);
  body->setColumnStretchFactor(1, 1000);
  body->setColumnStretchFactor(2, 0.000001);
  body->setColumnStretchFactor(3, 0.001);
  if (n <= s.columns) s.scale->setMarginGroup(QCP::msTop | QCP::msBottom, s.margins);

  // Legend of the special cells and columns.
  auto* legend = new QCPLayoutGrid;
  top->addElement(row, 0, legend);
  top->setRowStretchFactor(bodyRow, 1000);
  legend->setColumnSpacing(10);
  int k = 0;
  const QColor legendText = m_followPalette ? mix(text, background, 0.16) : QColor(40, 40, 40);
  if (anyMasked(m_data) || m_view.stage == Stage::weights || m_view.stage == Stage::scores ||
      m_view.stage == Stage::mask || m_view.stage == Stage::weights_before_dropout) {
    legend->addElement(0, k++,
                       new LegendKey(m_plot, maskedColor(s.colormap), LegendKey::Swatch::fill,
                                     tr("masked (-inf in the mask)"), legendText));
  }
  s.nanKey = new LegendKey(
      m_plot, nanColor(s.colormap), LegendKey::Swatch::fill,
      anyNan(m_data) ? tr("NaN (a query with every key masked, or NaN/Inf in the tensors)")
                     : tr("NaN"),
      legendText);
  legend->addElement(0, k++, s.nanKey);
  legend->addElement(0, k, new QCPLayoutElement(m_plot));  // takes the rest of the width
  legend->setColumnStretchFactor(k, 1000);
  // The extra-key keys go on a second row: one row of four does not fit beside a narrow grid.
  const auto& infos = m_data.maps.front().columns.empty() ? m_data.maps.front().rowsInfo
                                                          : m_data.maps.front().columns;
  int e = 0;
  if (hasKind(infos, KeyKind::bias_k)) {
    legend->addElement(1, e++,
                       new LegendKey(m_plot, extraKeyColor(), LegendKey::Swatch::line,
                                     tr("bias_k: key appended by add_bias_kv"), extraKeyColor()));
  }
  if (hasKind(infos, KeyKind::zero)) {
    legend->addElement(
        1, e++,
        new LegendKey(m_plot, extraKeyColor(), LegendKey::Swatch::line,
                      tr("zero: all-zero key appended by add_zero_attn"), extraKeyColor()));
  }
  if (e > 0) legend->addElement(1, std::max(e, k), new QCPLayoutElement(m_plot));
  top->setRowStretchFactor(row, 0.000001);
  top->addElement(row + 1, 0, new QCPLayoutElement(m_plot));
  top->setRowStretchFactor(row + 1, 0.001);
}

}  // namespace mhaviz::ui
