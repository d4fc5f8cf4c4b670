#pragma once
// Private to HeatmapGrid: the QCustomPlot objects of the current picture. All pointers are owned
// by the QCustomPlot (layout elements, plottables, items); GridState only refers to them.

#include <qcustomplot.h>

#include <QPointer>
#include <memory>
#include <vector>

#include "stages/stage_data.hpp"

#include "render/grid_layout.hpp"
#include "render/reduce.hpp"
#include "stages/view_options.hpp"

class QLabel;

namespace mhaviz::ui {

/// Horizontal pixels kept free beside the caption's lines (and vertical room per caption part).
inline constexpr int kCaptionPad = 24;
/// Pixels above and below a map's title and beside its lines.
inline constexpr int kMapTextMargin = 2;

/// One map of the grid.
struct MapView {
  QCPAxisRect* rect = nullptr;
  QCPColorMap* colorMap = nullptr;
  QCPItemPixmap* maskOverlay = nullptr;  // masked cells, drawn over the colour map
  class MapText* title = nullptr;
  class MapText* note = nullptr;  // under the title: "reduced 2048x2048 -> 512x512 (mean)"
  QCPAxis* extraX = nullptr;         // tick labels of the bias_k / zero columns
  QCPAxis* extraY = nullptr;         // tick labels of the bias_k / zero rows (k, v)
  QCPRange valueRange;               // colour range of this map
  ReducedGrid shown;                 // region and blocks the colour map holds now
  bool hasShown = false;
};

struct GridState {
  std::vector<MapView> views;
  QCPColorScale* scale = nullptr;
  QString scaleTitle;  // the colour scale's title before it is wrapped to the bar
  QCPLayoutGrid* legend = nullptr;
  QCPLayoutGrid* body = nullptr;              // maps and colour scale side by side
  QCPLayoutElement* scaleOffset = nullptr;    // above the scale: keeps it in view when scrolled
  QCPLayoutElement* scaleRest = nullptr;      // below the scale when the maps scroll
  QCPMarginGroup* margins = nullptr;
  QCPColorGradient gradient;
  Colormap colormap = Colormap::viridis;
  GridArrangement arrangement;       // columns, map and plot sizes of the picture
  bool syncing = false;               // true while ranges are copied between maps
  bool renderQueued = false;          // a re-render after zoom/pan is pending
  bool replotWhenShown = false;       // prepared maps arrived while the grid was hidden
  QLabel* badge = nullptr;            // out-of-date badge over the plot (child of the grid widget)
  class LegendKey* nanKey = nullptr;  // legend entry whose text says why NaN appears
};

/// What every map of one layout shares (HeatmapGrid::rebuild).
struct MapStyle {
  QColor text;
  QColor background;
  QFont titleFont;
  QFont noteFont;
};

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

/// A legend entry for the layout: a colour swatch (or a dashed line) and a text.
class LegendKey : public QCPLayoutElement {
 public:
  enum class Swatch { fill, line };
  LegendKey(QCustomPlot* plot, const QColor& color, Swatch swatch, const QString& text,
            const QColor& textColor);
  void setText(const QString& text) { m_text = text; }
  QSize minimumOuterSizeHint() const override;
  QSize maximumOuterSizeHint() const override;

 protected:
  void draw(QCPPainter* painter) override;

 private:
  QColor m_color;
  Swatch m_swatch;
  QString m_text;
  QColor m_textColor;
};

}  // namespace mhaviz::ui
