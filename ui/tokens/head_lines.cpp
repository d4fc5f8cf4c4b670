// The head view's layout and line selection (head_lines.hpp).
#include "tokens/head_lines.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace mhaviz::ui {

namespace {

QString queryLabel(const QStringList& labels, int i) {
  if (i < labels.size() && !labels[i].isEmpty()) return labels[i];
  return QString::number(i);
}

// One row of a map read once: values and mask flags (0 where the map has no mask).
struct RowBuffer {
  std::vector<double> values;
  std::vector<unsigned char> masked;

  void read(const MapData& map, int row) {
    const auto cols = static_cast<std::size_t>(map.cols);
    values.resize(cols);
    masked.assign(cols, 0);
    map.readRow(row, 0, map.cols, values.data(), map.hasMask() ? masked.data() : nullptr);
  }
  [[nodiscard]] bool nan() const {
    return std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); });
  }
  // A line can be drawn for key j: not masked, finite and above 0.
  [[nodiscard]] bool drawable(std::size_t j) const {
    const double w = values[j];
    return masked[j] == 0 && w > 0 && std::isfinite(w);
  }
};

// The lines of one query row of one head after the coverage threshold, in key order: the
// strongest first until their sum reaches coverage x the row's sum. Appends to `out`; returns
// the lines left out.
int selectRow(const RowBuffer& row, int query, int head, int slot, double coverage,
              double alphaScale, std::vector<HeadLine>& kept, HeadLineVector& out) {
  // Every drawable key at full coverage, straight into the list; else the row's candidates.
  const bool all = coverage >= 1.0;
  kept.clear();
  double sum = 0;
  for (std::size_t j = 0; j < row.values.size(); ++j) {
    if (!row.drawable(j)) continue;
    const double w = row.values[j];
    const double alpha = alphaScale > 0 ? std::min(1.0, w / alphaScale) : 0.0;
    const HeadLine line{head, slot, query, static_cast<int>(j), w, alpha};
    if (all) {
      out.push_back(line);
    } else {
      kept.push_back(line);
    }
    sum += w;
  }
  if (all) return 0;
  std::stable_sort(kept.begin(), kept.end(),
                   [](const HeadLine& a, const HeadLine& b) { return a.weight > b.weight; });
  // A share reached up to rounding counts as reached (0.5 + 0.3 of a row summing to 1 is 80 %).
  const double target = coverage * sum * (1 - 1e-9);
  double reached = 0;
  std::size_t count = 0;
  while (count < kept.size() && reached < target) reached += kept[count++].weight;
  const auto first = out.size();
  out.insert(out.end(), kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(count));
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
            [](const HeadLine& a, const HeadLine& b) { return a.key < b.key; });
  return static_cast<int>(kept.size() - count);
}

// Sorts `lines` into drawing order: weakest first (by alpha, ties in their order). A stable
// radix sort on the bits of alpha as a float (which order as alpha does, but for doubles that
// round to one float) that moves the lines themselves, a pass per byte that the lines do not
// all share; then each run of one float sorted by the doubles (a run of equal weights, as
// weights from float tensors are, is already in order). Returns false, the order unfinished,
// when `cancelled` became true (checked between passes).
bool sortWeakestFirst(HeadLineVector& lines, const std::atomic<bool>* cancelled) {
  const auto stop = [&] {
    return cancelled != nullptr && cancelled->load(std::memory_order_relaxed);
  };
  const auto byAlpha = [](const HeadLine& a, const HeadLine& b) { return a.alpha < b.alpha; };
  if (lines.size() < 4096) {
    std::stable_sort(lines.begin(), lines.end(), byAlpha);
    return true;
  }
  const auto key = [](const HeadLine& l) {
    return std::bit_cast<std::uint32_t>(static_cast<float>(std::max(l.alpha, 0.0)));
  };
  // Digits of 8 bits: the 256 places written to at once stay in the caches.
  HeadLineVector other(lines.size());
  std::array<std::size_t, 256> count{};
  for (int shift = 0; shift < 32; shift += 8) {
    if (stop()) return false;
    count.fill(0);
    for (const HeadLine& l : lines) ++count[(key(l) >> shift) & 0xffU];
    if (std::find(count.begin(), count.end(), lines.size()) != count.end()) continue;
    std::size_t sum = 0;
    for (std::size_t& c : count) sum += std::exchange(c, sum);
    for (const HeadLine& l : lines) other[count[(key(l) >> shift) & 0xffU]++] = l;
    lines.swap(other);
  }
  for (auto run = lines.begin(); run != lines.end();) {
    const std::uint32_t k = key(*run);
    const auto end = std::find_if(run, lines.end(), [&](const HeadLine& l) { return key(l) != k; });
    if (!std::is_sorted(run, end, byAlpha)) std::stable_sort(run, end, byAlpha);
    run = end;
  }
  return !stop();
}

bool validHead(const StageData& data, int m) {
  return m >= 0 && m < static_cast<int>(data.maps.size());
}

}  // namespace

double largestValue(const StageData& data, const std::vector<int>& heads) {
  double hi = 0;
  RowBuffer row;
  for (int m : heads) {
    if (!validHead(data, m)) continue;
    const MapData& map = data.maps[static_cast<std::size_t>(m)];
    for (int i = 0; i < map.rows; ++i) {
      row.read(map, i);
      for (const double v : row.values) {
        if (std::isfinite(v)) hi = std::max(hi, v);
      }
    }
  }
  return hi;
}

HeadLines headLinesGeometry(const StageData& data, const QStringList& queryLabels,
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
  // A picture as tall as the row allows (a pixel of room above and below), at most the room
  // reserved, next to the lines: the queries' at the right of their cells, the keys' at the left.
  const double side = std::min(options.pictureWidth, h - 2);
  const auto picture = [&](const QRectF& box, bool atRight) {
    if (options.pictureWidth <= 0 || side < 4) return QRectF();
    const double x = atRight ? box.right() - 4 - side : box.left() + 4;
    return QRectF(x, box.center().y() - side / 2, side, side);
  };
  for (int i = 0; i < rows; ++i) {
    TokenSlot slot;
    slot.label = queryLabel(queryLabels, i);
    slot.box = QRectF(queryLabelX, options.top + i * h, options.labelWidth, h);
    slot.anchor = QPointF(queryLabelX + options.labelWidth + 4, slot.box.center().y());
    slot.picture = picture(slot.box, true);
    out.queries.push_back(slot);
  }
  for (int j = 0; j < cols; ++j) {
    TokenSlot& slot = out.keys[static_cast<std::size_t>(j)];
    const double gap = out.firstExtraKey >= 0 && j >= out.firstExtraKey ? gapRows * h : 0.0;
    slot.box = QRectF(keyLabelX, options.top + j * h + gap, options.labelWidth, h);
    slot.anchor = QPointF(keyLabelX - 4, slot.box.center().y());
    slot.picture = picture(slot.box, false);
  }
  if (out.firstExtraKey >= 0) {
    out.separatorY = options.top + out.firstExtraKey * h + gapRows * h / 2;
  }
  return out;
}

LineSelection selectHeadLines(const StageData& data, const HeadLinesOptions& options,
                              const std::atomic<bool>* cancelled) {
  LineSelection out;
  if (data.maps.empty()) {
    out.complete = true;
    return out;
  }
  const int rows = data.maps.front().rows;
  out.rowStart.assign(static_cast<std::size_t>(rows) + 1, 0);
  out.nanQueries.assign(static_cast<std::size_t>(rows), 0);
  out.hiddenPerQuery.assign(static_cast<std::size_t>(rows), 0);
  const double alphaScale = options.unitWeights ? 1.0 : largestValue(data, options.heads);
  const double coverage = std::clamp(options.coverage, 0.0, 1.0);
  // By query, then head, then key; room for every pair, so that millions of lines are not
  // copied as the list grows.
  HeadLineVector lines;
  std::size_t pairs = 0;
  for (int m : options.heads) {
    if (!validHead(data, m)) continue;
    const MapData& map = data.maps[static_cast<std::size_t>(m)];
    pairs += static_cast<std::size_t>(std::min(map.rows, rows)) *
             static_cast<std::size_t>(std::max(map.cols, 0));
  }
  lines.reserve(pairs);
  RowBuffer row;
  std::vector<HeadLine> kept;
  for (int i = 0; i < rows; ++i) {
    if (cancelled != nullptr && cancelled->load(std::memory_order_relaxed)) return out;
    const auto qi = static_cast<std::size_t>(i);
    int slot = 0;
    for (int m : options.heads) {
      if (!validHead(data, m)) continue;
      const MapData& map = data.maps[static_cast<std::size_t>(m)];
      if (i < map.rows) {
        row.read(map, i);
        if (row.nan()) {
          out.nanQueries[qi] = 1;  // marked; this head draws nothing for it
        } else {
          out.hiddenPerQuery[qi] += selectRow(row, i, m, slot, coverage, alphaScale, kept, lines);
        }
      }
      ++slot;
    }
    out.hiddenLines += out.hiddenPerQuery[qi];
    out.rowStart[qi + 1] = lines.size();
  }
  // The drawing order, and each query's lines in it (a stable pass by query over that order).
  if (lines.size() > kManyLines) {
    // The haze of faint lines as read, the others sorted after it.
    HeadLineVector strong;
    std::size_t faint = 0;
    for (const HeadLine& l : lines) {
      if (l.alpha < kFaintLine) {
        lines[faint++] = l;
      } else {
        strong.push_back(l);
      }
    }
    lines.resize(faint);
    if (!sortWeakestFirst(strong, cancelled)) return out;
    lines.insert(lines.end(), strong.begin(), strong.end());
  } else if (!sortWeakestFirst(lines, cancelled)) {
    return out;
  }
  std::vector<std::size_t> next(out.rowStart.begin(), out.rowStart.end() - 1);
  out.byQuery.resize(lines.size());
  for (std::size_t k = 0; k < lines.size(); ++k)
    out.byQuery[next[static_cast<std::size_t>(lines[k].query)]++] = static_cast<std::uint32_t>(k);
  out.lines = HeadLineList(std::move(lines));
  out.complete = true;
  return out;
}

void pickHeadLines(HeadLines& layout, const LineSelection& selection, const StageData& data,
                   const HeadLinesOptions& options) {
  const int rows = static_cast<int>(layout.queries.size());
  const int cols = static_cast<int>(layout.keys.size());
  for (std::size_t i = 0; i < layout.queries.size() && i < selection.nanQueries.size(); ++i) {
    layout.queries[i].nan = selection.nanQueries[i] != 0;
  }
  const bool queryHover =
      options.hoverQuery >= 0 && options.hoverQuery < rows &&
      static_cast<std::size_t>(options.hoverQuery) + 1 < selection.rowStart.size();
  const bool keyHover = !queryHover && options.hoverKey >= 0 && options.hoverKey < cols;
  layout.notesAtKeys = !keyHover;
  layout.hoveredQuery = queryHover ? options.hoverQuery : -1;
  layout.hoveredKey = keyHover ? options.hoverKey : -1;
  layout.notes.clear();
  if (!queryHover && !keyHover) {
    layout.lines = selection.lines;  // shared, already in drawing order
    layout.hiddenLines = selection.hiddenLines;
    return;
  }
  // The hovered token's lines, weakest first (ties in the selection's order, which leaves the
  // haze of many lines by query); its notes by head and key (a query's) or by query and head (a
  // key's).
  HeadLineVector picked;
  if (queryHover) {
    const auto q = static_cast<std::size_t>(options.hoverQuery);
    for (std::size_t k = selection.rowStart[q]; k < selection.rowStart[q + 1]; ++k)
      picked.push_back(selection.lines[selection.byQuery[k]]);
    for (const HeadLine& l : picked) layout.notes.push_back({l.head, l.slot, l.key, l.weight});
    layout.hiddenLines = selection.hiddenPerQuery[q];
  } else {
    const int key = options.hoverKey;
    for (const HeadLine& l : selection.lines) {
      if (l.key != key) continue;
      picked.push_back(l);
      layout.notes.push_back({l.head, l.slot, l.query, l.weight});
    }
    // Only the hovered key's lines count as hidden here: the pairs into it that could be drawn.
    int drawable = 0;
    RowBuffer row;
    for (int m : options.heads) {
      if (!validHead(data, m)) continue;
      const MapData& map = data.maps[static_cast<std::size_t>(m)];
      for (int i = 0; i < map.rows && key < map.cols; ++i) {
        row.read(map, i);
        if (!row.nan() && row.drawable(static_cast<std::size_t>(key))) ++drawable;
      }
    }
    layout.hiddenLines = drawable - static_cast<int>(picked.size());
  }
  std::stable_sort(picked.begin(), picked.end(),
                   [](const HeadLine& a, const HeadLine& b) { return a.alpha < b.alpha; });
  std::sort(layout.notes.begin(), layout.notes.end(),
            [&](const WeightNote& a, const WeightNote& b) {
              return queryHover ? std::pair(a.slot, a.row) < std::pair(b.slot, b.row)
                                : std::pair(a.row, a.slot) < std::pair(b.row, b.slot);
            });
  layout.lines = HeadLineList(std::move(picked));
}

HeadLines layoutHeadLines(const StageData& data, const QStringList& queryLabels,
                          const HeadLinesOptions& options) {
  HeadLines out = headLinesGeometry(data, queryLabels, options);
  if (data.maps.empty()) return out;
  pickHeadLines(out, selectHeadLines(data, options), data, options);
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
