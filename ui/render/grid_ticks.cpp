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

// Column tick labels of one map that fit its visible range: every colStep-th source column,
// and all extra columns (bias_k, zero) on the map's second x axis.
void updateColumnTicks(MapView& v, const MapData& m, const ViewOptions& view) {
  QCPAxis* x = v.rect->axis(QCPAxis::atBottom);
  const QFontMetrics metrics(x->tickLabelFont());
  int c0 = 0, c1 = 0;
  visibleCells(x->range(), m.cols, &c0, &c1);
  const double pxPerCol = std::max(1, v.rect->width()) / std::max(1e-9, x->range().size());
  const bool tokens = !view.keyLabels.isEmpty() && !m.columns.empty();
  const int widest = widestColumnLabel(m, tokens, c0, c1, x->tickLabelFont(), metrics);
  int colStep = niceStep((widest + 8) / pxPerCol);
  bool rotate = false;
  if (tokens && widest + 8 > pxPerCol) {
    rotate = true;  // token labels read better vertically than thinned out
    colStep = niceStep((metrics.height() + 2) / pxPerCol);
  }
  x->setTickLabelRotation(rotate ? 90 : 0);
  QMap<double, QString> colTicks, extraColTicks;
  for (int c = c0; c <= c1; ++c) {
    if (columnKind(m, c) != KeyKind::source) {
      extraColTicks.insert(c, columnLabel(m, c));
    } else if (c % colStep == 0) {
      colTicks.insert(c, columnLabel(m, c));
    }
  }
  setTextTicks(x, colTicks);
  if (v.extraX != nullptr) {
    const bool collide = extraLabelsCollide(extraColTicks, pxPerCol, metrics);
    // Columns narrower than a line: even upright, neighbouring labels would be drawn over each
    // other; one label between them names them all ("bias_k / zero").
    if ((rotate || collide) && extraColTicks.size() > 1 && pxPerCol < metrics.height() + 2) {
      const double middle = (extraColTicks.firstKey() + extraColTicks.lastKey()) / 2;
      const QString all = QStringList(extraColTicks.values()).join(QStringLiteral(" / "));
      extraColTicks.clear();
      extraColTicks.insert(middle, all);
    }
    v.extraX->setTickLabelRotation(rotate || collide ? 90 : 0);
    setTextTicks(v.extraX, extraColTicks);
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
  if (v.extraY != nullptr) setTextTicks(v.extraY, extraRowTicks);
}

}  // namespace

void updateMapTicks(MapView& v, const MapData& m, const ViewOptions& view) {
  updateColumnTicks(v, m, view);
  updateRowTicks(v, m, view);
}

}  // namespace mhaviz::ui
