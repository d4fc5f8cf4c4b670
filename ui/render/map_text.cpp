// MapText and the wrapping of the grid's texts (render/map_text.hpp).
#include "render/map_text.hpp"

#include <QFontMetrics>
#include <QTextLayout>
#include <QTextOption>
#include <algorithm>

#include "render/grid_layout.hpp"  // kMaxTitleLines

namespace mhaviz::ui {
namespace {

// `text` with every hyphen-minus that starts a signed number or an infinity ("-inf", "-0.5",
// "+3") replaced by a non-breaking hyphen of the same length: the line breaker then treats the
// sign and what follows as one word. Indices are unchanged, so lines are cut from the original.
QString gluedSigns(const QString& text) {
  QString glued = text;
  for (qsizetype i = 0; i + 1 < text.size(); ++i) {
    const QChar c = text.at(i);
    if (c != QLatin1Char('-') && c != QLatin1Char('+')) continue;
    const bool starts = i == 0 || text.at(i - 1).isSpace() || text.at(i - 1) == QLatin1Char('(') ||
                        text.at(i - 1) == QLatin1Char('[');
    const QChar next = text.at(i + 1);
    const bool number =
        next.isDigit() || next == QLatin1Char('.') || text.mid(i + 1, 3) == QLatin1String("inf");
    if (starts && number) glued[i] = QChar(0x2011);  // non-breaking hyphen: glues both sides
  }
  return glued;
}

}  // namespace

QStringList wrapLines(const QString& text, const QFont& font, int width) {
  QStringList lines;
  for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
    if (paragraph.isEmpty()) {
      lines << QString();
      continue;
    }
    // QTextLayout breaks where the language allows it: at spaces, and between CJK characters;
    // inside a word only when the word alone is wider than the line.
    QTextLayout layout(gluedSigns(paragraph), font);
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
      line.setLineWidth(std::max(20, width));
      lines << paragraph.mid(line.textStart(), line.textLength()).trimmed();
    }
    layout.endLayout();
  }
  return lines;
}

QStringList fitLines(const QString& text, const QFont& font, int width, int maxLines) {
  QStringList lines = wrapLines(text, font, width);
  if (lines.size() <= maxLines) return lines;
  // The last line holds the rest of the text, shortened in the middle (a title's end, "(head
  // 3)", stays readable).
  const QString rest = lines.mid(maxLines - 1).join(QLatin1Char(' '));
  lines = lines.mid(0, maxLines - 1);
  lines << QFontMetrics(font).elidedText(rest, Qt::ElideMiddle, std::max(20, width));
  return lines;
}

MapText::MapText(QCustomPlot* plot, const QString& text, const QFont& font)
    : QCPTextElement(plot, text, font) {
  setMargins(QMargins(kMapTextMargin, kMapTextMargin, kMapTextMargin, kMapTextMargin));
}

int MapText::width() const {
  const int inner = mRect.width();
  return inner > 0 ? inner : m_wrapWidth - mMargins.left() - mMargins.right();
}

QStringList MapText::shownLines() const {
  if (mText.isEmpty()) return {};
  return fitLines(mText, mFont, std::max(1, width()), kMaxTitleLines);
}

bool MapText::isShortened() const {
  return wrapLines(mText, mFont, std::max(1, width())).size() > kMaxTitleLines;
}

QSize MapText::minimumOuterSizeHint() const {
  if (mText.isEmpty()) {
    // No note: no room, or the line kept for one.
    return m_keepLine
               ? QSize(0, QFontMetrics(mFont).lineSpacing() + mMargins.top() + mMargins.bottom())
               : QSize(0, 0);
  }
  // Only as wide as an ellipsis asks: a long title wraps rather than widen (and so shrink) the
  // maps. As tall as its lines at the width it wraps to.
  const QFontMetrics metrics(mFont);
  const int ellipsis = metrics.horizontalAdvance(QStringLiteral("W\u2026"));
  // The width it was given last, where that is narrower than the layout foresaw (a map column
  // squeezed by its labels): the lines it will draw there.
  int wrap = std::max(1, m_wrapWidth - mMargins.left() - mMargins.right());
  if (mRect.width() > 0) wrap = std::min(wrap, mRect.width());
  const auto lines = static_cast<int>(fitLines(mText, mFont, wrap, kMaxTitleLines).size());
  return QSize(ellipsis + mMargins.left() + mMargins.right(),
               lines * metrics.lineSpacing() + mMargins.top() + mMargins.bottom());
}

void MapText::draw(QCPPainter* painter) {
  const QString full = mText;
  mText = shownText();
  QCPTextElement::draw(painter);
  mText = full;
}

}  // namespace mhaviz::ui
