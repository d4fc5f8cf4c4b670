#include "model/picture_parts.hpp"

#include <algorithm>
#include <cmath>

namespace mhaviz::ui {

int colourScaleWidth(const QFontMetrics& fm) {
  return 14 + 8 + fm.horizontalAdvance(QStringLiteral("0.75"));
}

int scaleBarHeight(const QFontMetrics& fm) {
  // Four intervals, each at least one and a half labels (the top and bottom labels sit inside
  // the bar, not centred on their ticks).
  return 4 * (fm.height() * 3 / 2 + 2) + 1;
}

std::vector<ScaleTick> scaleTicks(const QRect& bar, const QFontMetrics& fm) {
  std::vector<ScaleTick> ticks;
  const int h = fm.height();
  const int spanPx = bar.height() - 1;
  int intervals = 4;
  // The end labels lie inside the bar, the others centred on their ticks: an interval next to
  // an end needs one and a half labels, a single interval two.
  while (intervals > 0 && spanPx / intervals < (intervals == 1 ? 2 * h + 1 : h * 3 / 2 + 2))
    intervals /= 2;
  if (intervals == 0) return ticks;
  const int labelW = fm.horizontalAdvance(QStringLiteral("0.75")) + 2;
  for (int q = 0; q <= intervals; ++q) {
    ScaleTick t;
    t.value = 1.0 - double(q) / intervals;
    t.y = bar.top() + int(std::lround(double(spanPx) * q / intervals));
    const int top = std::clamp(t.y - h / 2, bar.top(), bar.bottom() + 1 - h);
    t.label = QRect(bar.right() + 8, top, labelW, h);
    ticks.push_back(t);
  }
  return ticks;
}

GradientTable::GradientTable(const QCPColorGradient& gradient) {
  auto& g = const_cast<QCPColorGradient&>(gradient);  // color() fills its buffer on first use
  const int levels = std::max(2, g.levelCount());
  m_levels = levels;
  m_top = levels - 1;
  const QCPRange range(0.0, 1.0);
  m_colors.reserve(static_cast<std::size_t>(levels));
  // The middle of each level, which color() maps to that level.
  for (int i = 0; i < levels; ++i) m_colors.push_back(g.color((i + 0.5) / m_top, range));
}

void drawScale(QPainter& p, const QRect& bar, const QCPColorGradient& gradient, Colormap map,
               const QColor& ink, const QString& title) {
  if (bar.height() < 8) return;
  const QImage cells = cellImage(bar.height(), 1, gradient, map, [&](std::int64_t r, std::int64_t) {
    return 1.0 - double(r) / double(std::max(1, bar.height() - 1));
  });
  p.drawImage(bar, cells);
  const QFontMetrics fm(p.font());
  p.setPen(ink);
  p.drawText(QRect(bar.left(), bar.top() - fm.height() - 4, bar.width() + 60, fm.height()),
             Qt::AlignLeft | Qt::AlignBottom, title);
  for (const ScaleTick& t : scaleTicks(bar, fm)) {
    p.drawLine(bar.right() + 2, t.y, bar.right() + 5, t.y);
    p.drawText(t.label, Qt::AlignLeft | Qt::AlignVCenter, QString::number(t.value, 'g', 2));
  }
}

int labelStep(double pixels, double needed) {
  if (pixels <= 0) return 1 << 20;
  return std::max(1, static_cast<int>(std::ceil(needed / pixels)));
}

void drawLabels(QPainter& p, const QFontMetrics& fm, const QRect& map, const QStringList& labels,
                bool across, bool rotated, int band) {
  if (labels.isEmpty()) return;
  const double cell = double(across ? map.width() : map.height()) / double(labels.size());
  const int step = labelStep(
      cell,
      across && !rotated ? fm.horizontalAdvance(QStringLiteral("00")) + 4.0 : fm.height() * 0.9);
  for (int k = 0; k < labels.size(); k += step) {
    const double centre = (double(k) + 0.5) * cell;
    if (!across) {
      const int y = map.top() + int(centre);
      p.drawText(QRect(map.left() - band, y - fm.height() / 2, band - 4, fm.height()),
                 Qt::AlignRight | Qt::AlignVCenter,
                 fm.elidedText(labels[k], Qt::ElideRight, band - 4));
    } else if (!rotated) {
      const int x = map.left() + int(centre);
      const int w = int(cell * step);
      p.drawText(QRect(x - w / 2, map.bottom() + 3, w, fm.height()), Qt::AlignCenter,
                 fm.elidedText(labels[k], Qt::ElideRight, w));
    } else {
      p.save();
      p.translate(map.left() + centre, map.bottom() + 3);
      p.rotate(-90);
      p.drawText(QRect(-(band - 6), -fm.height() / 2, band - 6, fm.height()),
                 Qt::AlignRight | Qt::AlignVCenter,
                 fm.elidedText(labels[k], Qt::ElideRight, band - 6));
      p.restore();
    }
  }
}

void drawCells(QPainter& p, const QRect& target, const QImage& cells) {
  const QPaintDevice* device = p.device();
  if (device != nullptr && device->devType() != QInternal::Image &&
      device->devType() != QInternal::Widget && device->devType() != QInternal::Pixmap) {
    p.drawImage(target, cells.scaled(target.size(), Qt::IgnoreAspectRatio, Qt::FastTransformation));
    return;
  }
  p.drawImage(target, cells);
}

}  // namespace mhaviz::ui
