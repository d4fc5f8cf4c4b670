#include "window/model_view.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QSpinBox>
#include <QThread>
#include <QThreadPool>
#include <QVBoxLayout>
#include <exception>

#include "mhaviz/core/errors.hpp"
#include "model/model_picture.hpp"

namespace mhaviz::ui {

/// Shows the finished picture at its size and turns clicks into layerChosen; asks the view to
/// draw again when its size changes.
class ModelCanvas : public QWidget {
 public:
  explicit ModelCanvas(ModelView* view) : QWidget(view), m_view(view) {
    setObjectName(QStringLiteral("modelCanvas"));
    setMinimumSize(240, 160);
    setMouseTracking(true);
  }
  QImage image;
  bool rolloutShown = false;

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!image.isNull()) p.drawImage(QPoint(0, 0), image);
  }
  void resizeEvent(QResizeEvent*) override { m_view->redraw(); }
  void mouseMoveEvent(QMouseEvent* e) override {
    const auto loaded = m_view->loaded();
    const bool over = !rolloutShown && loaded &&
                      modelGridHit(loaded->model, size(), e->position().toPoint()).valid();
    setCursor(over ? Qt::PointingHandCursor : Qt::ArrowCursor);
  }
  void mouseReleaseEvent(QMouseEvent* e) override {
    const auto loaded = m_view->loaded();
    if (e->button() != Qt::LeftButton || rolloutShown || !loaded) return;
    const ModelGridHit hit = modelGridHit(loaded->model, size(), e->position().toPoint());
    if (hit.valid()) emit m_view->layerChosen(hit.layer, hit.head);
  }

 private:
  ModelView* m_view;
};

namespace {

/// Runs `work` on `pool`, then `done` on the GUI thread unless the view is gone by then.
template <typename Work, typename Done>
void inBackground(QThreadPool* pool, std::weak_ptr<void> alive, Work work, Done done) {
  pool->start([alive, work = std::move(work), done = std::move(done)]() mutable {
    auto result = work();
    QMetaObject::invokeMethod(
        qApp,
        [alive, done = std::move(done), result = std::move(result)]() mutable {
          if (alive.lock()) done(std::move(result));
        },
        Qt::QueuedConnection);
  });
}

QString plainDifference(double d) {
  return std::isinf(d) ? QStringLiteral("∞") : QString::number(d, 'g', 2);
}

}  // namespace

ModelView::ModelView(QWidget* parent)
    : QWidget(parent),
      m_alive(std::make_shared<Alive>(Alive{this})),
      m_loadPool(new QThreadPool(this)),
      m_drawPool(new QThreadPool(this)),
      m_cancel(std::make_shared<std::atomic<bool>>(false)),
      m_caption(new QLabel),
      m_summary(new QLabel),
      m_error(new QLabel),
      m_rollout(new QCheckBox(tr("Attention &rollout"))),
      m_batch(new QSpinBox),
      m_canvas(new ModelCanvas(this)) {
  setObjectName(QStringLiteral("modelView"));
  m_loadPool->setMaxThreadCount(1);
  m_drawPool->setMaxThreadCount(1);
  m_caption->setObjectName(QStringLiteral("modelCaption"));
  m_caption->setWordWrap(true);
  QFont bold = m_caption->font();
  bold.setBold(true);
  m_caption->setFont(bold);
  m_summary->setObjectName(QStringLiteral("modelSummary"));
  m_summary->setWordWrap(true);
  m_error->setObjectName(QStringLiteral("modelError"));
  m_error->setWordWrap(true);
  m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_error->setStyleSheet(QStringLiteral("color: #c81e1e;"));
  m_error->hide();
  m_rollout->setObjectName(QStringLiteral("modelRollout"));
  m_rollout->setToolTip(
      tr("Abnar & Zuidema's attention rollout across the self-attention "
         "layers, instead of the layers × heads maps"));
  m_batch->setObjectName(QStringLiteral("modelBatch"));
  m_batch->setRange(0, 0);
  auto* batchLabel = new QLabel(tr("&Batch element"));
  batchLabel->setBuddy(m_batch);
  auto* hint = new QLabel(tr("Click a map to open its layer in the full view."));
  hint->setObjectName(QStringLiteral("modelHint"));
  hint->setWordWrap(true);  // the view never widens the window

  auto* controls = new QHBoxLayout;
  controls->addWidget(batchLabel);
  controls->addWidget(m_batch);
  controls->addSpacing(12);
  controls->addWidget(m_rollout);
  controls->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_caption);
  layout->addWidget(m_summary);
  layout->addWidget(m_error);
  layout->addLayout(controls);
  layout->addWidget(hint);
  layout->addWidget(m_canvas, 1);

  connect(m_rollout, &QCheckBox::toggled, this, [this] { redraw(); });
  connect(m_batch, &QSpinBox::valueChanged, this, [this](int b) {
    m_batchValue = b;
    redraw();
  });
  showSummary();
}

ModelView::~ModelView() {
  m_cancel->store(true);
  m_alive.reset();  // results still on their way are dropped
}

QString ModelView::error() const { return m_error->isHidden() ? QString() : m_error->text(); }
QImage ModelView::picture() const { return m_canvas->image; }
QWidget* ModelView::canvas() const { return m_canvas; }

QRect ModelView::mapRect(int layer, int head) const {
  if (!m_loaded || m_canvas->rolloutShown || m_canvas->image.isNull()) return {};
  return modelGridMapRect(m_loaded->model, m_loaded->computed, m_canvas->image.size(), layer, head);
}

void ModelView::setColormap(Colormap colormap) {
  if (colormap == m_colormap) return;
  m_colormap = colormap;
  redraw();
}

void ModelView::setShowRollout(bool on) { m_rollout->setChecked(on); }

void ModelView::openModel(const QString& indexPath, const QString& displayName) {
  m_cancel->store(true);  // the model still computing is not wanted any more
  m_cancel = std::make_shared<std::atomic<bool>>(false);
  const quint64 generation = ++m_loadGeneration;
  m_busy = true;
  m_error->hide();
  const QString name = displayName.isEmpty() ? QFileInfo(indexPath).fileName() : displayName;
  m_summary->setText(tr("Reading and computing %1…").arg(name));
  struct Outcome {
    std::shared_ptr<const LoadedModel> loaded;
    QString error;
  };
  const std::string path = indexPath.toStdString();
  inBackground(
      m_loadPool, m_alive,
      [path, name, cancel = m_cancel]() -> Outcome {
        try {
          auto loaded = std::make_shared<LoadedModel>();
          loaded->displayName = name;
          loaded->model = model::read_model(path);
          RunControl control;
          control.cancel = cancel.get();
          // Leave one hardware thread to the GUI, as the compute worker does: with every
          // thread computing, the GUI thread waited up to ~50 ms for a core (mhaviz-window-bench).
          control.threads = std::max(1, QThread::idealThreadCount() - 1);
          loaded->computed = model::compute_model(loaded->model, model::kDefaultTolerance, control);
          const Tensor& first = loaded->computed.weights.front();
          loaded->batchSize = first.dim() == 4 ? std::max<std::int64_t>(1, first.size(0)) : 1;
          return {std::move(loaded), {}};
        } catch (const Cancelled&) {
          return {nullptr, {}};
        } catch (const std::exception& e) {
          return {nullptr, QString::fromUtf8(e.what())};
        }
      },
      [this, generation](Outcome o) { deliverModel(generation, o.loaded, o.error); });
}

void ModelView::deliverModel(quint64 generation, std::shared_ptr<const LoadedModel> loaded,
                             const QString& error) {
  if (generation != m_loadGeneration) return;  // a newer model was asked for
  m_busy = false;
  if (!loaded) {
    if (error.isEmpty()) return;  // cancelled
    m_error->setText(tr("Cannot open the model: %1").arg(error));
    m_error->show();
    showSummary();
    emit modelFinished();
    return;
  }
  // The model shown so far (hundreds of MiB at 12 x 12 x 512) is freed on the load thread, so
  // that returning its memory never holds up the GUI thread.
  if (m_loaded) m_loadPool->start([old = std::move(m_loaded)]() mutable { old.reset(); });
  m_loaded = std::move(loaded);
  m_batch->blockSignals(true);
  m_batch->setRange(0, static_cast<int>(m_loaded->batchSize - 1));
  m_batch->setValue(0);
  m_batch->blockSignals(false);
  m_batch->setEnabled(m_loaded->batchSize > 1);
  m_batchValue = 0;
  showSummary();
  redraw();
}

void ModelView::showSummary() {
  if (!m_loaded) {
    m_caption->setText(
        tr("No model open. File > Open accepts a model index (docs/capture-and-models.md); "
           "File > Examples holds two small trained models."));
    m_summary->clear();
    return;
  }
  const model::Model& m = m_loaded->model;
  const model::ComputedModel& c = m_loaded->computed;
  m_caption->setText(m.index.caption.empty() ? m_loaded->displayName
                                             : m_loaded->displayName + QStringLiteral(" — ") +
                                                   QString::fromStdString(m.index.caption));
  double worst = 0;
  QStringList differing;
  for (std::size_t i = 0; i < c.checks.size(); ++i) {
    worst = std::max(worst, c.checks[i].worst());
    if (!c.checks[i].ok) {
      differing << tr("%1 by %2")
                       .arg(QString::fromStdString(model::layer_title(m.layers[i].info, i)),
                            plainDifference(c.checks[i].worst()));
    }
  }
  if (differing.isEmpty()) {
    m_summary->setStyleSheet(QString());
    m_summary->setText(tr("%1 attention layers, each computed by mhaviz from its captured inputs; "
                          "every layer matches PyTorch's stored outputs (largest difference %2, "
                          "tolerance %3).")
                           .arg(m.layers.size())
                           .arg(plainDifference(worst))
                           .arg(model::kDefaultTolerance));
  } else {
    m_summary->setStyleSheet(QStringLiteral("color: #c81e1e; font-weight: bold;"));
    m_summary->setText(tr("%1 of %2 layers DIFFER from PyTorch's stored outputs by more than %3: "
                          "%4.")
                           .arg(differing.size())
                           .arg(m.layers.size())
                           .arg(model::kDefaultTolerance)
                           .arg(differing.join(QStringLiteral("; "))));
  }
}

void ModelView::redraw() {
  if (!m_loaded || m_canvas->size().isEmpty()) return;
  const quint64 generation = ++m_drawGeneration;
  const QSize size = m_canvas->size();
  const bool rollout = m_rollout->isChecked();
  const int batch = m_batchValue;
  const Colormap colormap = m_colormap;
  ModelPictureColors colors;
  colors.background = palette().color(QPalette::Base);
  colors.ink = palette().color(QPalette::Text);
  struct Drawn {
    QImage image;
    QString problem;
  };
  inBackground(
      m_drawPool, m_alive,
      [loaded = m_loaded, size, rollout, batch, colormap, colors]() -> Drawn {
        try {
          if (rollout) {
            const model::Rollout r =
                model::attention_rollout(loaded->model, loaded->computed.weights, batch);
            return {drawRollout(loaded->model, r, size, colormap, colors), {}};
          }
          return {drawModelGrid(loaded->model, loaded->computed, batch, size, colormap, colors),
                  {}};
        } catch (const std::exception& e) {
          return {{}, QString::fromUtf8(e.what())};
        }
      },
      [this, generation, rollout](Drawn d) {
        if (generation != m_drawGeneration) return;
        m_canvas->rolloutShown = rollout;
        deliverPicture(generation, d.image, d.problem);
      });
}

void ModelView::deliverPicture(quint64, const QImage& image, const QString& problem) {
  if (!problem.isEmpty()) {
    m_error->setText(tr("Cannot draw the rollout: %1").arg(problem));
    m_error->show();
  } else {
    m_error->hide();
  }
  m_canvas->image = image;
  m_canvas->update();
  emit modelFinished();
}

}  // namespace mhaviz::ui
