// The grid's layout for new data: caption, one cell per map (title, note, axis rect, colour map,
// mask overlay, the bias_k / zero separators and labels), the shared colour scale and the
// legend. GUI thread.
#include <qcustomplot.h>

#include <QFontMetrics>
#include <algorithm>
#include <cmath>
#include <vector>

#include "render/colormaps.hpp"
#include "render/grid_input.hpp"
#include "render/grid_layout.hpp"
#include "render/heatmap_grid.hpp"
#include "render/heatmap_grid_state.hpp"

namespace mhaviz::ui {
namespace {

bool anyMasked(const StageData& data) {
  return std::any_of(data.maps.begin(), data.maps.end(),
                     [](const MapData& m) { return m.hasMask(); });
}

bool anyNan(const StageData& data) {
  return std::any_of(data.maps.begin(), data.maps.end(), [](const MapData& m) { return m.hasNan; });
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

namespace {

// Removes every element, plottable and item of the previous picture.
void clearPicture(QCustomPlot* plot, GridState& s) {
  plot->clearItems();
  plot->clearPlottables();
  plot->plotLayout()->clear();
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

// One colour scale for all maps, in column 2 of the body, with a filler after it; the maps
// take all the width they can use, the fillers get the rest. The scale stands in a column of
// its own between a spacer and a filler, so that it can stay in view when the maps scroll
// (HeatmapGrid::placeScale).
void addColourScale(QCustomPlot* plot, GridState& s, QCPLayoutGrid* body, const QString& unit,
                    const QColor& text, bool oneRow) {
  s.scale = new QCPColorScale(plot);
  s.scale->setType(QCPAxis::atRight);
  s.scale->setBarWidth(14);
  s.scale->setGradient(s.gradient);
  s.scale->setRangeDrag(false);
  s.scale->setRangeZoom(false);
  s.scaleTitle = unit;
  s.scale->axis()->setLabel(unit);
  styleAxis(s.scale->axis(), text);
  auto* column = new QCPLayoutGrid;
  column->setRowSpacing(0);
  s.scaleOffset = new QCPLayoutElement(plot);
  column->addElement(0, 0, s.scaleOffset);
  column->addElement(1, 0, s.scale);
  s.scaleRest = new QCPLayoutElement(plot);
  column->addElement(2, 0, s.scaleRest);
  for (QCPLayoutElement* spacer : {s.scaleOffset, s.scaleRest}) spacer->setMaximumSize(QWIDGETSIZE_MAX, 0);
  body->addElement(0, 2, column);
  body->addElement(0, 3, new QCPLayoutElement(plot));
  body->setColumnStretchFactor(0, 0.001);
  body->setColumnStretchFactor(1, 1000);
  body->setColumnStretchFactor(2, 0.000001);
  body->setColumnStretchFactor(3, 0.001);
  s.body = body;
  if (oneRow) s.scale->setMarginGroup(QCP::msTop | QCP::msBottom, s.margins);
}

}  // namespace

void HeatmapGrid::rebuild() {
  GridState& s = *m_state;
  clearPicture(m_plot, s);
  if (!m_keepArrangement) s.arrangement = arrangement();
  buildPicture();
  if (s.views.empty()) return;
  if (m_keepArrangement) {
    // A zoom continued: the maps stay where they were to the pixel, whatever their new tick
    // labels (never wider than the whole map's, which were measured).
    for (MapView& v : s.views) {
      v.rect->setAutoMargins(QCP::msNone);
      v.rect->setMargins(m_layout->chrome().rect);
    }
    return;
  }
  // What the built picture needs around its maps (tick labels, axis titles, colour scale,
  // legend) decides their size: measure it at this size and arrange again with it.
  layoutNow();
  for (std::size_t i = 0; i < s.views.size(); ++i) updateTicks(static_cast<int>(i));
  layoutNow();
  if (!m_layout->measure(s)) return;
  const GridArrangement measured = arrangement();
  if (measured == s.arrangement) return;
  if (measured.columns != s.arrangement.columns) {
    clearPicture(m_plot, s);
    s.arrangement = measured;
    buildPicture();
  } else {
    s.arrangement = measured;
    applyArrangement();
  }
}

void HeatmapGrid::buildPicture() {
  GridState& s = *m_state;
  const int n = static_cast<int>(m_data.maps.size());
  applyArrangement();  // the plot's size: taller than the widget (scrolling) when maps need it
  const QColor background = m_followPalette ? palette().color(QPalette::Base) : QColor(Qt::white);
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
    const QStringList lines = m_layout->captionParts(m_plot->width(), heading);
    if (lines.isEmpty()) continue;
    auto* caption =
        new QCPTextElement(m_plot, lines.join(QLatin1Char('\n')), m_layout->captionFont(heading));
    caption->setTextColor(text);
    caption->setTextFlags(Qt::AlignCenter);
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
  const MapStyle style{text, background, m_layout->titleFont(), m_layout->noteFont()};
  // Groups (W_q | W_k | W_v) fill one column each, map k of every group on row k; other maps
  // fill the rows left to right.
  const int columns = s.arrangement.columns;
  const int perColumn = (n + columns - 1) / columns;
  const bool grouped = m_data.groupColumns > 0;
  for (int i = 0; i < n; ++i) {
    auto* cell = new QCPLayoutGrid;
    maps->addElement(grouped ? i % perColumn : i / columns, grouped ? i / perColumn : i % columns,
                     cell);
    s.views.push_back(buildMap(i, cell, style));
  }
  applyArrangement();  // the maps' sizes and their titles' widths

  addColourScale(m_plot, s, body, m_data.shownUnit, text, n <= columns);

  // Legend of the special cells and columns.
  s.legend = new QCPLayoutGrid;
  top->addElement(row, 0, s.legend);
  top->setRowStretchFactor(bodyRow, 1000);
  buildLegend(s.legend, text, background);
  top->setRowStretchFactor(row, 0.000001);
  top->addElement(row + 1, 0, new QCPLayoutElement(m_plot));
  top->setRowStretchFactor(row + 1, 0.001);
  // New colour maps and a new scale start at QCustomPlot's default range (0..6 on the scale):
  // every rebuild, whoever asks for it (a resize that changes the columns, a palette change),
  // gives them the rule's range. Without statistics yet, the task's arrival applies them.
  if (m_data.statsReady) applyRanges();
}

MapView HeatmapGrid::buildMap(int index, QCPLayoutGrid* cell, const MapStyle& style) {
  const MapData& m = m_data.maps[static_cast<std::size_t>(index)];
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
  v.rect->setMarginGroup(QCP::msLeft | QCP::msRight | QCP::msTop | QCP::msBottom, m_state->margins);
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
  v.colorMap->setGradient(m_state->gradient);

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
  if (m_layout->axisTitles()) {
    const bool keyCols = !m.columns.empty() && hasKind(m.columns, KeyKind::source) &&
                         m_view.stage != Stage::q && m_view.stage != Stage::head_output &&
                         m_view.stage != Stage::merged && m_view.stage != Stage::output;
    const QString xTitle = keyCols ? tr("key")
                           : (m_view.stage == Stage::merged || m_view.stage == Stage::output)
                               ? tr("embedding dimension")
                               : tr("head dimension");
    const QString yTitle = m.rowMeaning == RowMeaning::head  ? tr("head")
                           : m.rowMeaning == RowMeaning::all ? QString()
                           : m.rowsInfo.empty()              ? tr("query")
                                                             : tr("key");
    // The parameter matrices name their own axes (output and input features).
    (v.extraX != nullptr ? v.extraX : x)
        ->setLabel(m_data.columnAxis.isEmpty() ? xTitle : m_data.columnAxis);
    (v.extraY != nullptr ? v.extraY : y)->setLabel(m_data.rowAxis.isEmpty() ? yTitle : m_data.rowAxis);
  }
  connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
          [this, index](const QCPRange&) { m_input->onAxisRangeChanged(index, true); });
  connect(y, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
          [this, index](const QCPRange&) { m_input->onAxisRangeChanged(index, false); });
  return v;
}

void HeatmapGrid::buildLegend(QCPLayoutGrid* legend, const QColor& text, const QColor& background) {
  GridState& s = *m_state;
  const QColor legendText = m_followPalette ? mix(text, background, 0.16) : QColor(40, 40, 40);
  // Two groups, each starting a row: the special cells, then the appended key columns.
  std::vector<std::vector<LegendKey*>> groups(1);
  if (anyMasked(m_data) || m_view.stage == Stage::weights || m_view.stage == Stage::scores ||
      m_view.stage == Stage::mask || m_view.stage == Stage::weights_before_dropout) {
    // A reduced view knows the mask from its blocks of zeros only (stages/reduced_result.hpp).
    const bool reduced = m_data.result != nullptr && m_data.result->is_reduced();
    groups[0].push_back(new LegendKey(
        m_plot, maskedCellColor(), LegendKey::Swatch::fill,
        reduced ? tr("masked: every weight of the block is 0") : tr("masked (-inf in the mask)"),
        legendText));
  }
  s.nanKey = new LegendKey(
      m_plot, nanColor(s.colormap), LegendKey::Swatch::fill,
      anyNan(m_data) ? tr("NaN (a query with every key masked, or NaN/Inf in the tensors)")
                     : tr("NaN"),
      legendText);
  groups[0].push_back(s.nanKey);
  const auto& infos = m_data.maps.front().columns.empty() ? m_data.maps.front().rowsInfo
                                                          : m_data.maps.front().columns;
  std::vector<LegendKey*> extra;
  // Value norms: say what the appended columns carry, whatever their weight.
  const bool norms = m_view.stage == Stage::value_norms;
  const bool zeroing = m_view.stage == Stage::value_zeroing;
  const bool sinks = m_view.stage == Stage::sink_scores;
  if (hasKind(infos, KeyKind::zero) && sinks) {
    extra.push_back(new LegendKey(
        m_plot, extraKeyColor(), LegendKey::Swatch::line,
        tr("zero: its score is the mean weight sent to nothing (softmax₁'s extra term)"),
        extraKeyColor()));
  }
  if (hasKind(infos, KeyKind::bias_k)) {
    extra.push_back(new LegendKey(m_plot, extraKeyColor(), LegendKey::Swatch::line,
                                  norms ? tr("bias_k: its value is bias_v, so f = bias_v·W_O^h")
                                  : zeroing ? tr("bias_k: its value bias_v is what is zeroed")
                                            : tr("bias_k: key appended by add_bias_kv"),
                                  extraKeyColor()));
  }
  if (hasKind(infos, KeyKind::zero) && !sinks) {
    extra.push_back(new LegendKey(
        m_plot, extraKeyColor(), LegendKey::Swatch::line,
        norms ? tr("zero: its value is 0, so it adds nothing (norm 0) however large its weight")
        : zeroing
            ? tr("zero: its value is already 0, so zeroing it changes nothing (0 by construction)")
            : tr("zero: all-zero key appended by add_zero_attn"),
        extraKeyColor()));
  }
  if (!extra.empty()) groups.push_back(extra);
  // Each row is a grid of its own (rows do not share column widths), and a key that does not
  // fit beside the ones before it starts a new row: nothing is clipped on a narrow screen.
  constexpr int kSpacing = 10;
  const int width = std::max(200, m_plot->viewport().width() - 16);
  int rows = 0;
  for (const std::vector<LegendKey*>& group : groups) {
    QCPLayoutGrid* row = nullptr;
    int used = 0;
    int column = 0;
    const auto endRow = [&] {
      row->addElement(0, column, new QCPLayoutElement(m_plot));  // takes the rest of the width
      row->setColumnStretchFactor(column, 1000);
    };
    for (LegendKey* key : group) {
      const int keyWidth = key->minimumOuterSizeHint().width();
      if (row == nullptr || used + keyWidth > width) {
        if (row != nullptr) endRow();
        row = new QCPLayoutGrid;
        row->setColumnSpacing(kSpacing);
        legend->addElement(rows++, 0, row);
        used = 0;
        column = 0;
      }
      row->addElement(0, column++, key);
      used += keyWidth + kSpacing;
    }
    endRow();
  }
}

}  // namespace mhaviz::ui
