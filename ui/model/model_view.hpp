#pragma once
// The model view: a whole model (mhaviz::model) as layers (rows) × heads (columns) of small
// attention maps, the caption, each layer's agreement with PyTorch, the sink rate, and instead of
// the grid the attention rollout, the attention flow or a generation step (ModelModeBar).
// Reading, computing (flow too) and drawing run as background tasks (ui/tasks); the GUI thread
// only shows the finished picture. On the grid, hovering names the cell under the pointer
// (hovered); a click selects a map's layer (layerSelected: the window makes it the session, the
// docks follow), a double click or "Open layer N" asks to work on it (layerChosen). The map
// outlined is the document's selection (Document::selection).

#include <QImage>
#include <QString>
#include <QTimer>
#include <QWidget>
#include <atomic>
#include <memory>
#include <optional>
#include <utility>

#include "mhaviz/core/model/model.hpp"
#include "model/model_grid_layout.hpp"
#include "model/model_mode_bar.hpp"
#include "stages/view_options.hpp"
#include "tasks/latest_task.hpp"

class QLabel;
class QScrollArea;
class QPushButton;
class QSpinBox;

namespace mhaviz::ui {

/// A model read and computed: what the view shows.
struct LoadedModel {
  QString displayName;  // the file name shown
  model::Model model;
  model::ComputedModel computed;
  std::int64_t batchSize = 1;  // batch elements of the first layer
  /// A model with an image: the pictures of its patches, one per batch element (null otherwise).
  std::shared_ptr<const model::PatchPictures> pictures;
};

class Document;
class ModelCanvas;

class ModelView : public QWidget {
  Q_OBJECT

 public:
  explicit ModelView(Document* document, QWidget* parent = nullptr);
  ~ModelView() override;

  /// Reads `indexPath` and computes every layer on a background thread. The model shown so far
  /// stays until the new one is ready; a failure is shown inline. `displayName` (default: the
  /// file's name) names it in the view.
  void openModel(const QString& indexPath, const QString& displayName = {});
  /// True while a model is read and computed, and then until its first picture is shown (and
  /// modelLoaded has made its first layer the session).
  [[nodiscard]] bool isBusy() const { return m_load.isBusy() || m_opening; }
  /// A picture is being drawn (the grid, a rollout, a step) off the GUI thread.
  [[nodiscard]] bool isDrawing() const { return m_draw.isBusy(); }
  /// Forgets the model (shown or being read): the view is empty again ("No model open").
  void closeModel();
  /// The model shown; null before the first one is ready.
  [[nodiscard]] std::shared_ptr<const LoadedModel> loaded() const { return m_loaded; }
  /// The inline message: what failed, empty when nothing did.
  [[nodiscard]] QString error() const;
  /// The picture on screen (the layers × heads grid, or the view chosen instead).
  [[nodiscard]] QImage picture() const;
  /// Where the map of (layer, head) is, in the canvas's coordinates; empty when not shown.
  [[nodiscard]] QRect mapRect(int layer, int head) const;
  [[nodiscard]] QWidget* canvas() const;
  /// The scroll area around the canvas: the layers × heads grid scrolls where its rows would be
  /// too short for their titles and readable maps (ModelGridLayout::neededHeight).
  [[nodiscard]] QScrollArea* scrollArea() const { return m_scroll; }
  /// What the view shows while no model is open, in place of the grid: a button that opens a
  /// model file and one per bundled example (exampleRequested, openFileRequested).
  [[nodiscard]] QWidget* startPage() const { return m_start; }
  /// The batch element shown: the document's selection's, within the model's.
  [[nodiscard]] int batch() const;
  /// The Batch element control: it sets the document's selection's batch element.
  [[nodiscard]] QSpinBox* batchBox() const { return m_batch; }
  /// The map outlined as selected (the document's): (layer, head), head -1 for the whole layer;
  /// layer -1: none.
  [[nodiscard]] std::pair<int, int> selected() const;
  /// "layer 1 (…), head 3: query 2 "c", key 5 "f", weight 0.92": the hover text of a cell.
  [[nodiscard]] QString cellText(const ModelCellHit& cell) const;
  /// A layer's whole title (its name and its agreement with PyTorch): the hover of its row.
  [[nodiscard]] QString layerText(int layer) const;
  void setColormap(Colormap colormap);
  void setShowRollout(bool on) { setMode(on ? ModelMode::rollout : ModelMode::grid); }
  void setMode(ModelMode mode);
  /// The view, step and sink threshold controls.
  [[nodiscard]] ModelModeBar* modes() const { return m_modes; }
  /// The lines above the grid as shown: the model's caption; the summary (its layers' agreement
  /// with PyTorch, red when one differs); the inline error; the hint on what a click does.
  [[nodiscard]] const QLabel* captionLine() const { return m_caption; }
  [[nodiscard]] const QLabel* summaryLine() const { return m_summary; }
  [[nodiscard]] const QLabel* errorLine() const { return m_error; }
  [[nodiscard]] const QLabel* hintLine() const { return m_hint; }
  /// "Open layer N": opens the selected layer (disabled, with the reason, for weights only).
  [[nodiscard]] QPushButton* openLayerButton() const { return m_open; }

 signals:
  /// A map was clicked: show that layer (and head) in the docks.
  void layerSelected(int layer, int head);
  /// A map was double-clicked (or "Open layer N" pressed): open that layer.
  void layerChosen(int layer, int head);
  /// The cell under the pointer, for the status bar (empty when the pointer leaves).
  void hovered(const QString& text);
  /// A model is read, computed and its first picture drawn (loaded() is it; modelFinished
  /// follows at once). Its first layer is opened on this signal: after the picture, so that the
  /// layer's computation does not hold the picture up.
  void modelLoaded();
  /// A model is read, computed and drawn (or failed: then error() is set); again after every
  /// picture drawn of it later (a resize, another batch element or mode).
  void modelFinished();
  /// The model asked for last (openModel) is drawn, or could not be opened (error() says why):
  /// once per opening, never for a later picture of it.
  void openEnded();
  /// closeModel() forgot the model.
  void modelClosed();
  /// The start page's buttons (no model open): File > Open's dialog, or a bundled example.
  void openFileRequested();
  void exampleRequested(const QString& name);

 private:
  friend class ModelCanvas;
  void deliverModel(std::shared_ptr<const LoadedModel> loaded, const QString& error);
  /// Says why the model asked for last could not be opened (empty: nothing); the line stays
  /// while the model before it is drawn again (deliverPicture).
  void showError(const QString& openError);
  void deliverPicture(const QImage& image, const QString& problem);
  /// Starts drawing the picture (or the attention flow it needs); false when nothing is drawn
  /// (no model, or a canvas not laid out yet).
  bool redraw();
  void startFlow(int batch, int step);
  void showSummary();
  void buildStartPage();
  /// The hint above the grid for `mode` (shown only there).
  void showHint(ModelMode mode);
  void finishOpening();
  /// "Open layer N" for the map selected in the model shown.
  void showOpenButton();
  /// Makes the canvas as tall as the grid drawn at `neededHeight` needs (0: the view's height).
  void fitCanvas(int neededHeight);

  /// What a picture was drawn for: a redraw for the same is not started again.
  struct DrawKey {
    const LoadedModel* model = nullptr;
    ModelMode mode = ModelMode::grid;
    int batch = -1;
    int step = -1;
    Colormap colormap = Colormap::viridis;
    QRgb background = 0, ink = 0;
    const model::AttentionFlow* flow = nullptr;
    QSize size;  // the canvas's size once the picture is shown
    bool operator==(const DrawKey&) const = default;
  };
  DrawKey m_drawnKey;  // the picture on screen, or being drawn
  QTimer m_resized;    // the canvas was resized: redraw once the burst of resizes is over
  LatestTask m_load{this};      // reads and computes the model asked for last
  LatestTask m_draw{this};      // draws the picture for the newest size, batch and colormap
  LatestTask m_flowTask{this};  // attention flow of the newest (batch, step) asked for
  std::shared_ptr<const model::AttentionFlow> m_flow;  // of (m_flowBatch, m_flowStep)
  int m_flowBatch = -1;
  int m_flowStep = -1;
  std::shared_ptr<const LoadedModel> m_loaded;
  bool m_opening = false;  // m_loaded's first picture is still to come (then: modelLoaded)
  // The model replaced last: the next drawing task releases it (hundreds of MiB at 12 x 12 x
  // 512), so that returning its memory never holds up the GUI thread.
  std::shared_ptr<const LoadedModel> m_retired;
  Colormap m_colormap = Colormap::viridis;
  QLabel* m_caption;
  QLabel* m_summary;
  QLabel* m_error;
  QString m_openError;  // why the model asked for last could not be opened (showError)
  QLabel* m_hint;
  ModelModeBar* m_modes;
  QSpinBox* m_batch;
  QPushButton* m_open;
  ModelCanvas* m_canvas;
  QScrollArea* m_scroll;
  QWidget* m_start;  // in the scroll area's place while no model is open
  Document* m_document;
};

}  // namespace mhaviz::ui
