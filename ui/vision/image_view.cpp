// The window's Image view (image_view.hpp).

#include "vision/image_view.hpp"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <exception>

#include "mhaviz/core/base/errors.hpp"

namespace mhaviz::ui {

class ImageCanvas : public QWidget {
 public:
  explicit ImageCanvas(ImageView* view) : QWidget(view), m_view(view) {
    setMouseTracking(true);
    setMinimumSize(240, 200);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setCursor(Qt::PointingHandCursor);
  }

 protected:
  void paintEvent(QPaintEvent* /*event*/) override {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    if (const auto scene = m_view->scene()) paintImagePicture(p, *scene, size(), colors());
  }
  void mouseMoveEvent(QMouseEvent* event) override {
    const auto scene = m_view->scene();
    if (!scene) return;
    const QString text = imageHitText(
        *scene, imageHitAt(*scene, m_view->pictureLayout(), event->position().toPoint()));
    setToolTip(text);
    emit m_view->hovered(text);
  }
  void leaveEvent(QEvent* /*event*/) override { emit m_view->hovered(QString()); }
  void mousePressEvent(QMouseEvent* event) override {
    if (event->button() == Qt::LeftButton) m_view->clickedAt(event->position().toPoint());
  }
  void resizeEvent(QResizeEvent* /*event*/) override { update(); }

 public:
  [[nodiscard]] ImagePictureColors colors() const {
    return {palette().color(QPalette::Base), palette().color(QPalette::Text)};
  }

 private:
  ImageView* m_view;
};

ImageView::ImageView(QWidget* parent) : QWidget(parent) {
  auto* top = new QVBoxLayout(this);
  auto* controls = new QGridLayout;
  top->addLayout(controls);
  m_source = new QComboBox;
  m_source->addItem(tr("One head"));
  m_source->addItem(tr("Mean of heads"));
  m_source->addItem(tr("Attention rollout"));
  m_source->addItem(tr("Attention flow"));
  m_source->setToolTip(
      tr("What the large picture shows; the small ones are always the heads of "
         "the layer"));
  m_head = new QSpinBox;
  m_head->setToolTip(tr("The head shown large"));
  m_layer = new QSlider(Qt::Horizontal);
  m_layer->setPageStep(1);
  m_layer->setToolTip(tr("The layer: its heads are the small pictures"));
  m_layerLabel = new QLabel;
  m_batch = new QSpinBox;
  m_batch->setToolTip(tr("The image (batch element) of the capture"));
  m_style = new QComboBox;
  m_style->addItem(tr("Colour map"));
  m_style->addItem(tr("Brighten"));
  m_style->setToolTip(
      tr("Colour map: the weights' colours over the picture at the opacity; "
         "Brighten: the picture as bright as the weight"));
  m_opacity = new QSlider(Qt::Horizontal);
  m_opacity->setRange(0, 100);
  m_opacity->setToolTip(tr("Opacity of the colour map over the picture"));
  m_upsampling = new QComboBox;
  m_upsampling->addItem(tr("Nearest (exact patches)"));
  m_upsampling->addItem(tr("Smooth (bilinear)"));
  m_upsampling->setToolTip(
      tr("From patches to pixels: each patch one colour, or bilinear "
         "between patch centres"));
  m_classToken = new QPushButton(tr("First token"));
  m_classToken->setToolTip(
      tr("Make the first prefix token (the class token) the query again; "
         "click a patch to make it the query"));
  m_export = new QPushButton(tr("Export\u2026"));
  m_export->setToolTip(tr("Save the picture as PNG, SVG or PDF"));
  const auto label = [](const QString& text, QWidget* buddy) {
    auto* l = new QLabel(text);
    l->setBuddy(buddy);
    return l;
  };
  // Two pairs of label and control a row: the view fits the Model workspace's right column.
  controls->addWidget(label(tr("&Show"), m_source), 0, 0);
  controls->addWidget(m_source, 0, 1);
  controls->addWidget(label(tr("H&ead"), m_head), 0, 2);
  controls->addWidget(m_head, 0, 3);
  auto* layerRow = new QHBoxLayout;
  layerRow->addWidget(m_layer, 1);
  layerRow->addWidget(m_layerLabel);
  controls->addWidget(label(tr("&Layer"), m_layer), 1, 0);
  controls->addLayout(layerRow, 1, 1);
  controls->addWidget(label(tr("I&mage"), m_batch), 1, 2);
  controls->addWidget(m_batch, 1, 3);
  controls->addWidget(label(tr("O&verlay"), m_style), 2, 0);
  controls->addWidget(m_style, 2, 1);
  controls->addWidget(label(tr("&Opacity"), m_opacity), 2, 2);
  controls->addWidget(m_opacity, 2, 3);
  controls->addWidget(label(tr("&Upsampling"), m_upsampling), 3, 0);
  controls->addWidget(m_upsampling, 3, 1);
  auto* queryRow = new QHBoxLayout;
  queryRow->addWidget(m_classToken);
  queryRow->addWidget(m_export);
  controls->addLayout(queryRow, 3, 2, 1, 2);
  controls->setColumnStretch(1, 2);
  controls->setColumnStretch(3, 1);
  for (QComboBox* box : {m_source, m_style, m_upsampling}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(8);
  }
  m_opacity->setMinimumWidth(60);
  m_message = new QLabel;
  m_message->setWordWrap(true);
  top->addWidget(m_message);
  m_canvas = new ImageCanvas(this);
  top->addWidget(m_canvas, 1);

  const auto changed = [this] {
    if (m_syncing) return;
    readControls();
    rebuild();
  };
  connect(m_source, &QComboBox::currentIndexChanged, this, changed);
  connect(m_head, &QSpinBox::valueChanged, this, changed);
  connect(m_layer, &QSlider::valueChanged, this, changed);
  connect(m_batch, &QSpinBox::valueChanged, this, changed);
  connect(m_style, &QComboBox::currentIndexChanged, this, changed);
  connect(m_opacity, &QSlider::valueChanged, this, changed);
  connect(m_upsampling, &QComboBox::currentIndexChanged, this, changed);
  connect(m_classToken, &QPushButton::clicked, this, [this] {
    m_request.query = 0;
    rebuild();
  });
  connect(m_export, &QPushButton::clicked, this, &ImageView::exportDialog);
  setModel(nullptr);
}

ImageView::~ImageView() = default;

QWidget* ImageView::canvas() const { return m_canvas; }

QString ImageView::message() const {
  return m_message->isVisible() ? m_message->text() : QString();
}

bool ImageView::hasImage() const { return m_loaded && m_loaded->model.index.image.has_value(); }

ImagePictureLayout ImageView::pictureLayout() const {
  return m_scene ? layoutImagePicture(*m_scene, m_canvas->size()) : ImagePictureLayout{};
}

void ImageView::showMessage(const QString& text, bool error) {
  m_message->setText(text);
  m_message->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
  m_message->setVisible(!text.isEmpty());
}

void ImageView::setModel(std::shared_ptr<const LoadedModel> loaded) {
  m_build.cancel();
  m_loaded = std::move(loaded);
  m_scene.reset();
  m_flow.reset();
  m_flowBatch = -1;
  m_request = ImageRequest{};
  m_request.colormap = m_colormap;
  const bool image = hasImage();
  for (QWidget* w :
       std::initializer_list<QWidget*>{m_source, m_head, m_layer, m_batch, m_style, m_opacity,
                                       m_upsampling, m_classToken, m_export})
    w->setEnabled(image);
  if (!m_loaded) {
    showMessage(tr("Open a model file with an image (File > Examples > squares, or a capture "
                   "made with capture_model(model, name, image=...)) to see its attention over "
                   "the image."),
                false);
  } else if (!image) {
    showMessage(tr("%1 has no image: the Image view shows vision transformers captured with "
                   "mhaviz_capture.capture_model(model, name, image=...).")
                    .arg(m_loaded->displayName),
                false);
  } else {
    showMessage(QString(), false);
    m_request.layer = static_cast<int>(model::image_layers(m_loaded->model.index).front());
  }
  syncControls();
  m_canvas->update();
  if (image) rebuild();
}

void ImageView::setRequest(const ImageRequest& request) {
  m_request = request;
  m_request.colormap = m_colormap;
  syncControls();
  rebuild();
}

void ImageView::setColormap(Colormap colormap) {
  if (colormap == m_colormap) return;
  m_colormap = colormap;
  m_request.colormap = colormap;
  rebuild();
}

void ImageView::syncControls() {
  m_syncing = true;
  const ImageRequest& r = m_request;
  int index = 0;
  if (r.source == ImageSource::rollout)
    index = 2;
  else if (r.source == ImageSource::flow)
    index = 3;
  else if (r.head == -1)
    index = 1;
  m_source->setCurrentIndex(index);
  if (hasImage()) {
    const model::Model& m = m_loaded->model;
    const std::vector<std::size_t> layers = model::image_layers(m.index);
    m_layer->setRange(0, static_cast<int>(layers.size()) - 1);
    const auto at = std::find(layers.begin(), layers.end(), static_cast<std::size_t>(r.layer));
    const int position = at == layers.end() ? static_cast<int>(layers.size()) - 1
                                            : static_cast<int>(at - layers.begin());
    m_layer->setValue(position);
    m_layerLabel->setText(tr("layer %1").arg(layers[static_cast<std::size_t>(position)]));
    const int heads = static_cast<int>(
        m.layers[layers[static_cast<std::size_t>(position)]].problem.config.num_heads);
    m_head->setRange(0, heads - 1);
    m_batch->setRange(0, static_cast<int>(m.image.input.size(0)) - 1);
  }
  m_head->setValue(std::max(r.head, 0));
  m_head->setEnabled(hasImage() && index == 0);
  m_batch->setValue(r.batch);
  m_style->setCurrentIndex(r.style == model::OverlayStyle::brighten ? 1 : 0);
  m_opacity->setValue(static_cast<int>(std::lround(r.opacity * 100)));
  m_opacity->setEnabled(hasImage() && r.style == model::OverlayStyle::colormap);
  m_upsampling->setCurrentIndex(r.upsampling == model::Upsampling::smooth ? 1 : 0);
  m_syncing = false;
}

void ImageView::readControls() {
  ImageRequest& r = m_request;
  const int index = m_source->currentIndex();
  r.source = index == 2 ? ImageSource::rollout : index == 3 ? ImageSource::flow : ImageSource::head;
  r.head = index == 1 ? -1 : m_head->value();
  if (hasImage()) {
    const std::vector<std::size_t> layers = model::image_layers(m_loaded->model.index);
    r.layer = static_cast<int>(layers[static_cast<std::size_t>(
        std::clamp(m_layer->value(), 0, static_cast<int>(layers.size()) - 1))]);
  }
  r.batch = m_batch->value();
  r.style =
      m_style->currentIndex() == 1 ? model::OverlayStyle::brighten : model::OverlayStyle::colormap;
  r.opacity = m_opacity->value() / 100.0;
  r.upsampling =
      m_upsampling->currentIndex() == 1 ? model::Upsampling::smooth : model::Upsampling::nearest;
  syncControls();  // the head range of another layer, the opacity's use
}

void ImageView::rebuild() {
  if (!hasImage()) return;
  const ImageRequest request = m_request;
  const bool needFlow =
      request.source == ImageSource::flow && (!m_flow || m_flowBatch != request.batch);
  std::shared_ptr<const model::AttentionFlow> flow =
      request.source == ImageSource::flow && !needFlow ? m_flow : nullptr;
  const QString flowWhat = tr("the Image view's attention flow");
  if (needFlow) showMessage(tr("Computing the attention flow\u2026"), false);
  m_build.start(
      [this, loaded = m_loaded, request, needFlow, flow, flowWhat](const TaskScope& scope) mutable {
        std::shared_ptr<const ImageScene> scene;
        QString problem;
        try {
          if (needFlow) {
            RunControl control;
            control.cancel = scope.cancelFlag();
            flow = std::make_shared<const model::AttentionFlow>(
                model::attention_flow(loaded->model, loaded->computed.weights, request.batch, -1,
                                      flowWhat.toUtf8().constData(), control));
          }
          scene = std::make_shared<const ImageScene>(
              buildImageScene(loaded->model, loaded->computed, request, flow.get()));
        } catch (const Cancelled&) {
          return;
        } catch (const std::exception& e) {
          problem = QString::fromUtf8(e.what());
        }
        scope.post([this, scene, problem, flow, needFlow, batch = request.batch] {
          if (needFlow && flow) {
            m_flow = flow;
            m_flowBatch = batch;
          }
          if (scene) {
            m_scene = scene;
            showMessage(QString(), false);
          } else {
            showMessage(problem, true);
          }
          m_canvas->update();
          emit sceneReady();
        });
      });
}

void ImageView::clickedAt(QPoint point) {
  if (!m_scene) return;
  const ImageHit hit = imageHitAt(*m_scene, pictureLayout(), point);
  if (hit.token < 0) return;
  m_request.query = hit.token;
  rebuild();
}

QString ImageView::exportTo(const QString& path) const {
  if (!m_scene) return tr("nothing to export: no image is shown");
  return writeImagePicture(path, *m_scene, m_canvas->size(), m_canvas->colors());
}

void ImageView::exportDialog() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export the image view"), QStringLiteral("image_view.png"),
      tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
  if (path.isEmpty()) return;
  const QString error = exportTo(path);
  showMessage(error, !error.isEmpty());
}

namespace {

/// The Image view in its dock: it scrolls up and down in a short dock (its controls and the
/// picture need ~380 px, and as a tab beside the head view that minimum held the whole right
/// column of the Model workspace, squeezing the head measures above to a strip), never sideways.
class ImageScroll : public QScrollArea {
 public:
  explicit ImageScroll(ImageView* view) : m_view(view) {
    setObjectName(QStringLiteral("imageScroll"));
    setWidget(view);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  }
  [[nodiscard]] QSize minimumSizeHint() const override {
    const QSize view = m_view->minimumSizeHint();
    return {view.width() + verticalScrollBar()->sizeHint().width() + 2 * frameWidth(),
            std::min(view.height(), 160)};
  }

 private:
  ImageView* m_view;
};

}  // namespace

ImageDock installImageView(QMainWindow* window, ModelView* models) {
  ImageDock out;
  out.view = new ImageView;
  out.dock =
      new QDockWidget(QCoreApplication::translate("mhaviz::ui::ImageView", "Image view"), window);
  out.dock->setObjectName(QStringLiteral("imageDock"));
  out.dock->setWidget(new ImageScroll(out.view));
  out.dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                        QDockWidget::DockWidgetClosable);
  window->addDockWidget(Qt::RightDockWidgetArea, out.dock);
  out.dock->hide();
  out.toggle = out.dock->toggleViewAction();
  out.toggle->setText(QCoreApplication::translate("mhaviz::ui::ImageView", "&Image view"));
  out.toggle->setToolTip(QCoreApplication::translate(
      "mhaviz::ui::ImageView",
      "Show the image view: a vision transformer's attention over its image"));
  ImageView* view = out.view;
  QDockWidget* dock = out.dock;
  // The dock comes with a model that has an image and goes with it; between two models alike
  // it stays as the user left it (closed, or opened to read why a text model has none).
  QObject::connect(models, &ModelView::modelLoaded, view, [view, dock, models, window] {
    const bool had = view->hasImage();
    view->setModel(models->loaded());
    if (had != view->hasImage()) dock->setVisible(view->hasImage());
    if (!view->hasImage() || dock->isHidden()) return;
    dock->raise();
    // The first model with an image gets the picture room (the workspace's column is narrow
    // for a head view); later ones keep what the user made of it.
    if (!had && !dock->isFloating()) {
      window->resizeDocks({dock}, {window->width() * 40 / 100}, Qt::Horizontal);
      window->resizeDocks({dock}, {window->height() * 62 / 100}, Qt::Vertical);
    }
  });
  QObject::connect(models, &ModelView::modelClosed, view, [view, dock] {
    if (view->hasImage()) dock->hide();
    view->setModel(nullptr);
  });
  return out;
}

}  // namespace mhaviz::ui
