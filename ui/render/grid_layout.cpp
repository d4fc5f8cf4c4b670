#include "render/grid_layout.hpp"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QLabel>
#include <algorithm>
#include <cmath>

#include "render/grid_ticks.hpp"
#include "render/heatmap_grid_state.hpp"

namespace mhaviz::ui {
namespace {

// A map whose longer side (with square cells) is shorter than this many lines of text is not
// readable: the grid scrolls rather than shrink it further.
constexpr int kReadableLines = 14;
// No side of a map is drawn shorter than this many lines of text: a map much wider than tall
// (W_q's head_dim x E) gets taller cells rather than become a strip.
constexpr int kMinSideLines = 5;
// With every map in view, a cell may be this much wider than tall (or taller than wide) so that
// the maps fill the centre instead of leaving a band of it empty.
constexpr double kMaxCellStretch = 1.5;
// The maps scroll only when that gives each at least this many times the area it has with every
// map in view.
constexpr double kScrollGain = 1.5;

}  // namespace

/// One candidate arrangement and what it is worth.
struct GridLayout::Fit {
  GridArrangement arrangement;
  int gridRows = 1;
  int rowChrome = 0;  // a map row's pixels besides its axis rects: titles, note, margins
  double area = 0;    // pixels of one map's axis rect
  bool readable = false;
};

GridLayout::GridLayout(const QCustomPlot* plot) : m_plot(plot) {
  // Until a picture has been measured: what the fonts suggest.
  const int line = QFontMetrics(m_plot->font()).height();
  m_chrome.rect = QMargins(3 * line, line / 2, line / 2, 3 * line);
  m_chrome.scaleWidth = 5 * line;
  m_chrome.legendHeight = line + 4;
}

int GridLayout::readableSide() const {
  return kReadableLines * QFontMetrics(m_plot->font()).height();
}

QFont GridLayout::titleFont() const {
  QFont font = m_plot->font();
  font.setBold(true);
  return font;
}

QFont GridLayout::noteFont() const {
  QFont font = m_plot->font();
  font.setPointSizeF(font.pointSizeF() * 0.85);
  return font;
}

int GridLayout::titleHeight(const StageData& data, int width) const {
  const QFont font = titleFont();
  // A per-head range is appended to each title once the statistics are known: keep its room.
  const QString range = m_rangeInTitles ? QStringLiteral("   [-0.000, 0.000]") : QString();
  int lines = 1;
  for (const MapData& m : data.maps) {
    const auto n = static_cast<int>(
        fitLines(m.shownTitle + range, font, width - 2 * kMapTextMargin, kMaxTitleLines).size());
    lines = std::max(lines, n);
  }
  return lines * QFontMetrics(font).lineSpacing() + 2 * kMapTextMargin;
}

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

GridLayout::Fit GridLayout::fit(const StageData& data, const ViewOptions& view, int columns,
                                QSize room, bool allInView) const {
  const auto n = static_cast<int>(data.maps.size());
  const MapData& first = data.maps.front();
  const double cellRows = std::max(1, first.rows);
  const double cellCols = std::max(1, first.cols);
  const int line = QFontMetrics(m_plot->font()).height();
  const int aside = m_chrome.rect.left() + m_chrome.rect.right();
  Fit f;
  f.gridRows = (n + columns - 1) / columns;
  GridArrangement& a = f.arrangement;
  a.columns = columns;
  // Across: [filler | maps | colour scale | filler], the maps' columns side by side.
  const int slot = (room.width() - m_chrome.scaleWidth - 3 * kBodySpacing -
                    (columns - 1) * kMapColumnSpacing) /
                   columns;
  const int mapWidth = slot - aside;
  // Down: filler, caption, maps, legend, filler.
  const int captionRows = static_cast<int>(!captionParts(room.width(), true).isEmpty()) +
                          static_cast<int>(!captionParts(room.width(), false).isEmpty());
  const int fixedHeight = captionHeight(room.width()) + m_chrome.legendHeight +
                          (captionRows + 3) * kPlotRowSpacing;
  double squareSide = 0;  // the map's longer side with square cells
  // The titles wrap to their map's width, which depends on the room the titles leave: start from
  // the column's width, then take the map's own.
  int titleWidth = slot;
  for (int pass = 0; pass < 4; ++pass) {  // narrower titles may wrap, leaving less height
    const int titles = titleHeight(data, titleWidth);
    const int turned = turnedLabelsHeight(first, view, m_plot->font(), titleWidth - aside,
                                          m_chrome.rect.left());
    for (const bool notes : {false, true}) {
      a.notes = notes;
      f.rowChrome = titles + (notes ? QFontMetrics(noteFont()).lineSpacing() + 2 * kMapTextMargin : 0) +
                    m_chrome.rect.top() + m_chrome.rect.bottom() - m_chrome.turned + turned;
      const int mapHeight = allInView ? (room.height() - fixedHeight -
                                         (f.gridRows - 1) * kMapRowSpacing) / f.gridRows -
                                            f.rowChrome
                                      : room.height() - f.rowChrome - 2 * kPlotRowSpacing;
      // Square cells as large as the room allows (with the maps scrolling, a whole row in view);
      // with every map in view a cell may stretch (up to kMaxCellStretch) into room that square
      // cells would leave empty.
      const double across = std::max(0.0, mapWidth / cellCols);
      const double down = std::max(0.0, mapHeight / cellRows);
      const double square = std::min(across, down);
      const double stretch = allInView ? kMaxCellStretch : 1.0;
      squareSide = square * std::max(cellRows, cellCols);
      a.rect = QSize(std::max(1, static_cast<int>(std::min(across, stretch * square) * cellCols)),
                     std::max(1, static_cast<int>(std::min(down, stretch * square) * cellRows)));
      // Never a strip: each side at least kMinSideLines lines where the room has them (a
      // scrolling plot has the height).
      const int least = kMinSideLines * line;
      a.rect = a.rect.expandedTo(
          QSize(std::min(least, mapWidth), allInView ? std::min(least, mapHeight) : least));
      // Maps with more cells than pixels are reduced and say so in a note under their title.
      if (notes || (first.rows <= a.rect.height() && first.cols <= a.rect.width())) break;
    }
    if (a.rect.width() + aside >= titleWidth) break;
    titleWidth = a.rect.width() + aside;
  }
  a.slotWidth = std::min(slot, a.rect.width() + aside);
  f.area = static_cast<double>(a.rect.width()) * a.rect.height();
  f.readable = squareSide >= readableSide() &&
               std::min(a.rect.width(), a.rect.height()) >= kMinSideLines * line;
  a.plot = room;
  if (!allInView) {
    const int needed = fixedHeight + f.gridRows * (a.rect.height() + f.rowChrome) +
                       (f.gridRows - 1) * kMapRowSpacing;
    a.plot.setHeight(std::max(room.height(), needed));
  }
  return f;
}

GridArrangement GridLayout::arrange(const StageData& data, const ViewOptions& view, QSize visible,
                                    int scrollBar) const {
  const auto n = static_cast<int>(data.maps.size());
  if (n == 0) return GridArrangement{1, QSize(), visible.width(), visible, false};
  // Groups (W_q | W_k | W_v) take one column each; other maps any number of columns.
  const int lowest = data.groupColumns > 0 ? std::min(n, data.groupColumns) : 1;
  const int highest = data.groupColumns > 0 ? lowest : n;
  // Every map in view: the columns that give the maps the most room.
  Fit all;
  for (int c = lowest; c <= highest; ++c) {
    const Fit f = fit(data, view, c, visible, true);
    if (c == lowest || (f.readable && !all.readable) ||
        (f.readable == all.readable && f.area > all.area * 1.0001)) {
      all = f;
    }
  }
  if (all.readable || !m_scrollWhenSmall || n <= m_inViewUpTo) return all.arrangement;
  // Too many maps to read at once: as many columns as stay readable, each map as wide as its
  // column (square cells, a whole row in view), and the plot scrolls; when no number of columns
  // makes them readable, the fewest (the largest maps).
  const QSize room(std::max(1, visible.width() - scrollBar), visible.height());
  Fit scrolled;
  for (int c = highest; c >= lowest; --c) {
    scrolled = fit(data, view, c, room, false);
    if (scrolled.readable) break;
  }
  // Scrolling is worth it only when it makes the maps much larger (a short centre limits a map's
  // height whatever the columns: then every map stays in view).
  return scrolled.area >= kScrollGain * all.area ? scrolled.arrangement : all.arrangement;
}

bool GridLayout::measure(const GridState& state, const StageData& data, const ViewOptions& view) {
  if (state.views.empty() || state.scale == nullptr || data.maps.empty()) return false;
  GridChrome measured;
  const QCPAxisRect* rect = state.views.front().rect;
  measured.rect = rect->margins();
  measured.turned = turnedLabelsHeight(data.maps.front(), view, m_plot->font(), rect->width(),
                                       measured.rect.left());
  measured.scaleWidth = state.scale->outerRect().width();
  measured.legendHeight = state.legend != nullptr ? state.legend->outerRect().height() : 0;
  if (measured == m_chrome) return false;
  m_chrome = measured;
  return true;
}

void GridLayout::placeBadge(QLabel* badge, int width) {
  badge->setMaximumWidth(std::max(200, width - 16));
  badge->adjustSize();
  badge->move(8, 8);
  badge->raise();
}

}  // namespace mhaviz::ui
