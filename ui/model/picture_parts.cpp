#include "model/picture_parts.hpp"

#include <algorithm>

namespace mhaviz::ui {

int scaleWidth(const QFontMetrics& fm) {
  return 14 + 4 + fm.horizontalAdvance(QStringLiteral("0.75"));
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
  p.drawText(QRect(bar.left(), bar.top() - fm.height() - 2, bar.width() + 60, fm.height()),
             Qt::AlignLeft | Qt::AlignVCenter, title);
  for (int q = 0; q <= 4; ++q) {
    const double v = 1.0 - q / 4.0;
    const int y = bar.top() + int(std::lround((bar.height() - 1) * q / 4.0));
    p.drawLine(bar.right() + 1, y, bar.right() + 3, y);
    p.drawText(QRect(bar.right() + 5, y - fm.height() / 2,
                     fm.horizontalAdvance(QStringLiteral("0.75")) + 2, fm.height()),
               Qt::AlignLeft | Qt::AlignVCenter, QString::number(v, 'g', 2));
  }
}

}  // namespace mhaviz::ui
