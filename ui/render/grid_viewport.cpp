// The grid's scroll area, the colour scale kept in view and the badge
// (render/grid_viewport.hpp).
#include "render/grid_viewport.hpp"

#include <qcustomplot.h>

#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <algorithm>
#include <utility>

#include "render/grid_layout.hpp"
#include "render/heatmap_grid.hpp"  // HeatmapGrid::tr: the badge keeps the grid's translations
#include "render/heatmap_grid_state.hpp"

namespace mhaviz::ui {

GridViewport::GridViewport(QWidget* grid, QCustomPlot* plot)
    : m_grid(grid), m_plot(plot), m_scroll(new QScrollArea(grid)) {
  m_scroll->setFrameShape(QFrame::NoFrame);
  m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  m_scroll->setWidgetResizable(false);
  m_scroll->setWidget(m_plot);
  m_scroll->setGeometry(m_grid->rect());
  m_plot->resize(m_grid->size());
  m_badge = new QLabel(grid);
  m_badge->setStyleSheet(
      QStringLiteral("QLabel { background: rgba(180, 30, 30, 225); color: white; font-weight: bold;"
                     " padding: 4px 8px; border-radius: 4px; }"));
  m_badge->setWordWrap(true);
  m_badge->hide();
}

QScrollBar* GridViewport::scrollBar() const { return m_scroll->verticalScrollBar(); }

QSize GridViewport::visibleSize() const { return m_grid->size().expandedTo(QSize(1, 1)); }

int GridViewport::scrollBarWidth() const {
  return m_grid->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_scroll);
}

void GridViewport::fit() {
  m_scroll->setGeometry(m_grid->rect());
  GridLayout::placeBadge(m_badge, m_grid->width());
}

void GridViewport::setOutOfDate(bool outOfDate, const QString& why) {
  QString text = HeatmapGrid::tr("Out of date");
  if (!why.isEmpty()) text += QStringLiteral(": ") + why;
  text += HeatmapGrid::tr(" (showing the last computed result)");
  m_badge->setText(text);
  m_badge->setVisible(outOfDate);
  GridLayout::placeBadge(m_badge, m_grid->width());
}

bool GridViewport::placeScale(const GridState& s) const {
  if (s.scale == nullptr || s.scaleOffset == nullptr || s.scaleRest == nullptr) return false;
  const int view = visibleSize().height();
  const int body = s.body != nullptr ? s.body->outerRect().height() : 0;
  int offset = 0, rest = 0;
  if (m_plot->height() > view && body > 0) {
    // The part of the maps' rows in view (the caption above them may take the top of it).
    const int bodyTop = s.body->outerRect().top();
    const int scroll = m_scroll->verticalScrollBar()->value();
    const int top = std::max(bodyTop, scroll);
    const int bottom = std::min(bodyTop + body, scroll + view);
    const int height = std::clamp(bottom - top - 2 * kPlotRowSpacing, std::min(body, 40), body);
    offset = std::clamp(top - bodyTop, 0, body - height);
    rest = body - height - offset;
  }
  if (s.scaleOffset->maximumSize().height() == offset &&
      s.scaleRest->maximumSize().height() == rest) {
    return false;
  }
  for (const auto& [spacer, height] : {std::pair{s.scaleOffset, offset}, {s.scaleRest, rest}}) {
    spacer->setMinimumSize(0, height);
    spacer->setMaximumSize(QWIDGETSIZE_MAX, height);
  }
  return true;
}

}  // namespace mhaviz::ui
