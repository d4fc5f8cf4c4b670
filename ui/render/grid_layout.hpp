#pragma once
// The heatmap grid's geometry: how many columns of maps, how large a cell is, how tall the plot
// must be to keep maps readable (it then scrolls), and the caption above the maps (wrapped to
// the plot's width). Pure arithmetic over the data's shape and the plot's fonts; GUI thread.

#include <QFont>
#include <QSize>
#include <QString>
#include <QStringList>

#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"

class QCustomPlot;
class QLabel;

namespace mhaviz::ui {

class GridLayout {
 public:
  /// `plot` (not owned) gives the fonts the maps' texts are drawn in.
  explicit GridLayout(const QCustomPlot* plot) : m_plot(plot) {}

  void setCaption(const QString& caption) { m_caption = caption; }
  const QString& caption() const { return m_caption; }
  void setAxisTitles(bool on) { m_axisTitles = on; }
  bool axisTitles() const { return m_axisTitles; }
  void setScrollWhenSmall(bool on) { m_scrollWhenSmall = on; }

  /// Grid columns for `data`'s maps when the plot may use `visible` without scrolling.
  int chooseColumns(const StageData& data, QSize visible) const;
  /// Side of a square cell for n maps in `columns` when the plot is `size`.
  double cellPixels(const StageData& data, int n, int columns, QSize size) const;
  /// The plot's size: `visible`, or taller (less `scrollBar` wide) when the maps would fall
  /// under a readable size and scrolling is on.
  QSize plotSize(const StageData& data, const ViewOptions& view, int columns, QSize visible,
                 int scrollBar) const;

  QFont captionFont(bool heading) const;
  /// The caption's heading (first line) or body, wrapped to a plot `width` pixels wide.
  QStringList captionParts(int width, bool heading) const;
  int captionHeight(int width) const;  // pixels the caption takes at `width`

  /// The out-of-date badge at the top left of a grid `width` pixels wide, over the plot.
  static void placeBadge(QLabel* badge, int width);

 private:
  int neededHeight(const StageData& data, const ViewOptions& view, int columns,
                   QSize visible) const;

  const QCustomPlot* m_plot;
  QString m_caption;
  bool m_axisTitles = false;
  bool m_scrollWhenSmall = true;
};

}  // namespace mhaviz::ui
