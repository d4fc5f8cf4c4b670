#pragma once
// The heatmap grid's geometry: how many columns of maps, how large each map's axis rect is, how
// tall the plot must be (it scrolls when the maps would fall under a readable size), and the
// caption above the maps (wrapped to the plot's width). Arithmetic over the data's shape, the
// plot's fonts and the room the built picture needs around its maps (measured); GUI thread.

#include <QFont>
#include <QMargins>
#include <QSize>
#include <QString>
#include <QStringList>

#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"

class QCustomPlot;
class QLabel;

namespace mhaviz::ui {

struct GridState;

/// Pixels between neighbouring maps across and down, and between the maps and the colour scale.
inline constexpr int kMapColumnSpacing = 14;
inline constexpr int kMapRowSpacing = 8;
inline constexpr int kBodySpacing = 8;
/// Pixels between the rows of the plot (caption, maps, legend).
inline constexpr int kPlotRowSpacing = 4;
/// A title or note wraps onto at most this many lines; beyond them it is shortened with "…".
inline constexpr int kMaxTitleLines = 3;

/// What the picture needs around the maps' axis rects, measured on a built picture (estimated
/// from the fonts before the first).
struct GridChrome {
  QMargins rect;         // around every axis rect: tick labels, axis titles (one margin group)
  int turned = 0;        // of rect's bottom: labels turned on their side (turnedLabelsHeight)
  int scaleWidth = 0;    // the colour scale with its tick labels and title
  int legendHeight = 0;  // the legend's rows under the maps
  bool operator==(const GridChrome&) const = default;
};

/// Where the maps go for a given visible size.
struct GridArrangement {
  int columns = 1;
  QSize rect;          // every map's axis rect (cells square unless filling the centre asks)
  int slotWidth = 0;   // a map's column: its rect and the margins around it (titles wrap to it)
  QSize plot;          // the plot: the visible size, or taller when it scrolls
  bool notes = false;  // maps are reduced to their pixels: a note line under every title
  bool operator==(const GridArrangement&) const = default;
};

class GridLayout {
 public:
  /// `plot` (not owned) gives the fonts the maps' texts are drawn in.
  explicit GridLayout(const QCustomPlot* plot);

  void setCaption(const QString& caption) { m_caption = caption; }
  const QString& caption() const { return m_caption; }
  void setAxisTitles(bool on) { m_axisTitles = on; }
  bool axisTitles() const { return m_axisTitles; }
  void setScrollWhenSmall(bool on) { m_scrollWhenSmall = on; }
  /// Up to `maps` maps stay in view together, scaled down to fit, even where they fall under the
  /// readable size (presentation mode: a projected picture does not scroll). 0: none.
  void setInViewUpTo(int maps) { m_inViewUpTo = maps; }
  /// Titles end with the map's own colour range ("head 0   [0, 0.93]", a per-head scale).
  void setRangeInTitles(bool on) { m_rangeInTitles = on; }

  /// The arrangement of `data`'s maps when the plot may use `visible` without scrolling (a
  /// vertical scroll bar takes `scrollBar` pixels of the width). Every map in view at once when
  /// they stay readable, as large as the room allows; else as many columns as stay readable, each
  /// map as wide as its column, and the plot scrolls.
  GridArrangement arrange(const StageData& data, const ViewOptions& view, QSize visible,
                          int scrollBar) const;
  /// Smallest map side (pixels) that counts as readable: the grid scrolls rather than go below.
  int readableSide() const;

  /// Takes the room the built picture `state` (of `data` in `view`) needs around its maps; true
  /// when it differs from what the last arrangement assumed. Labels the picture turned on their
  /// side are not counted in: each candidate arrangement adds those its own maps' width turns.
  bool measure(const GridState& state, const StageData& data, const ViewOptions& view);
  const GridChrome& chrome() const { return m_chrome; }

  QFont titleFont() const;
  QFont noteFont() const;
  /// Pixels the tallest map title takes wrapped to `width` (at most kMaxTitleLines lines).
  int titleHeight(const StageData& data, int width) const;

  QFont captionFont(bool heading) const;
  /// The caption's heading (first line) or body, wrapped to a plot `width` pixels wide.
  QStringList captionParts(int width, bool heading) const;
  int captionHeight(int width) const;  // pixels the caption takes at `width`

  /// The out-of-date badge at the top left of a grid `width` pixels wide, over the plot.
  static void placeBadge(QLabel* badge, int width);

 private:
  struct Fit;
  Fit fit(const StageData& data, const ViewOptions& view, int columns, QSize room,
          bool allInView) const;

  const QCustomPlot* m_plot;
  QString m_caption;
  GridChrome m_chrome;
  bool m_axisTitles = false;
  bool m_scrollWhenSmall = true;
  int m_inViewUpTo = 0;
  bool m_rangeInTitles = false;
};

}  // namespace mhaviz::ui
