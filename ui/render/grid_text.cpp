// Text of the grid that never clips: a title that elides to the width it is given (the full text
// stays available for a tooltip), and captions wrapped to the plot's width.
#include <QFontMetrics>
#include <QTextLayout>

#include "render/heatmap_grid_state.hpp"

namespace mhaviz::ui {

ElidedText::ElidedText(QCustomPlot* plot, const QString& text, const QFont& font)
    : QCPTextElement(plot, text, font) {}

QString ElidedText::shownText() const {
  const int width = mRect.width();
  if (width <= 0) return mText;
  return QFontMetrics(mFont).elidedText(mText, Qt::ElideMiddle,
                                        width);  // keeps "W_q" and "(head 3)"
}

QSize ElidedText::minimumOuterSizeHint() const {
  // Only as wide as an ellipsis asks: a long title must not widen (and so shrink) the maps.
  QSize size = QCPTextElement::minimumOuterSizeHint();
  const int ellipsis = QFontMetrics(mFont).horizontalAdvance(QStringLiteral("W\u2026")) +
                       mMargins.left() + mMargins.right();
  size.setWidth(std::min(size.width(), ellipsis));
  return size;
}

void ElidedText::draw(QCPPainter* painter) {
  const QString full = mText;
  mText = shownText();
  QCPTextElement::draw(painter);
  mText = full;
}

QStringList wrapLines(const QString& text, const QFont& font, int width) {
  QStringList lines;
  for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
    if (paragraph.isEmpty()) {
      lines << QString();
      continue;
    }
    // QTextLayout breaks where the language allows it: at spaces, and between CJK characters.
    QTextLayout layout(paragraph, font);
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
      line.setLineWidth(std::max(20, width));
      lines << paragraph.mid(line.textStart(), line.textLength()).trimmed();
    }
    layout.endLayout();
  }
  return lines;
}

}  // namespace mhaviz::ui
