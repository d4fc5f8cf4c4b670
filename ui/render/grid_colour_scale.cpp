// The grid's colours and colour ranges (render/grid_colour_scale.hpp).
#include "render/grid_colour_scale.hpp"

#include <algorithm>
#include <cmath>

#include "render/colormaps.hpp"
#include "render/grid_legend.hpp"
#include "render/heatmap_grid.hpp"  // HeatmapGrid::tr: the scale keeps the grid's translations
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

GridColourScale::GridColourScale(GridState& state, const GridContent& content)
    : m_state(state), m_content(content) {}

void GridColourScale::chooseColormap() {
  m_colormap = effectiveColormap(m_content.view.colormap, m_content.data().isSigned);
  m_gradient = makeGradient(m_colormap);
}

QColor GridColourScale::maskedCellColor() const {
  return m_maskedColor.value_or(maskedColor(m_colormap));
}

QColor GridColourScale::nanCellColor() const { return nanColor(m_colormap); }

void GridColourScale::applyRanges() {
  GridState& s = m_state;
  const StageData& data = m_content.data();
  const ViewOptions& view = m_content.view;
  // Colour ranges: one shared range, or one per map. Unsigned stages share 0..1, or with
  // autoRange 0..the largest finite value shown, so that the colormap's whole length is used.
  const bool fixedUnit = !data.isSigned;
  QCPRange shared = fixedUnit ? QCPRange(0, 1) : QCPRange(data.lo, data.hi);
  const bool autoTop = fixedUnit && (view.autoRange || data.rangeFromData);
  if (autoTop) {
    double top = 0;
    for (const MapData& m : data.maps) {
      if (m.hasFinite) top = std::max(top, m.finiteHi);
    }
    if (top > 0) shared = QCPRange(0, top);
  }
  for (std::size_t i = 0; i < s.views.size(); ++i) {
    MapView& v = s.views[i];
    const MapData& m = data.maps[i];
    if (view.perHeadScale) {
      v.valueRange = finiteRange(m, data.isSigned);
      v.title->setText(
          m.shownTitle +
          QStringLiteral("   [%1, %2]").arg(fmt(v.valueRange.lower), fmt(v.valueRange.upper)));
    } else {
      v.valueRange = shared;
    }
    v.colorMap->setDataRange(v.valueRange);
  }
  auto scaleTicker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
  if (view.perHeadScale) {
    s.scale->setDataRange(QCPRange(0, 1));
    if (data.isSigned) {
      scaleTicker->setTicks({{0.0, HeatmapGrid::tr("-max|v|")},
                             {0.5, QStringLiteral("0")},
                             {1.0, HeatmapGrid::tr("+max|v|")}});
    } else {
      scaleTicker->setTicks({{0.0, HeatmapGrid::tr("min")}, {1.0, HeatmapGrid::tr("max")}});
    }
    s.scale->axis()->setTicker(scaleTicker);
    s.scaleTitle = data.shownUnit + HeatmapGrid::tr(" (range of each map)");
  } else {
    s.scale->setDataRange(s.views.front().valueRange);
    s.scale->axis()->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    s.scaleTitle = autoTop ? data.shownUnit + HeatmapGrid::tr(" (automatic range: 0..largest)")
                           : data.shownUnit;
  }
  s.scale->axis()->setLabel(s.scaleTitle);
  fitTitle();  // wrapped to the bar as last laid out (GridGeometry::layoutNow wraps it again)
  if (s.nanKey != nullptr) s.nanKey->setText(nanKeyText(data));
}

bool GridColourScale::fitTitle() {
  GridState& s = m_state;
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

}  // namespace mhaviz::ui
