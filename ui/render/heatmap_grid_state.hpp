#pragma once
// Private to HeatmapGrid: the QCustomPlot objects of the current picture. All pointers are owned
// by the QCustomPlot (layout elements, plottables, items); GridState only refers to them.

#include <qcustomplot.h>

#include <QPointer>
#include <memory>
#include <vector>

#include "stages/stage_data.hpp"

#include "render/reduce.hpp"
#include "stages/view_options.hpp"

class QLabel;

namespace mhaviz::ui {

/// Below this many pixels an axis rect is not readable: the grid scrolls rather than shrinks it.
inline constexpr int kReadableRectPx = 64;
/// Horizontal pixels kept free beside the caption's lines (and vertical room per caption part).
inline constexpr int kCaptionPad = 24;

/// One map of the grid.
struct MapView {
  QCPAxisRect* rect = nullptr;
  QCPColorMap* colorMap = nullptr;
  QCPItemPixmap* maskOverlay = nullptr;  // masked cells, drawn over the colour map
  class ElidedText* title = nullptr;
  class ElidedText* note = nullptr;  // under the title: "reduced 2048x2048 -> 512x512 (mean)"
  QCPAxis* extraX = nullptr;         // tick labels of the bias_k / zero columns
  QCPAxis* extraY = nullptr;         // tick labels of the bias_k / zero rows (k, v)
  QCPRange valueRange;               // colour range of this map
  ReducedGrid shown;                 // region and blocks the colour map holds now
  bool hasShown = false;
};

struct GridState {
  std::vector<MapView> views;
  QCPColorScale* scale = nullptr;
  QCPMarginGroup* margins = nullptr;
  QCPColorGradient gradient;
  Colormap colormap = Colormap::viridis;
  int columns = 1;
  bool syncing = false;               // true while ranges are copied between maps
  bool renderQueued = false;          // a re-render after zoom/pan is pending
  QLabel* badge = nullptr;            // out-of-date badge over the plot (child of the grid widget)
  class LegendKey* nanKey = nullptr;  // legend entry whose text says why NaN appears
};

/// What every map of one layout shares (HeatmapGrid::rebuild).
struct MapStyle {
  QColor text;
  QColor background;
  QSize maxRect;  // square cells: an axis rect is at most this large
  QFont titleFont;
  QFont noteFont;
};

/// A line of text that elides to the width the layout gives it (never wider than its element)
/// and asks for no more than an ellipsis' width, so long titles never squeeze the maps.
class ElidedText : public QCPTextElement {
 public:
  ElidedText(QCustomPlot* plot, const QString& text, const QFont& font);
  /// The text as drawn at the element's current width ("W_q = in_pro…(head 3)" when cut).
  QString shownText() const;
  bool isElided() const { return shownText() != mText; }
  QSize minimumOuterSizeHint() const override;

 protected:
  void draw(QCPPainter* painter) override;
};

/// `text` broken into lines no wider than `width` pixels in `font` (explicit line breaks kept).
QStringList wrapLines(const QString& text, const QFont& font, int width);

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
