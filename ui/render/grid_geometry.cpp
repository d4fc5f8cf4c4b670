// The grid's arrangement applied and the plot laid out (render/grid_geometry.hpp).
#include "render/grid_geometry.hpp"

#include <qcustomplot.h>

#include "render/grid_colour_scale.hpp"
#include "render/grid_ticks.hpp"
#include "render/grid_viewport.hpp"
#include "render/heatmap_grid_state.hpp"

namespace mhaviz::ui {

GridGeometry::GridGeometry(QCustomPlot* plot, GridLayout& layout, const GridViewport& viewport,
                           GridColourScale& colours, GridState& state, const GridContent& content)
    : m_plot(plot),
      m_layout(layout),
      m_viewport(viewport),
      m_colours(colours),
      m_state(state),
      m_content(content) {}

GridArrangement GridGeometry::fitting() {
  m_layout.setRangeInTitles(m_content.view.perHeadScale);
  return m_layout.arrange(m_content.data(), m_content.view, m_viewport.visibleSize(),
                          m_viewport.scrollBarWidth());
}

void GridGeometry::apply(const GridArrangement& arrangement) {
  m_current = arrangement;
  const GridArrangement& a = m_current;
  if (m_plot->size() != a.plot) m_plot->resize(a.plot);
  m_plot->setViewport(QRect(QPoint(0, 0), m_plot->size()));
  for (MapView& v : m_state.views) {
    v.rect->setMaximumSize(a.rect);
    v.title->setWrapWidth(a.slotWidth);
    v.note->setWrapWidth(a.slotWidth);
    v.note->setKeepLine(a.notes);
  }
}

void GridGeometry::layoutNow() {
  m_plot->setViewport(QRect(QPoint(0, 0), m_plot->size()));
  QCPLayoutGrid* layout = m_plot->plotLayout();
  layout->update(QCPLayoutElement::upPreparation);
  layout->update(QCPLayoutElement::upMargins);
  layout->update(QCPLayoutElement::upLayout);
  if (m_viewport.placeScale(m_state)) {
    layout->update(QCPLayoutElement::upLayout);  // beside the maps in view
  }
  if (m_colours.fitTitle()) {
    layout->update(QCPLayoutElement::upMargins);
    layout->update(QCPLayoutElement::upLayout);
  }
}

void GridGeometry::updateTicks() {
  for (std::size_t i = 0; i < m_state.views.size(); ++i) {
    updateMapTicks(m_state.views[i], m_content.data().maps[i], m_content.view);
  }
}

void GridGeometry::layoutWithTicks() {
  layoutNow();
  updateTicks();
  // Tick labels change the margins: lay out again before the maps are sized to their pixels.
  layoutNow();
}

}  // namespace mhaviz::ui
