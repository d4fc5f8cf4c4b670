// The grid's legend (render/grid_legend.hpp): its keys and how they are packed into rows.
#include "render/grid_legend.hpp"

#include <QFontMetrics>
#include <algorithm>
#include <cmath>
#include <vector>

#include "render/colormaps.hpp"
#include "render/heatmap_grid.hpp"  // HeatmapGrid::tr: the legend keeps the grid's translations

namespace mhaviz::ui {
namespace {
constexpr int kSwatch = 12;  // px
constexpr int kGap = 6;      // px between swatch and text
}  // namespace

LegendKey::LegendKey(QCustomPlot* plot, const QColor& color, Swatch swatch, const QString& text,
                     const QColor& textColor)
    : QCPLayoutElement(plot),
      m_color(color),
      m_swatch(swatch),
      m_text(text),
      m_textColor(textColor) {
  setMargins(QMargins(8, 2, 8, 2));
}

QSize LegendKey::maximumOuterSizeHint() const {
  // The whole text: a row of keys stays packed instead of spreading over the width.
  // The text's exact advance, rounded up: a scaled font's (presentation mode) is fractional, and
  // the whole pixels horizontalAdvance rounds to were too few for the text, which then elided.
  const QFontMetrics metrics(mParentPlot->font());
  const int width =
      kSwatch + kGap +
      static_cast<int>(std::ceil(QFontMetricsF(mParentPlot->font()).horizontalAdvance(m_text))) + 1;
  const int height = std::max(kSwatch, metrics.height());
  return QSize(width + mMargins.left() + mMargins.right(),
               height + mMargins.top() + mMargins.bottom());
}

QSize LegendKey::minimumOuterSizeHint() const {
  // The whole text, unless the plot is narrower (compare's three grids side by side): then as
  // wide as the plot, the text shortened with "…" rather than drawn past the plot's edge.
  QSize size = maximumOuterSizeHint();
  size.setWidth(std::max(kSwatch + kGap + mMargins.left() + mMargins.right(),
                         std::min(size.width(), mParentPlot->width() - 16)));
  return size;
}

void LegendKey::draw(QCPPainter* painter) {
  const QRect r = mRect;
  const QRectF swatch(r.left(), r.center().y() - kSwatch / 2.0, kSwatch, kSwatch);
  painter->setFont(mParentPlot->font());
  if (m_swatch == Swatch::fill) {
    painter->setPen(QPen(QColor(90, 90, 90), 0.8));
    painter->setBrush(m_color);
    painter->drawRect(swatch);
  } else {
    const double x = swatch.center().x();
    painter->setPen(QPen(Qt::white, 3));
    painter->drawLine(QPointF(x, swatch.top()), QPointF(x, swatch.bottom()));
    painter->setPen(QPen(m_color, 1.6, Qt::DashLine));
    painter->drawLine(QPointF(x, swatch.top()), QPointF(x, swatch.bottom()));
  }
  painter->setPen(m_textColor);
  const QRectF text(swatch.right() + kGap, r.top(), r.width() - kSwatch - kGap, r.height());
  painter->drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                    QFontMetrics(mParentPlot->font())
                        .elidedText(m_text, Qt::ElideRight, static_cast<int>(text.width())));
}

bool hasKind(const std::vector<ColumnInfo>& infos, KeyKind kind) {
  return std::any_of(infos.begin(), infos.end(),
                     [kind](const ColumnInfo& c) { return c.kind == kind; });
}

QString nanKeyText(const StageData& data) {
  const bool nan =
      std::any_of(data.maps.begin(), data.maps.end(), [](const MapData& m) { return m.hasNan; });
  return nan ? HeatmapGrid::tr("NaN (a query with every key masked, or NaN/Inf in the tensors)")
             : HeatmapGrid::tr("NaN");
}

LegendKey* buildLegend(QCustomPlot* plot, QCPLayoutGrid* legend, const StageData& data, Stage stage,
                       const LegendColours& colours) {
  const QColor& legendText = colours.text;
  // Two groups, each starting a row: the special cells, then the appended key columns.
  std::vector<std::vector<LegendKey*>> groups(1);
  const bool anyMasked =
      std::any_of(data.maps.begin(), data.maps.end(), [](const MapData& m) { return m.hasMask(); });
  if (anyMasked ||
      (data.maskKnown && (stage == Stage::weights || stage == Stage::scores ||
                          stage == Stage::mask || stage == Stage::weights_before_dropout))) {
    // A reduced view knows the mask from its blocks of zeros only (stages/reduced_result.hpp).
    const bool reduced = data.result != nullptr && data.result->is_reduced();
    groups[0].push_back(
        new LegendKey(plot, colours.masked, LegendKey::Swatch::fill,
                      reduced ? HeatmapGrid::tr("masked: every weight of the block is 0")
                              : HeatmapGrid::tr("masked (-inf in the mask)"),
                      legendText));
  }
  auto* nanKey =
      new LegendKey(plot, colours.nan, LegendKey::Swatch::fill, nanKeyText(data), legendText);
  groups[0].push_back(nanKey);
  const auto& infos =
      data.maps.front().columns.empty() ? data.maps.front().rowsInfo : data.maps.front().columns;
  std::vector<LegendKey*> extra;
  // Value norms: say what the appended columns carry, whatever their weight.
  const bool norms = stage == Stage::value_norms;
  const bool zeroing = stage == Stage::value_zeroing;
  const bool sinks = stage == Stage::sink_scores;
  if (hasKind(infos, KeyKind::zero) && sinks) {
    extra.push_back(new LegendKey(
        plot, extraKeyColor(), LegendKey::Swatch::line,
        HeatmapGrid::tr(
            "zero: its score is the mean weight sent to nothing (softmax₁'s extra term)"),
        extraKeyColor()));
  }
  if (hasKind(infos, KeyKind::bias_k)) {
    extra.push_back(
        new LegendKey(plot, extraKeyColor(), LegendKey::Swatch::line,
                      norms ? HeatmapGrid::tr("bias_k: its value is bias_v, so f = bias_v·W_O^h")
                      : zeroing ? HeatmapGrid::tr("bias_k: its value bias_v is what is zeroed")
                                : HeatmapGrid::tr("bias_k: key appended by add_bias_kv"),
                      extraKeyColor()));
  }
  if (hasKind(infos, KeyKind::zero) && !sinks) {
    extra.push_back(new LegendKey(
        plot, extraKeyColor(), LegendKey::Swatch::line,
        norms ? HeatmapGrid::tr(
                    "zero: its value is 0, so it adds nothing (norm 0) however large its weight")
        : zeroing
            ? HeatmapGrid::tr(
                  "zero: its value is already 0, so zeroing it changes nothing (0 by construction)")
            : HeatmapGrid::tr("zero: all-zero key appended by add_zero_attn"),
        extraKeyColor()));
  }
  if (!extra.empty()) groups.push_back(extra);
  // Each row is a grid of its own (rows do not share column widths), and a key that does not
  // fit beside the ones before it starts a new row: nothing is clipped on a narrow screen.
  constexpr int kSpacing = 10;
  const int width = std::max(200, plot->viewport().width() - 16);
  int rows = 0;
  for (const std::vector<LegendKey*>& group : groups) {
    QCPLayoutGrid* row = nullptr;
    int used = 0;
    int column = 0;
    const auto endRow = [&] {
      row->addElement(0, column, new QCPLayoutElement(plot));  // takes the rest of the width
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
  return nanKey;
}

}  // namespace mhaviz::ui
