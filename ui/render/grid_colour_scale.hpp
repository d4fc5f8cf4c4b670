#pragma once
// The heatmap grid's colours: the colormap a stage is drawn in (a diverging one for signed
// values), the masked and NaN colours, each map's colour range and the shared colour scale's
// range, tick labels and title (wrapped to the bar's length). GUI thread.

#include <qcustomplot.h>

#include <QColor>
#include <optional>

#include "stages/view_options.hpp"

namespace mhaviz::ui {

struct GridContent;
struct GridState;

class GridColourScale {
 public:
  /// `state` and `content` are the grid's (they outlive this object).
  GridColourScale(GridState& state, const GridContent& content);

  /// Chooses the colormap for the content (its view's, or the diverging one for signed values)
  /// as a new picture is built.
  void chooseColormap();
  Colormap colormap() const { return m_colormap; }
  const QCPColorGradient& gradient() const { return m_gradient; }
  /// The colour of masked cells and of the legend's "masked" swatch: the one set, or with none
  /// (the default) the colormap's own (maskedColor).
  void setMaskedColor(std::optional<QColor> colour) { m_maskedColor = colour; }
  QColor maskedCellColor() const;
  QColor nanCellColor() const;

  /// The colour ranges of the maps and the scale (needs the content's statistics): one shared
  /// range or one per map (then in every map's title), the scale's ticks and title, and the NaN
  /// key's text.
  void applyRanges();
  /// The scale's title wrapped to the bar's length as last laid out; true when it changed.
  bool fitTitle();

 private:
  GridState& m_state;
  const GridContent& m_content;
  Colormap m_colormap = Colormap::viridis;
  QCPColorGradient m_gradient;
  std::optional<QColor> m_maskedColor;
};

}  // namespace mhaviz::ui
