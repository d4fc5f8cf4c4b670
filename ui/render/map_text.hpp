#pragma once
// Text of the heatmap grid that never clips: map titles and notes that wrap to the width they
// are given (shortened with "…" only beyond kMaxTitleLines lines, the full text kept for a
// tooltip), and the wrapping the captions and the colour scale's title use. GUI thread.

#include <qcustomplot.h>

#include <QFont>
#include <QString>
#include <QStringList>

namespace mhaviz::ui {

/// Pixels above and below a map's title and beside its lines.
inline constexpr int kMapTextMargin = 2;

/// A map's title or note: wrapped onto at most kMaxTitleLines lines of the width the layout
/// gives it (the last shortened with "…" only when even they do not hold it), asking for no
/// more width than an ellipsis, so that a long title never squeezes the maps. Empty, it takes
/// no room unless told to keep its line.
class MapText : public QCPTextElement {
 public:
  MapText(QCustomPlot* plot, const QString& text, const QFont& font);
  /// The width the lines wrap to before the layout has given the element one.
  void setWrapWidth(int width) { m_wrapWidth = width; }
  /// On: at least one line of room even while empty (a note that comes and goes as the maps
  /// are zoomed does not move them).
  void setKeepLine(bool on) { m_keepLine = on; }
  /// The lines as drawn at the element's current width.
  QStringList shownLines() const;
  QString shownText() const { return shownLines().join(QLatin1Char('\n')); }
  /// True when the lines do not hold the whole text (the last ends with "…").
  bool isShortened() const;
  QSize minimumOuterSizeHint() const override;

 protected:
  void draw(QCPPainter* painter) override;

 private:
  int width() const;
  int m_wrapWidth = 0;
  bool m_keepLine = false;
};

/// `text` broken into lines no wider than `width` pixels in `font` (explicit line breaks kept):
/// at spaces, between CJK characters, inside a word only when it is wider than a line, and never
/// inside a signed number or "-inf".
QStringList wrapLines(const QString& text, const QFont& font, int width);
/// wrapLines, at most `maxLines` lines: the last one holds the rest, shortened with "…".
QStringList fitLines(const QString& text, const QFont& font, int width, int maxLines);

}  // namespace mhaviz::ui
