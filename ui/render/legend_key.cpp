#include <QFontMetrics>

#include "render/heatmap_grid_state.hpp"

namespace mhaviz::ui {
namespace {
constexpr int kSwatch = 12;  // px
constexpr int kGap = 6;      // px between swatch and text
}  // namespace

LegendKey::LegendKey(QCustomPlot* plot, const QColor& color, Swatch swatch, const QString& text,
                     const QColor& textColor)
    : QCPLayoutElement(plot),
      m_color(color),
      m_swatch(swatch),
      m_text(text),
      m_textColor(textColor) {
  setMargins(QMargins(8, 2, 8, 2));
}

QSize LegendKey::maximumOuterSizeHint() const {
  // The whole text: a row of keys stays packed instead of spreading over the width.
  const QFontMetrics metrics(mParentPlot->font());
  const int width = kSwatch + kGap + metrics.horizontalAdvance(m_text);
  const int height = std::max(kSwatch, metrics.height());
  return QSize(width + mMargins.left() + mMargins.right(),
               height + mMargins.top() + mMargins.bottom());
}

QSize LegendKey::minimumOuterSizeHint() const {
  // The whole text, unless the plot is narrower (compare's three grids side by side): then as
  // wide as the plot, the text shortened with "…" rather than drawn past the plot's edge.
  QSize size = maximumOuterSizeHint();
  size.setWidth(std::max(kSwatch + kGap + mMargins.left() + mMargins.right(),
                         std::min(size.width(), mParentPlot->width() - 16)));
  return size;
}

void LegendKey::draw(QCPPainter* painter) {
  const QRect r = mRect;
  const QRectF swatch(r.left(), r.center().y() - kSwatch / 2.0, kSwatch, kSwatch);
  painter->setFont(mParentPlot->font());
  if (m_swatch == Swatch::fill) {
    painter->setPen(QPen(QColor(90, 90, 90), 0.8));
    painter->setBrush(m_color);
    painter->drawRect(swatch);
  } else {
    const double x = swatch.center().x();
    painter->setPen(QPen(Qt::white, 3));
    painter->drawLine(QPointF(x, swatch.top()), QPointF(x, swatch.bottom()));
    painter->setPen(QPen(m_color, 1.6, Qt::DashLine));
    painter->drawLine(QPointF(x, swatch.top()), QPointF(x, swatch.bottom()));
  }
  painter->setPen(m_textColor);
  const QRectF text(swatch.right() + kGap, r.top(), r.width() - kSwatch - kGap, r.height());
  painter->drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                    QFontMetrics(mParentPlot->font())
                        .elidedText(m_text, Qt::ElideRight, static_cast<int>(text.width())));
}

}  // namespace mhaviz::ui
