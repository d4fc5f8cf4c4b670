// The model view's picture: drawn on a background task for the canvas's size, once per state and
// size, and the canvas fitted to it (model_view.hpp).
#include <QCoreApplication>
#include <QEvent>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <algorithm>
#include <exception>

#include "model/model_canvas.hpp"
#include "model/model_grid_layout.hpp"
#include "model/model_picture.hpp"
#include "model/model_view.hpp"
#include "model/step_picture.hpp"

namespace mhaviz::ui {

namespace {

// The tallest canvas: a picture of a thousand layers stays a few tens of MiB.
constexpr int kMostCanvas = 16000;

}  // namespace

bool ModelView::redraw() {
  if (!m_loaded || m_canvas->size().isEmpty()) return false;
  const QSize size = m_canvas->size();
  const ModelMode mode = m_modes->mode();
  if (mode != ModelMode::grid) fitCanvas(0);  // the other views fit the view's height
  const int batch = this->batch();
  const int step = m_modes->step();
  showHint(mode);
  std::shared_ptr<const model::AttentionFlow> flow;
  if (mode == ModelMode::flow) {
    if (!m_flow || m_flowBatch != batch || m_flowStep != step) {
      startFlow(batch, step);  // draws when it is ready; the picture so far stays meanwhile
      return true;
    }
    flow = m_flow;
  }
  const Colormap colormap = m_colormap;
  ModelPictureColors colors;
  colors.background = palette().color(QPalette::Base);
  colors.ink = palette().color(QPalette::Text);
  // The size the canvas will have once this picture is shown: a grid taller than the view
  // scrolls (the canvas as tall as its rows need, narrower by the scroll bar); the other views
  // fit the view (no scroll bar). The grid is drawn at it at once, and the resizes that showing
  // it brings about find their picture drawn (drawnKey) instead of drawing it again (twice or
  // three times per model opened: at the view's height, at the rows' height, without the
  // scroll bar's width).
  QScrollBar* bar = m_scroll->verticalScrollBar();
  const int extent = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, bar);
  const int room = m_scroll->viewport()->height();
  const bool scrolling = m_canvas->height() > room;
  const QSize fitted(scrolling ? size.width() + extent : size.width(), room);
  DrawKey key{m_loaded.get(), mode, batch, step, colormap, colors.background.rgba(),
              colors.ink.rgba(), flow.get(), mode == ModelMode::grid ? size : fitted};
  if (key == m_drawnKey) return true;  // drawn, or being drawn, for this state and size
  m_drawnKey = key;
  const int wider = scrolling ? 0 : extent;  // the width the scroll bar will take
  // The closure (and with it a retired model) is released on the task's thread.
  // The other views are drawn at the view's size (fitCanvas(0) above takes the canvas there).
  m_draw.start([this, loaded = m_loaded, retired = std::move(m_retired), size, fitted, mode, batch,
                step, flow, colormap, colors, room, wider, key](const TaskScope& scope) {
    QImage image;
    QString problem;
    std::optional<ModelGridLayout> layout;
    try {
      const model::Model& m = loaded->model;
      const std::vector<Tensor>& weights = loaded->computed.weights;
      switch (mode) {
        case ModelMode::grid: {
          // The caption above the picture names the model: no figure title in it.
          QSize drawn = size;
          layout.emplace(m, loaded->computed, batch, size, false);
          if (layout->neededHeight > room && layout->neededHeight > size.height()) {
            // Rows too short for their titles: drawn as tall as they need, the scroll bar beside.
            drawn = QSize(size.width() - wider, std::min(layout->neededHeight, kMostCanvas));
            layout.emplace(m, loaded->computed, batch, drawn, false);
          }
          image = drawModelGrid(m, loaded->computed, batch, drawn, colormap, colors, false);
          break;
        }
        case ModelMode::rollout:
          image = drawRollout(m, model::attention_rollout(m, weights, batch, step), fitted,
                              colormap, colors);
          break;
        case ModelMode::flow:
          image = drawFlow(m, *flow, fitted, colormap, colors);
          break;
        case ModelMode::step:
          image =
              drawStepRows(m, model::step_rows(m, weights, step, batch), fitted, colormap, colors);
          break;
      }
    } catch (const std::exception& e) {
      problem = QString::fromUtf8(e.what());
    }
    scope.post([this, image, problem, mode, batch, layout, of = loaded.get(), key] {
      // The size it was drawn at is the one the canvas is about to have: the resizes that
      // follow find it drawn.
      if (m_drawnKey == key) m_drawnKey.size = image.size() / image.devicePixelRatio();
      // A grid whose rows need more height than the view has: the canvas grows and scrolls (to
      // the size the picture was drawn at; drawn again where another size comes of it).
      if (mode == ModelMode::grid && layout && of == m_loaded.get()) {
        fitCanvas(layout->neededHeight);
        // The canvas resized now, the scroll bar shown: one resize, to the size drawn.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
      }
      m_canvas->gridShown = mode == ModelMode::grid;
      m_canvas->imageBatch = batch;
      m_canvas->gridLayout = of == m_loaded.get() ? layout : std::nullopt;
      deliverPicture(image, problem);
    });
  });
  return true;
}

void ModelView::fitCanvas(int neededHeight) {
  constexpr int kLeast = 160;  // the canvas's own minimum
  constexpr int kMost = kMostCanvas;
  const int room = m_scroll->viewport()->height();
  int least = kLeast;
  if (neededHeight > room) {
    least = std::min(neededHeight, kMost);
  } else if (m_canvas->minimumHeight() > kLeast && neededHeight > room - 2 * fontMetrics().height()) {
    // Scrolling already, and the rows would only just fit without the scroll bar: stay (its
    // width back would change the picture's height needed, and the two could take turns).
    return;
  }
  if (m_canvas->minimumHeight() != least) m_canvas->setMinimumHeight(least);
}

}  // namespace mhaviz::ui
