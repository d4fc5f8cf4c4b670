// The grid's picture built from its content (render/grid_picture.hpp).
#include "render/grid_picture.hpp"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <algorithm>
#include <cmath>
#include <vector>

#include "render/colormaps.hpp"
#include "render/grid_colour_scale.hpp"
#include "render/grid_geometry.hpp"
#include "render/grid_layout.hpp"
#include "render/grid_legend.hpp"
#include "render/heatmap_grid.hpp"  // HeatmapGrid::tr: the picture keeps the grid's translations
#include "render/heatmap_grid_state.hpp"
#include "render/map_text.hpp"

namespace mhaviz::ui {
namespace {

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

/// What every map of one picture shares.
struct GridPicture::MapStyle {
  QColor text;
  QColor background;
  QFont titleFont;
  QFont noteFont;
};

GridPicture::GridPicture(QWidget* grid, QCustomPlot* plot, GridLayout& layout,
                         GridGeometry& geometry, GridColourScale& colours, GridState& state,
                         const GridContent& content, RangeChanged rangeChanged)
    : m_grid(grid),
      m_plot(plot),
      m_layout(layout),
      m_geometry(geometry),
      m_colours(colours),
      m_state(state),
      m_content(content),
      m_rangeChanged(std::move(rangeChanged)) {}

void GridPicture::setWheelZoomFactor(double factor) {
  m_wheelZoomFactor = factor;
  for (MapView& v : m_state.views) v.rect->setRangeZoomFactor(factor);
}

QColor GridPicture::textColor() const {
  return m_followPalette ? m_grid->palette().color(QPalette::Text) : QColor(Qt::black);
}

void GridPicture::clear() {
  GridState& s = m_state;
  m_plot->clearItems();
  m_plot->clearPlottables();
  m_plot->plotLayout()->clear();
  s.views.clear();
  s.scale = nullptr;
  s.legend = nullptr;
  s.body = nullptr;
  s.scaleOffset = nullptr;
  s.scaleRest = nullptr;
  s.nanKey = nullptr;
  delete s.margins;
  s.margins = nullptr;
}

void GridPicture::rebuild(bool keepArrangement) {
  GridState& s = m_state;
  clear();
  m_geometry.apply(keepArrangement ? m_geometry.current() : m_geometry.fitting());
  build();
  if (s.views.empty()) return;
  if (keepArrangement) {
    // A zoom continued: the maps stay where they were to the pixel, whatever their new tick
    // labels (never wider than the whole map's, which were measured).
    for (MapView& v : s.views) {
      v.rect->setAutoMargins(QCP::msNone);
      v.rect->setMargins(m_layout.chrome().rect);
    }
    return;
  }
  // What the built picture needs around its maps (tick labels, axis titles, colour scale,
  // legend) decides their size: measure it at this size and arrange again with it.
  m_geometry.layoutWithTicks();
  if (!m_layout.measure(s, m_content.data(), m_content.view)) return;
  const GridArrangement measured = m_geometry.fitting();
  if (measured == m_geometry.current()) return;
  if (measured.columns != m_geometry.current().columns) {
    clear();
    m_geometry.apply(measured);
    build();
  } else {
    m_geometry.apply(measured);
  }
}

// One colour scale for all maps, in column 2 of the body, with a filler after it; the maps
// take all the width they can use, the fillers get the rest. The scale stands in a column of
// its own between a spacer and a filler, so that it can stay in view when the maps scroll
// (GridViewport::placeScale).
void GridPicture::addColourScale(QCPLayoutGrid* body, const QColor& text, bool oneRow) {
  GridState& s = m_state;
  const QString& unit = m_content.data().shownUnit;
  s.scale = new QCPColorScale(m_plot);
  s.scale->setType(QCPAxis::atRight);
  s.scale->setBarWidth(14);
  s.scale->setGradient(m_colours.gradient());
  s.scale->setRangeDrag(false);
  s.scale->setRangeZoom(false);
  s.scaleTitle = unit;
  s.scale->axis()->setLabel(unit);
  styleAxis(s.scale->axis(), text);
  auto* column = new QCPLayoutGrid;
  column->setRowSpacing(0);
  s.scaleOffset = new QCPLayoutElement(m_plot);
  column->addElement(0, 0, s.scaleOffset);
  column->addElement(1, 0, s.scale);
  s.scaleRest = new QCPLayoutElement(m_plot);
  column->addElement(2, 0, s.scaleRest);
  for (QCPLayoutElement* spacer : {s.scaleOffset, s.scaleRest}) {
    spacer->setMaximumSize(QWIDGETSIZE_MAX, 0);
  }
  body->addElement(0, 2, column);
  body->addElement(0, 3, new QCPLayoutElement(m_plot));
  body->setColumnStretchFactor(0, 0.001);
  body->setColumnStretchFactor(1, 1000);
  body->setColumnStretchFactor(2, 0.000001);
  body->setColumnStretchFactor(3, 0.001);
  s.body = body;
  if (oneRow) s.scale->setMarginGroup(QCP::msTop | QCP::msBottom, s.margins);
}

void GridPicture::build() {
  GridState& s = m_state;
  const StageData& data = m_content.data();
  const int n = static_cast<int>(data.maps.size());
  // The plot already has the arrangement's size: taller than the widget (scrolling) when maps
  // need it.
  const QColor background =
      m_followPalette ? m_grid->palette().color(QPalette::Base) : QColor(Qt::white);
  if (m_followPalette) m_plot->setBackground(background);
  const QColor text = textColor();

  QCPLayoutGrid* top = m_plot->plotLayout();
  top->setRowSpacing(kPlotRowSpacing);
  // Filler rows above and below keep the picture vertically centred when the maps leave
  // height unused.
  top->addElement(0, 0, new QCPLayoutElement(m_plot));
  top->setRowStretchFactor(0, 0.001);
  int row = 1;
  for (const bool heading : {true, false}) {
    // Wrapped here to the plot's width: QCPTextElement itself never wraps.
    const QStringList lines = m_layout.captionParts(m_plot->width(), heading);
    if (lines.isEmpty()) continue;
    auto* caption =
        new QCPTextElement(m_plot, lines.join(QLatin1Char('\n')), m_layout.captionFont(heading));
    caption->setTextColor(text);
    caption->setTextFlags(Qt::AlignCenter);
    top->addElement(row++, 0, caption);
  }
  if (data.maps.empty()) {
    const QString message = !m_content.message.isEmpty()
                                ? m_content.message
                                : HeatmapGrid::tr("No result to show yet.");
    // Wrapped to the plot's width, as the caption is (a compare's reason can be long).
    auto* element = new QCPTextElement(m_plot);
    element->setText(wrapLines(message, element->font(), std::max(100, m_plot->width() - 16))
                         .join(QLatin1Char('\n')));
    element->setTextColor(text);
    element->setTextFlags(Qt::AlignCenter);
    top->addElement(row, 0, element);
    return;
  }

  m_colours.chooseColormap();

  // Body: [filler | maps | colour scale | filler], so that the maps are centred.
  auto* body = new QCPLayoutGrid;
  const int bodyRow = row++;
  top->addElement(bodyRow, 0, body);
  auto* maps = new QCPLayoutGrid;
  maps->setColumnSpacing(kMapColumnSpacing);
  maps->setRowSpacing(kMapRowSpacing);
  body->addElement(0, 0, new QCPLayoutElement(m_plot));
  body->addElement(0, 1, maps);
  body->setColumnSpacing(kBodySpacing);
  s.margins = new QCPMarginGroup(m_plot);
  const MapStyle style{text, background, m_layout.titleFont(), m_layout.noteFont()};
  // Groups (W_q | W_k | W_v) fill one column each, map k of every group on row k; other maps
  // fill the rows left to right.
  const int columns = m_geometry.current().columns;
  const int perColumn = (n + columns - 1) / columns;
  const bool grouped = data.groupColumns > 0;
  for (int i = 0; i < n; ++i) {
    auto* cell = new QCPLayoutGrid;
    maps->addElement(grouped ? i % perColumn : i / columns, grouped ? i / perColumn : i % columns,
                     cell);
    s.views.push_back(buildMap(i, cell, style));
  }
  m_geometry.apply(m_geometry.current());  // the maps' sizes and their titles' widths

  addColourScale(body, text, n <= columns);

  // Legend of the special cells and columns.
  s.legend = new QCPLayoutGrid;
  top->addElement(row, 0, s.legend);
  top->setRowStretchFactor(bodyRow, 1000);
  const QColor legendText = m_followPalette ? mix(text, background, 0.16) : QColor(40, 40, 40);
  s.nanKey = buildLegend(m_plot, s.legend, data, m_content.view.stage,
                         {legendText, m_colours.maskedCellColor(), m_colours.nanCellColor()});
  top->setRowStretchFactor(row, 0.000001);
  top->addElement(row + 1, 0, new QCPLayoutElement(m_plot));
  top->setRowStretchFactor(row + 1, 0.001);
  // New colour maps and a new scale start at QCustomPlot's default range (0..6 on the scale):
  // every rebuild, whoever asks for it (a resize that changes the columns, a palette change),
  // gives them the rule's range. Without statistics yet, the task's arrival applies them.
  if (data.statsReady) m_colours.applyRanges();
}

MapView GridPicture::buildMap(int index, QCPLayoutGrid* cell, const MapStyle& style) {
  const StageData& data = m_content.data();
  const Stage stage = m_content.view.stage;
  const MapData& m = data.maps[static_cast<std::size_t>(index)];
  const QColor& text = style.text;
  MapView v;
  v.title = new MapText(m_plot, m.shownTitle, style.titleFont);
  v.title->setTextColor(text);
  v.title->setObjectName(QStringLiteral("mapTitle"));  // wrapped to the map (shownMapTitle)
  v.note = new MapText(m_plot, QString(), style.noteFont);
  v.note->setObjectName(QStringLiteral("mapTitle"));
  v.note->setTextColor(m_followPalette ? mix(text, style.background, 0.35) : QColor(90, 90, 90));
  v.rect = new QCPAxisRect(m_plot, true);
  // No room kept for the hidden top and right axes: half a line for the labels at the ends.
  const int halfLine = QFontMetrics(m_plot->font()).height() / 2;
  v.rect->setMinimumMargins(QMargins(0, halfLine, halfLine, 0));
  cell->addElement(0, 0, v.title);
  cell->addElement(1, 0, v.note);
  cell->addElement(2, 0, v.rect);
  cell->setRowSpacing(0);
  cell->setRowStretchFactor(0, 0.001);
  cell->setRowStretchFactor(1, 0.001);
  v.rect->setMarginGroup(QCP::msLeft | QCP::msRight | QCP::msTop | QCP::msBottom, m_state.margins);
  v.rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
  v.rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
  v.rect->setRangeZoomFactor(m_wheelZoomFactor);
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
  v.colorMap->setGradient(m_colours.gradient());

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
  if (m_layout.axisTitles()) {
    const bool keyCols = !m.columns.empty() && hasKind(m.columns, KeyKind::source) &&
                         stage != Stage::q && stage != Stage::head_output &&
                         stage != Stage::merged && stage != Stage::output;
    const QString xTitle = keyCols ? HeatmapGrid::tr("key")
                           : (stage == Stage::merged || stage == Stage::output)
                               ? HeatmapGrid::tr("embedding dimension")
                               : HeatmapGrid::tr("head dimension");
    const QString yTitle = m.rowMeaning == RowMeaning::head  ? HeatmapGrid::tr("head")
                           : m.rowMeaning == RowMeaning::all ? QString()
                           : m.rowsInfo.empty()              ? HeatmapGrid::tr("query")
                                                             : HeatmapGrid::tr("key");
    // The parameter matrices name their own axes (output and input features).
    (v.extraX != nullptr ? v.extraX : x)
        ->setLabel(data.columnAxis.isEmpty() ? xTitle : data.columnAxis);
    (v.extraY != nullptr ? v.extraY : y)->setLabel(data.rowAxis.isEmpty() ? yTitle : data.rowAxis);
  }
  QObject::connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), m_grid,
                   [this, index](const QCPRange&) { m_rangeChanged(index, true); });
  QObject::connect(y, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), m_grid,
                   [this, index](const QCPRange&) { m_rangeChanged(index, false); });
  return v;
}

}  // namespace mhaviz::ui
