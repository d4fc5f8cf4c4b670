#include "window/screen_presenter.hpp"

#include <exception>

#include "document/document.hpp"
#include "render/head_measures_view.hpp"
#include "render/heatmap_grid.hpp"
#include "render/result_maps.hpp"
#include "window/status_widgets.hpp"

namespace mhaviz::ui {

ScreenPresenter::ScreenPresenter(Document* document, HeatmapGrid* grid, HeadMeasuresView* measures,
                                 StatusWidgets* status, QObject* parent)
    : QObject(parent), m_document(document), m_grid(grid), m_measures(measures), m_status(status) {
  connect(document, &Document::changed, this, [this](Document::Changes what) {
    const ViewOptions& view = m_document->view();
    if (what & Document::Change::origin) m_otherOpened = true;
    if (what & Document::Change::view) redraw(view);
    if (what & Document::Change::result) {
      m_measures->setResult(m_document->computed().result, m_document->computed().measures(),
                            view.batch, m_document->computed().measuring);
      m_otherOpened = false;
      if (!waitsForMeasures(view)) draw(view);
    }
    if (what & Document::Change::measures) {
      m_measures->setResult(m_document->computed().result, m_document->computed().measures(),
                            view.batch);
      if (stageNeedsMeasures(view.stage)) draw(view);
    }
    // What was opened will not come (its computation failed, was cancelled or cannot start):
    // the current result is the picture, marked out of date, as after any other change.
    if ((what & Document::Change::outOfDate) && m_document->computed().outOfDate && m_otherOpened) {
      m_otherOpened = false;
      redraw(view);
    }
  });
}

bool ScreenPresenter::waitsForMeasures(const ViewOptions& view) const {
  return stageNeedsMeasures(view.stage) && m_document->computed().measuring;
}

void ScreenPresenter::draw(const ViewOptions& view) {
  const ResultPtr result = m_document->computed().result;
  try {
    showResult(*m_grid, result, view, m_document->computed().measures());
  } catch (const std::exception& e) {
    m_status->showMessage(tr("Cannot draw: %1").arg(QString::fromUtf8(e.what())));
  }
  // The memory of the result and of what was computed from it so far.
  m_status->showTimes(m_document->computed().computeMs, m_grid->lastRenderMs(),
                      m_document->computed().bytes());
}

void ScreenPresenter::redraw(const ViewOptions& view) {
  const ResultPtr result = m_document->computed().result;
  if (!result) return;
  if (m_otherOpened) {
    // The maps of the layer or session that was open before, under the view of the one now open
    // (a double click in the model view: the previous layer's map of the clicked head): the
    // result on its way is drawn instead. A hidden grid lets go of the previous maps too (shown
    // before the result came, it would draw all of them first).
    if (m_document->computed().busy) {
      if (!m_grid->isVisible() && m_grid->result()) m_grid->clear();  // once, not per view
      return;
    }
    m_otherOpened = false;
  }
  const auto measures = m_document->computed().measures();
  m_measures->setResult(result, measures, view.batch, m_document->computed().measuring);
  if (waitsForMeasures(view)) return;  // drawn when the measures arrive
  try {
    if (m_grid->result() != result ||
        (stageNeedsMeasures(view.stage) && m_grid->stageData().measures != measures)) {
      // The grid let go of its maps while another layer was computed, or holds the result as it
      // came, before its measures (which hold the norms).
      showResult(*m_grid, result, view, measures);
    } else {
      showView(*m_grid, view);
    }
  } catch (const std::exception& e) {
    m_status->showMessage(tr("Cannot draw: %1").arg(QString::fromUtf8(e.what())));
  }
}

}  // namespace mhaviz::ui
