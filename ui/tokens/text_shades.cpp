// The text view's layout (text_shades.hpp).
#include "tokens/text_shades.hpp"

#include <QFontMetricsF>
#include <algorithm>
#include <cmath>
#include <cstddef>

namespace mhaviz::ui {

namespace {

constexpr double kPadX = 5;       // inside a chip, left and right of its text
constexpr double kPadY = 3;       // above and below
constexpr double kGapX = 3;       // between chips
constexpr double kGapY = 5;       // between lines
constexpr double kExtraGap = 16;  // before the first bias_k / zero chip
constexpr double kHeadingGap = 10;
constexpr double kPictureInset = 3;   // between a picture and its chip's left and its text
constexpr double kPictureMargin = 2;  // above and below a picture in its chip

QString positionLabel(const QStringList& labels, int i) {
  if (i < labels.size() && !labels[i].isEmpty()) return labels[i];
  return QString::number(i);
}

// True when `pictures` puts a picture in the chip of token `token`.
bool pictured(const std::vector<bool>& pictures, int token) {
  return token >= 0 && static_cast<std::size_t>(token) < pictures.size() &&
         pictures[static_cast<std::size_t>(token)];
}

// Sets the boxes of `tokens` (token k is the k-th query or key) left to right from y, wrapping
// at `width` (a chip wider than the width stands alone on its line); `firstExtra` starts after
// a wider gap. A source token that `pictures` gives a picture has one as tall as the chip allows
// before its text. Returns the y below the last line.
double flow(std::vector<TextToken>& tokens, int firstExtra, const std::vector<bool>& pictures,
            const QFontMetricsF& metrics, double width, double y) {
  const double height = metrics.height() + 2 * kPadY;
  const double side = height - 2 * kPictureMargin;
  double x = 0;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const bool picture =
        tokens[k].kind == mhaviz::KeyKind::source && pictured(pictures, static_cast<int>(k));
    const double w = metrics.horizontalAdvance(tokens[k].text) + 2 * kPadX +
                     (picture ? kPictureInset + side : 0.0);
    double gap = k == 0 ? 0.0 : kGapX;
    if (static_cast<int>(k) == firstExtra && k > 0) gap = kExtraGap;
    if (x > 0 && x + gap + w > width) {
      x = 0;
      y += height + kGapY;
      gap = 0;
    }
    tokens[k].box = QRectF(x + gap, y, w, height);
    tokens[k].picture =
        picture ? QRectF(x + gap + kPictureInset, y + kPictureMargin, side, side) : QRectF();
    x += gap + w;
  }
  return tokens.empty() ? y : y + height;
}

}  // namespace

bool oneTextFor(const StageData& data, const QStringList& queryLabels) {
  if (data.maps.empty()) return true;
  const MapData& map = data.maps.front();
  int sources = 0;
  for (const ColumnInfo& c : map.columns) sources += c.kind == mhaviz::KeyKind::source ? 1 : 0;
  if (map.columns.empty()) sources = map.cols;
  if (sources != map.rows) return false;
  for (int i = 0; i < map.rows && static_cast<std::size_t>(i) < map.columns.size(); ++i) {
    if (map.columns[static_cast<std::size_t>(i)].label != positionLabel(queryLabels, i)) {
      return false;
    }
  }
  return true;
}

TextShades layoutTextShades(const StageData& data, const QStringList& queryLabels,
                            const TextShadeOptions& options) {
  TextShades out;
  if (data.maps.empty() || options.map < 0 || options.map >= static_cast<int>(data.maps.size())) {
    return out;
  }
  const MapData& map = data.maps[static_cast<std::size_t>(options.map)];
  const QFontMetricsF metrics(options.font);

  // The row of the query shown: values, mask flags, its largest value.
  std::vector<double> row(static_cast<std::size_t>(map.cols),
                          std::numeric_limits<double>::quiet_NaN());
  std::vector<unsigned char> masked(static_cast<std::size_t>(map.cols), 0);
  const bool shown = options.query >= 0 && options.query < map.rows;
  if (shown) {
    out.query = options.query;
    map.readRow(options.query, 0, map.cols, row.data(), map.hasMask() ? masked.data() : nullptr);
    for (const double v : row) {
      if (std::isnan(v)) out.nan = true;
      if (std::isfinite(v)) out.largest = std::max(out.largest, v);
    }
  }

  for (int j = 0; j < map.cols; ++j) {
    TextToken t;
    const auto jj = static_cast<std::size_t>(j);
    if (jj < map.columns.size()) {
      t.label = map.columns[jj].label;
      t.kind = map.columns[jj].kind;
    } else {
      t.label = QString::number(j);
    }
    t.masked = masked[jj] != 0;
    if (shown && !out.nan) {
      t.weight = row[jj];
      const double v = std::isfinite(t.weight) ? t.weight : 0.0;
      t.shade = !t.masked && v > 0 && out.largest > 0 ? std::min(1.0, v / out.largest) : 0.0;
    }
    t.text = t.label;
    if (t.kind != mhaviz::KeyKind::source) {
      if (out.firstExtraKey < 0) out.firstExtraKey = j;
      if (!std::isnan(t.weight)) t.text += QLatin1Char(' ') + QString::number(t.weight, 'f', 2);
    }
    out.keys.push_back(t);
  }

  double y = options.top;
  if (!options.oneText) {
    const double headingHeight = metrics.height() + 2;
    out.queryHeadingText = options.queryHeading;
    out.queryHeading = QRectF(0, y, options.width, headingHeight);
    y += headingHeight + 2;
    for (int i = 0; i < map.rows; ++i) {
      TextToken t;
      t.label = positionLabel(queryLabels, i);
      t.text = t.label;
      out.queries.push_back(t);
    }
    y = flow(out.queries, -1, options.pictures, metrics, options.width, y) + kHeadingGap;
    out.keyHeadingText = options.keyHeading;
    out.keyHeading = QRectF(0, y, options.width, headingHeight);
    y += headingHeight + 2;
  }
  y = flow(out.keys, out.firstExtraKey, options.pictures, metrics, options.width, y);
  out.height = y + 2;
  return out;
}

TextHit hitText(const TextShades& shades, QPointF point) {
  for (std::size_t i = 0; i < shades.queries.size(); ++i) {
    if (shades.queries[i].box.contains(point)) return {TextHit::Side::query, static_cast<int>(i)};
  }
  for (std::size_t j = 0; j < shades.keys.size(); ++j) {
    if (shades.keys[j].box.contains(point)) return {TextHit::Side::key, static_cast<int>(j)};
  }
  return {};
}

int queryOfHit(const TextShades& shades, TextHit hit) {
  if (hit.side == TextHit::Side::query) return hit.index;
  if (hit.side == TextHit::Side::key && shades.queries.empty() && hit.index >= 0 &&
      static_cast<std::size_t>(hit.index) < shades.keys.size() &&
      shades.keys[static_cast<std::size_t>(hit.index)].kind == mhaviz::KeyKind::source) {
    return hit.index;
  }
  return -1;
}

}  // namespace mhaviz::ui
