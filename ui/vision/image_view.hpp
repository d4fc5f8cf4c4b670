#pragma once
// The window's Image view (docs/window.md): for a model file with an image (format version 3),
// one query's attention over the picture — one head, the mean of the layer's heads, attention
// rollout or attention flow — with every head of the layer as small multiples. The class token
// is the query at first; clicking a patch makes it the query; hovering names the patch and its
// weight. Controls: what is shown, the head, a layer slider, the image (batch element), the
// overlay (the window's colour map at an opacity, or brightened), the upsampling (nearest or
// smooth) and Export (PNG, SVG, PDF). The scene is built as a LatestTask run (ui/tasks); the GUI thread
// only paints the finished one.

#include <QWidget>
#include <memory>

#include "model/model_view.hpp"
#include "tasks/latest_task.hpp"
#include "vision/image_picture.hpp"
#include "vision/image_scene.hpp"

class QComboBox;
class QDockWidget;
class QLabel;
class QMainWindow;
class QPushButton;
class QSlider;
class QSpinBox;
class QAction;

namespace mhaviz::ui {

class ImageCanvas;

class ImageView : public QWidget {
  Q_OBJECT

 public:
  explicit ImageView(QWidget* parent = nullptr);
  ~ImageView() override;

  /// Shows `loaded` (null: nothing). A model without an image says so; the request starts
  /// over: the first layer over the image, head 0, the first prefix token as the query.
  void setModel(std::shared_ptr<const LoadedModel> loaded);
  [[nodiscard]] bool hasImage() const;
  /// The colour map of the overlay: the window's (View > Colormap, as the heatmaps); rebuilds.
  /// It is kept across models and requests (setRequest's colormap is replaced by it).
  void setColormap(Colormap colormap);
  [[nodiscard]] Colormap colormap() const { return m_colormap; }
  /// What is asked; setRequest changes it (the controls follow) and rebuilds.
  [[nodiscard]] ImageRequest request() const { return m_request; }
  void setRequest(const ImageRequest& request);
  /// The scene on screen; null before the first.
  [[nodiscard]] std::shared_ptr<const ImageScene> scene() const { return m_scene; }
  [[nodiscard]] bool isBusy() const { return m_build.isBusy(); }
  /// The inline message: why nothing is shown, or what was refused; empty when all is well.
  [[nodiscard]] QString message() const;
  [[nodiscard]] QWidget* canvas() const;
  /// The picture's layout at the canvas's size.
  [[nodiscard]] ImagePictureLayout pictureLayout() const;
  /// Writes the scene on screen to `path` (.png, .svg, .pdf) at the canvas's size; returns the
  /// error, empty on success.
  QString exportTo(const QString& path) const;

 signals:
  /// The patch under the pointer and its weight, for the status bar (empty when it leaves).
  void hovered(const QString& text);
  /// A scene was built and is on screen (or refused: then message() says why).
  void sceneReady();

 private:
  friend class ImageCanvas;
  void rebuild();
  void syncControls();
  void readControls();
  void clickedAt(QPoint point);
  void exportDialog();
  void showMessage(const QString& text, bool error);

  LatestTask m_build{this};
  std::shared_ptr<const LoadedModel> m_loaded;
  std::shared_ptr<const ImageScene> m_scene;
  std::shared_ptr<const model::AttentionFlow> m_flow;  // of m_flowBatch
  int m_flowBatch = -1;
  ImageRequest m_request;
  Colormap m_colormap = Colormap::viridis;
  bool m_syncing = false;
  QComboBox* m_source;
  QSpinBox* m_head;
  QSlider* m_layer;
  QLabel* m_layerLabel;
  QSpinBox* m_batch;
  QComboBox* m_style;
  QSlider* m_opacity;
  QComboBox* m_upsampling;
  QPushButton* m_classToken;
  QPushButton* m_export;
  QLabel* m_message;
  ImageCanvas* m_canvas;
};

/// The Image view as a dock of `window` ("imageDock", hidden until asked for), following the
/// model view: a model with an image is shown, and its tab brought to the front.
struct ImageDock {
  ImageView* view = nullptr;
  QDockWidget* dock = nullptr;
  QAction* toggle = nullptr;  // View > Image view
};
ImageDock installImageView(QMainWindow* window, ModelView* models);

}  // namespace mhaviz::ui
