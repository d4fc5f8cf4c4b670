#include "render/grid_ticks.hpp"

#include <qcustomplot.h>

#include <QFont>
#include <QFontMetrics>
#include <QStringList>
#include <QHash>
#include <algorithm>
#include <cmath>
#include <iterator>

#include "render/heatmap_grid_state.hpp"
#include "stages/param_stage.hpp"

namespace mhaviz::ui {

// Cell index range [first, last] of `count` cells visible in an axis range (cell i spans
// [i - 0.5, i + 0.5]).
void visibleCells(const QCPRange& range, int count, int* first, int* last) {
  *first = std::clamp(static_cast<int>(std::floor(range.lower + 0.5)), 0, std::max(0, count - 1));
  *last = std::clamp(static_cast<int>(std::ceil(range.upper + 0.5)) - 1, *first,
                     std::max(0, count - 1));
}

namespace {

// Smallest "nice" step (1, 2, 5, 10, 20, 50, ...) that is at least `minStep`.
int niceStep(double minStep) {
  if (minStep <= 1) return 1;
  for (int base = 1;; base *= 10) {
    for (int m : {1, 2, 5}) {
      if (m * base >= minStep) return m * base;
    }
    if (base > 100000000) return base;
  }
}

QString columnLabel(const MapData& m, int c) {
  return static_cast<std::size_t>(c) < m.columns.size()
             ? m.columns[static_cast<std::size_t>(c)].label
             : QString::number(c);
}

KeyKind columnKind(const MapData& m, int c) {
  return static_cast<std::size_t>(c) < m.columns.size()
             ? m.columns[static_cast<std::size_t>(c)].kind
             : KeyKind::source;
}

QString rowLabel(const MapData& m, const ViewOptions& view, int r) {
  if (m.rowMeaning == RowMeaning::head) return QStringLiteral("h%1").arg(r);
  if (m.rowMeaning == RowMeaning::all) return {};
  if (!m.rowsInfo.empty()) return m.rowsInfo[static_cast<std::size_t>(r)].label;
  // Rows of a weight matrix are output features, not queries: no token labels there.
  if (!isParamStage(view.stage) && r < view.queryLabels.size() && !view.queryLabels[r].isEmpty())
    return view.queryLabels[r];
  return QString::number(m.rowBase + r);
}

KeyKind rowKind(const MapData& m, int r) {
  return m.rowsInfo.empty() ? KeyKind::source : m.rowsInfo[static_cast<std::size_t>(r)].kind;
}

// The widths of labels in `font` measured so far: the maps of a grid share their labels and
// each layout measures them again (the reduced view's 512 block labels, shaped for each of its
// nine maps twice per picture, cost the GUI thread several milliseconds).
QHash<QString, int>& measuredWidths(const QFont& font) {
  thread_local QString measured;  // the font's key
  thread_local QHash<QString, int> widths;
  const QString key = font.key();
  if (key != measured || widths.size() > 65536) {
    measured = key;
    widths.clear();
  }
  return widths;
}

// Widest column label among the visible columns [c0, c1].
int widestColumnLabel(const MapData& m, bool tokens, int c0, int c1, const QFont& font,
                      const QFontMetrics& metrics) {
  if (!tokens) {
    // Index labels: the last visible one has the most digits (measuring 2048 labels per map
    // cost the GUI thread milliseconds per map).
    return metrics.horizontalAdvance(QString::number(c1));
  }
  QHash<QString, int>& widths = measuredWidths(font);
  int widest = 0;
  for (int c = c0; c <= c1 && c - c0 < 4096; ++c) {
    if (columnKind(m, c) != KeyKind::source) continue;
    const QString label = columnLabel(m, c);
    const auto found = widths.constFind(label);
    const int width = found != widths.cend()
                          ? *found
                          : *widths.insert(label, metrics.horizontalAdvance(label));
    widest = std::max(widest, width);
  }
  return widest;
}

// "bias_k" next to "zero" needs room: true when neighbouring labels would collide.
bool extraLabelsCollide(const QMap<double, QString>& ticks, double pxPerCol,
                        const QFontMetrics& metrics) {
  for (auto it = ticks.cbegin(); it != ticks.cend(); ++it) {
    const auto next = std::next(it);
    if (next == ticks.cend()) break;
    const double need =
        (metrics.horizontalAdvance(it.value()) + metrics.horizontalAdvance(next.value())) / 2.0 + 6;
    if (need > (next.key() - it.key()) * pxPerCol) return true;
  }
  return false;
}

void setTextTicks(QCPAxis* axis, const QMap<double, QString>& ticks) {
  axis->ticker().staticCast<QCPAxisTickerText>()->setTicks(ticks);
}

// How the column labels of one map are drawn in the columns [c0, c1] of a map `width` pixels
// wide (`left` pixels of margin beside it) at `pxPerCol` pixels per column, its range ending at
// `upper`.
struct ColumnLabels {
  int step = 1;        // every step-th source column is labelled
  bool turned = false; // token labels on their side
  int widest = 0;      // the widest of them
  QMap<double, QString> extra;  // the bias_k / zero labels (or one naming them all)
  bool extraTurned = false;
};

ColumnLabels planColumnLabels(const MapData& m, bool tokens, const QFont& font, int c0, int c1,
                              double pxPerCol, double upper, int width, int left) {
  const QFontMetrics metrics(font);
  ColumnLabels p;
  p.widest = widestColumnLabel(m, tokens, c0, c1, font, metrics);
  p.step = niceStep((p.widest + 8) / pxPerCol);
  if (tokens && p.widest + 8 > pxPerCol) {
    p.turned = true;  // token labels read better vertically than thinned out
    p.step = niceStep((metrics.height() + 2) / pxPerCol);
  }
  for (int c = c0; c <= c1; ++c) {
    if (columnKind(m, c) != KeyKind::source) p.extra.insert(c, columnLabel(m, c));
  }
  const bool collide = extraLabelsCollide(p.extra, pxPerCol, metrics);
  p.extraTurned = p.turned || collide;
  // Columns narrower than a line: even upright, neighbouring labels would be drawn over each
  // other; one label names them all ("bias_k / zero"), upright with its right end at the
  // map's right edge where the map and the room left of it (its row holds no other label)
  // are that wide, else on its side between them.
  if (p.extraTurned && p.extra.size() > 1 && pxPerCol < metrics.height() + 2) {
    const QString all = QStringList(p.extra.values()).join(QStringLiteral(" / "));
    const int need = metrics.horizontalAdvance(all) + 4;
    p.extraTurned = need > width + left;
    const double at = p.extraTurned ? (p.extra.firstKey() + p.extra.lastKey()) / 2
                                    : upper - need / 2.0 / pxPerCol;
    p.extra.clear();
    p.extra.insert(at, all);
  }
  return p;
}

bool tokenColumns(const MapData& m, const ViewOptions& view) {
  return !view.keyLabels.isEmpty() && !m.columns.empty();
}

// Column tick labels of one map that fit its visible range: every step-th source column, and
// all extra columns (bias_k, zero) on the map's second x axis.
void updateColumnTicks(MapView& v, const MapData& m, const ViewOptions& view) {
  QCPAxis* x = v.rect->axis(QCPAxis::atBottom);
  int c0 = 0, c1 = 0;
  visibleCells(x->range(), m.cols, &c0, &c1);
  const double pxPerCol = std::max(1, v.rect->width()) / std::max(1e-9, x->range().size());
  const ColumnLabels p =
      planColumnLabels(m, tokenColumns(m, view), x->tickLabelFont(), c0, c1, pxPerCol,
                       x->range().upper, v.rect->width(), v.rect->margins().left());
  x->setTickLabelRotation(p.turned ? 90 : 0);
  QMap<double, QString> colTicks;
  for (int c = c0; c <= c1; ++c) {
    if (columnKind(m, c) == KeyKind::source && c % p.step == 0) {
      colTicks.insert(c, columnLabel(m, c));
    }
  }
  setTextTicks(x, colTicks);
  if (v.extraX != nullptr) {
    v.extraX->setTickLabelRotation(p.extraTurned ? 90 : 0);
    setTextTicks(v.extraX, p.extra);
  }
}

// Row tick labels of one map that fit its visible range (display y = rows-1-row).
void updateRowTicks(MapView& v, const MapData& m, const ViewOptions& view) {
  QCPAxis* y = v.rect->axis(QCPAxis::atLeft);
  const QFontMetrics metrics(v.rect->axis(QCPAxis::atBottom)->tickLabelFont());
  int y0 = 0, y1 = 0;
  visibleCells(y->range(), m.rows, &y0, &y1);
  const double pxPerRow = std::max(1, v.rect->height()) / std::max(1e-9, y->range().size());
  const int rowStep = niceStep((metrics.height() + 2) / pxPerRow);
  QMap<double, QString> rowTicks, extraRowTicks;
  for (int yd = y0; yd <= y1; ++yd) {
    const int r = m.rows - 1 - yd;
    if (rowKind(m, r) != KeyKind::source) {
      extraRowTicks.insert(yd, rowLabel(m, view, r));
    } else if (r % rowStep == 0) {
      rowTicks.insert(yd, rowLabel(m, view, r));
    }
  }
  setTextTicks(y, rowTicks);
  if (v.extraY != nullptr) {
    // Rows shorter than a line: "bias_k" and "zero" would be drawn over each other. Thinned as
    // the token rows are, in row order: a label a line below the last one kept (the legend and
    // the key columns name both; one label naming both would widen every map's margin).
    QMap<double, QString> shown;
    double last = 0;
    const QList<double> at = extraRowTicks.keys();  // display order: the last row first
    for (auto k = at.size() - 1; k >= 0; --k) {
      if (shown.isEmpty() || (last - at[k]) * pxPerRow >= metrics.height() + 2) {
        shown.insert(at[k], extraRowTicks.value(at[k]));
        last = at[k];
      }
    }
    setTextTicks(v.extraY, shown);
  }
}

}  // namespace

int turnedLabelsHeight(const MapData& m, const ViewOptions& view, const QFont& font, int width,
                       int left) {
  const double pxPerCol = std::max(1, width) / static_cast<double>(std::max(1, m.cols));
  const ColumnLabels p = planColumnLabels(m, tokenColumns(m, view), font, 0, m.cols - 1, pxPerCol,
                                          m.cols - 0.5, width, left);
  const QFontMetrics metrics(font);
  int longestExtra = 0;
  for (const QString& label : p.extra) {
    longestExtra = std::max(longestExtra, metrics.horizontalAdvance(label));
  }
  return (p.turned ? std::max(0, p.widest - metrics.height()) : 0) +
         (p.extraTurned ? std::max(0, longestExtra - metrics.height()) : 0);
}

void updateMapTicks(MapView& v, const MapData& m, const ViewOptions& view) {
  updateColumnTicks(v, m, view);
  updateRowTicks(v, m, view);
}

}  // namespace mhaviz::ui
