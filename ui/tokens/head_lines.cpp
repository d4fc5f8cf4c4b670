// The head view's layout and line selection (head_lines.hpp).
#include "tokens/head_lines.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>

namespace mhaviz::ui {

namespace {

QString queryLabel(const QStringList& labels, int i) {
  if (i < labels.size() && !labels[i].isEmpty()) return labels[i];
  return QString::number(i);
}

// The lines of one query row of one head after the coverage threshold: the strongest first
// until their sum reaches coverage x the row's sum. Appends to `out`; returns the lines left out.
int selectRow(const MapData& map, int query, int head, int slot, double coverage, double alphaScale,
              std::vector<HeadLine>& out) {
  std::vector<HeadLine> row;
  double sum = 0;
  for (int j = 0; j < map.cols; ++j) {
    if (map.hasMask() && map.maskedAt(query, j)) continue;
    const double w = map.valueAt(query, j);
    if (!(w > 0) || !std::isfinite(w)) continue;
    const double alpha = alphaScale > 0 ? std::min(1.0, w / alphaScale) : 0.0;
    row.push_back({head, slot, query, j, w, alpha});
    sum += w;
  }
  if (coverage >= 1.0) {
    out.insert(out.end(), row.begin(), row.end());
    return 0;
  }
  std::stable_sort(row.begin(), row.end(),
                   [](const HeadLine& a, const HeadLine& b) { return a.weight > b.weight; });
  // A share reached up to rounding counts as reached (0.5 + 0.3 of a row summing to 1 is 80 %).
  const double target = coverage * sum * (1 - 1e-9);
  double reached = 0;
  std::size_t kept = 0;
  while (kept < row.size() && reached < target) reached += row[kept++].weight;
  out.insert(out.end(), row.begin(), row.begin() + static_cast<std::ptrdiff_t>(kept));
  return static_cast<int>(row.size() - kept);
}

bool rowIsNan(const MapData& map, int query) {
  for (int j = 0; j < map.cols; ++j) {
    if (std::isnan(map.valueAt(query, j))) return true;
  }
  return false;
}

}  // namespace

double largestValue(const StageData& data, const std::vector<int>& heads) {
  double hi = 0;
  for (int m : heads) {
    if (m < 0 || m >= static_cast<int>(data.maps.size())) continue;
    const MapData& map = data.maps[static_cast<std::size_t>(m)];
    for (int i = 0; i < map.rows; ++i) {
      for (int j = 0; j < map.cols; ++j) {
        const double v = map.valueAt(i, j);
        if (std::isfinite(v)) hi = std::max(hi, v);
      }
    }
  }
  return hi;
}

HeadLines layoutHeadLines(const StageData& data, const QStringList& queryLabels,
                          const HeadLinesOptions& options) {
  HeadLines out;
  if (data.maps.empty()) return out;
  const MapData& first = data.maps.front();
  const int rows = first.rows;
  const int cols = first.cols;

  // Keys: the source keys, then the appended ones after a gap of half a row.
  for (int j = 0; j < cols; ++j) {
    TokenSlot slot;
    if (static_cast<std::size_t>(j) < first.columns.size()) {
      slot.label = first.columns[static_cast<std::size_t>(j)].label;
      slot.kind = first.columns[static_cast<std::size_t>(j)].kind;
    } else {
      slot.label = QString::number(j);
    }
    if (slot.kind != mhaviz::KeyKind::source && out.firstExtraKey < 0) out.firstExtraKey = j;
    out.keys.push_back(slot);
  }
  const double gapRows = out.firstExtraKey >= 0 ? 0.6 : 0.0;
  const double tallest = std::max(static_cast<double>(rows), cols + gapRows);
  const double available = options.size.height() - options.top - 4;
  out.rowHeight =
      std::clamp(available / std::max(tallest, 1.0), options.minRowHeight, options.maxRowHeight);
  out.height = std::max(options.size.height(), options.top + tallest * out.rowHeight + 4);

  const double width = options.size.width();
  const double queryLabelX = options.noteWidth;
  const double keyLabelX = width - options.noteWidth - options.labelWidth;
  out.queryNoteX = 0;
  out.keyNoteX = width - options.noteWidth;
  out.noteWidth = options.noteWidth;
  out.headCount = static_cast<int>(options.heads.size());
  const double h = out.rowHeight;
  for (int i = 0; i < rows; ++i) {
    TokenSlot slot;
    slot.label = queryLabel(queryLabels, i);
    slot.box = QRectF(queryLabelX, options.top + i * h, options.labelWidth, h);
    slot.anchor = QPointF(queryLabelX + options.labelWidth + 4, slot.box.center().y());
    out.queries.push_back(slot);
  }
  for (int j = 0; j < cols; ++j) {
    TokenSlot& slot = out.keys[static_cast<std::size_t>(j)];
    const double gap = out.firstExtraKey >= 0 && j >= out.firstExtraKey ? gapRows * h : 0.0;
    slot.box = QRectF(keyLabelX, options.top + j * h + gap, options.labelWidth, h);
    slot.anchor = QPointF(keyLabelX - 4, slot.box.center().y());
  }
  if (out.firstExtraKey >= 0) {
    out.separatorY = options.top + out.firstExtraKey * h + gapRows * h / 2;
  }

  // NaN rows: marked in the query column (any head drawn whose row is NaN).
  for (int m : options.heads) {
    if (m < 0 || m >= static_cast<int>(data.maps.size())) continue;
    const MapData& map = data.maps[static_cast<std::size_t>(m)];
    for (int i = 0; i < rows && i < map.rows; ++i) {
      if (!out.queries[static_cast<std::size_t>(i)].nan && rowIsNan(map, i)) {
        out.queries[static_cast<std::size_t>(i)].nan = true;
      }
    }
  }

  const double alphaScale = options.unitWeights ? 1.0 : largestValue(data, options.heads);
  const double coverage = std::clamp(options.coverage, 0.0, 1.0);
  const bool queryHover = options.hoverQuery >= 0 && options.hoverQuery < rows;
  const bool keyHover = !queryHover && options.hoverKey >= 0 && options.hoverKey < cols;
  out.notesAtKeys = !keyHover;
  out.hoveredQuery = queryHover ? options.hoverQuery : -1;
  out.hoveredKey = keyHover ? options.hoverKey : -1;
  int slotIndex = 0;
  for (int m : options.heads) {
    if (m < 0 || m >= static_cast<int>(data.maps.size())) continue;
    const MapData& map = data.maps[static_cast<std::size_t>(m)];
    const int head = m;
    for (int i = 0; i < rows && i < map.rows; ++i) {
      if (queryHover && i != options.hoverQuery) continue;
      if (out.queries[static_cast<std::size_t>(i)].nan) continue;
      std::vector<HeadLine> kept;
      const int hidden = selectRow(map, i, head, slotIndex, coverage, alphaScale, kept);
      if (keyHover) {
        std::erase_if(kept, [&](const HeadLine& l) { return l.key != options.hoverKey; });
        // Only the hovered key's line counts as hidden here.
        bool drawnBefore = false;
        std::vector<HeadLine> all;
        selectRow(map, i, head, slotIndex, 1.0, alphaScale, all);
        for (const HeadLine& l : all) drawnBefore |= l.key == options.hoverKey;
        if (drawnBefore && kept.empty()) ++out.hiddenLines;
      } else {
        out.hiddenLines += hidden;
      }
      for (const HeadLine& l : kept) {
        if (queryHover) out.notes.push_back({head, slotIndex, l.key, l.weight});
        if (keyHover) out.notes.push_back({head, slotIndex, l.query, l.weight});
      }
      out.lines.insert(out.lines.end(), kept.begin(), kept.end());
    }
    ++slotIndex;
  }
  std::stable_sort(out.lines.begin(), out.lines.end(),
                   [](const HeadLine& a, const HeadLine& b) { return a.alpha < b.alpha; });
  return out;
}

TokenHit hitToken(const HeadLines& lines, QPointF point) {
  // The label and its notes column both count, and the half of the gap between the columns
  // nearest to each.
  const auto find = [&](const std::vector<TokenSlot>& tokens, bool queries) -> int {
    for (std::size_t k = 0; k < tokens.size(); ++k) {
      QRectF area = tokens[k].box;
      if (queries) {
        area.setLeft(0);
      } else {
        area.setRight(lines.keyNoteX + 1e9);
      }
      if (area.contains(point)) return static_cast<int>(k);
    }
    return -1;
  };
  if (const int q = find(lines.queries, true); q >= 0) return {TokenHit::Side::query, q};
  if (const int k = find(lines.keys, false); k >= 0) return {TokenHit::Side::key, k};
  return {};
}

}  // namespace mhaviz::ui
