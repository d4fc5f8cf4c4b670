#include "render/grid_layout.hpp"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QLabel>
#include <algorithm>

#include "render/heatmap_grid_state.hpp"

namespace mhaviz::ui {
namespace {

// Pixels reserved around each map for its title, tick labels and margins when choosing the
// number of grid columns.
constexpr int kMapChromeW = 70;
constexpr int kMapChromeH = 60;
// Pixels the legend and the margins around the grid take.
constexpr int kLegendH = 56;

}  // namespace

QFont GridLayout::captionFont(bool heading) const {
  QFont font = m_plot->font();
  font.setPointSizeF(font.pointSizeF() * (heading ? 1.3 : 1.1));
  font.setBold(heading);
  return font;
}

QStringList GridLayout::captionParts(int width, bool heading) const {
  // The first line is the heading (bold); the rest the body, both wrapped to the plot's width.
  const qsizetype nl = m_caption.indexOf(QLatin1Char('\n'));
  const QString text = heading ? m_caption.left(nl < 0 ? m_caption.size() : nl)
                               : (nl < 0 ? QString() : m_caption.mid(nl + 1));
  if (text.isEmpty()) return {};
  return wrapLines(text, captionFont(heading), std::max(100, width - kCaptionPad));
}

int GridLayout::captionHeight(int width) const {
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

int GridLayout::neededHeight(const StageData& data, const ViewOptions& view, int columns,
                             QSize visible) const {
  const int n = static_cast<int>(data.maps.size());
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
  for (const ColumnInfo& c : data.maps.front().columns) {
    const int width = text.horizontalAdvance(c.label) + 8;
    if (c.kind != mhaviz::KeyKind::source) {
      extra = std::max(extra, width);
    } else if (!view.keyLabels.isEmpty()) {
      tokens = std::max(tokens, width - text.height());
    }
  }
  const int turned = std::min(tokens, text.height() * 6) + extra;
  const int chrome = QFontMetrics(title).height() + text.height() * 3 + 16 + axisTitle + turned;
  return captionHeight(visible.width()) + kLegendH +
         gridRows * (std::max(kMapChromeH, chrome) + kReadableRectPx) + (gridRows - 1) * 8;
}

QSize GridLayout::plotSize(const StageData& data, const ViewOptions& view, int columns,
                           QSize visible, int scrollBar) const {
  if (!m_scrollWhenSmall) return visible;
  const int needed = neededHeight(data, view, columns, visible);
  if (needed <= visible.height()) return visible;
  return QSize(std::max(1, visible.width() - scrollBar), needed);
}

double GridLayout::cellPixels(const StageData& data, int n, int columns, QSize size) const {
  if (data.maps.empty() || n <= 0 || columns <= 0) return 0;
  const double availW = std::max(100, size.width() - 110);  // colour scale
  const double availH = std::max(100, size.height() - 40 - captionHeight(size.width()));
  const double rows = std::max(1, data.maps.front().rows);
  const double cols = std::max(1, data.maps.front().cols);
  const int gridRows = (n + columns - 1) / columns;
  // Axis titles (query / key) take a line beside and below every map.
  const int axisTitle = m_axisTitles ? QFontMetrics(m_plot->font()).height() + 4 : 0;
  const double cellW = availW / columns - kMapChromeW - axisTitle;
  const double cellH = availH / gridRows - kMapChromeH - axisTitle;
  return std::min(cellW / cols, cellH / rows);
}

int GridLayout::chooseColumns(const StageData& data, QSize visible) const {
  const int n = static_cast<int>(data.maps.size());
  if (data.groupColumns > 0) return std::min(n, data.groupColumns);  // one group a column
  if (n <= 1 || data.maps.empty()) return 1;
  int best = 1;
  double bestScale = -1;
  for (int c = 1; c <= n; ++c) {
    const double scale = cellPixels(data, n, c, visible);
    if (scale > bestScale + 1e-9) {
      bestScale = scale;
      best = c;
    }
  }
  return best;
}

void GridLayout::placeBadge(QLabel* badge, int width) {
  badge->setMaximumWidth(std::max(200, width - 16));
  badge->adjustSize();
  badge->move(8, 8);
  badge->raise();
}

}  // namespace mhaviz::ui
