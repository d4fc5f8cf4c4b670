#include "model/model_view.hpp"

#include <QApplication>
#include <QCommandLinkButton>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLayout>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

#include "document/document.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/model/weights_only.hpp"
#include "model/model_canvas.hpp"
#include "model/model_grid_layout.hpp"
#include "model/model_pages.hpp"
#include "model/model_picture.hpp"
#include "model/step_picture.hpp"

namespace mhaviz::ui {

namespace {

QString plainDifference(double d) {
  return std::isinf(d) ? QStringLiteral("∞") : QString::number(d, 'g', 2);
}

QString gridHint() {
  return ModelView::tr(
      "Click a map to show its layer in the docks; double-click it to open the layer in the "
      "full view.");
}

/// Why a weights-only model's layers cannot be opened (the Open button's tooltip and the hint).
QString storedWeightsReason() {
  return ModelView::tr(
      "This file holds attention weights only, no queries, keys, values or parameters: cell "
      "arithmetic, value norms, value zeroing, the logit scale, recomputing a layer and the stage "
      "walk-through need them and are not available.");
}

QString storedGridHint() {
  return ModelView::tr("Click a map to show its layer in the head view and the text view. %1")
      .arg(storedWeightsReason());
}

bool storedWeights(const std::shared_ptr<const LoadedModel>& loaded) {
  return loaded != nullptr && loaded->model.index.weights_only;
}

}  // namespace

ModelView::ModelView(Document* document, QWidget* parent)
    : QWidget(parent),
      m_caption(new QLabel),
      m_summary(new QLabel),
      m_error(new QLabel),
      m_hint(new QLabel(gridHint())),
      m_modes(new ModelModeBar),
      m_batch(new QSpinBox),
      m_open(new QPushButton(tr("&Open the layer"))),
      m_canvas(new ModelCanvas(this)),
      m_scroll(new QScrollArea),
      m_start(new QWidget),
      m_document(document) {
  setObjectName(QStringLiteral("modelView"));
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
  m_batch->setObjectName(QStringLiteral("modelBatch"));
  m_batch->setRange(0, 0);
  auto* batchLabel = new QLabel(tr("&Batch element"));
  batchLabel->setBuddy(m_batch);
  m_hint->setObjectName(QStringLiteral("modelHint"));
  m_hint->setWordWrap(true);  // the view never widens the window
  m_open->setObjectName(QStringLiteral("modelOpenLayer"));
  m_open->setToolTip(tr("Open the selected layer in the full view, to work on it"));
  m_open->setEnabled(false);
  connect(m_open, &QPushButton::clicked, this, [this] {
    const Selection& selected = m_document->selection();
    if (selected.layer >= 0) emit layerChosen(selected.layer, selected.head);
  });

  auto* controls = new QHBoxLayout;
  controls->addWidget(batchLabel);
  controls->addWidget(m_batch);
  controls->addSpacing(12);
  controls->addWidget(m_modes, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_caption);
  layout->addWidget(m_summary);
  layout->addWidget(m_error);
  layout->addLayout(controls);
  auto* hintRow = new QHBoxLayout;
  hintRow->addWidget(m_hint, 1);
  hintRow->addWidget(m_open, 0, Qt::AlignRight | Qt::AlignVCenter);  // the hint may hide
  layout->addLayout(hintRow);
  m_scroll->setObjectName(QStringLiteral("modelScroll"));
  m_scroll->setWidget(m_canvas);
  m_scroll->setWidgetResizable(true);  // the canvas fills it, and grows past it to scroll
  m_scroll->setFrameShape(QFrame::NoFrame);
  m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  layout->addWidget(m_scroll, 1);
  buildStartPage();
  layout->addWidget(m_start, 1);

  // Resizes come in bursts (a dock shown, the scroll bar appearing): the picture is drawn for
  // the size they end at.
  m_resized.setSingleShot(true);
  m_resized.setInterval(0);
  connect(&m_resized, &QTimer::timeout, this, [this] { redraw(); });
  connect(m_modes, &ModelModeBar::viewChanged, this, [this] { redraw(); });
  connect(m_batch, &QSpinBox::valueChanged, this, [this](int b) {
    Selection selection = m_document->selection();
    selection.batch = b;
    m_document->setSelection(selection);
  });
  connect(document, &Document::changed, this, [this](Document::Changes what) {
    if (!(what & Document::Change::selection)) return;
    showOpenButton();
    m_canvas->update();
    if (m_batch->value() != batch()) {
      const QSignalBlocker block(m_batch);
      m_batch->setValue(batch());
    }
    if (m_loaded && !m_opening && m_drawnKey.batch != batch()) redraw();  // (opening: below)
  });
  showSummary();
}

void ModelView::buildStartPage() {
  m_start->setObjectName(QStringLiteral("modelStart"));
  auto* column = new QVBoxLayout(m_start);
  auto* intro = new QLabel(
      tr("Open a model captured with mhaviz_capture (its index file, "
         "docs/capture-and-models.md) or a file of attention weights (.npz, .safetensors), or "
         "one of the small trained models that come with mhaviz:"));
  intro->setWordWrap(true);
  column->addWidget(intro);
  auto* file = new QCommandLinkButton(
      tr("Open a model file\u2026"),
      tr("The same as File > Open (%1)")
          .arg(QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText)));
  connect(file, &QAbstractButton::clicked, this, &ModelView::openFileRequested);
  column->addWidget(file);
  for (const ModelExample& example : modelExamples()) {
    auto* button = new QCommandLinkButton(example.name, example.title);
    button->setToolTip(example.caption);
    connect(button, &QAbstractButton::clicked, this,
            [this, name = example.name] { emit exampleRequested(name); });
    column->addWidget(button);
  }
  column->addStretch(1);
  m_start->setMaximumWidth(640);  // lines a person reads, not the width of the window
}

ModelView::~ModelView() = default;  // the tasks cancel what runs; nothing is delivered after

QString ModelView::error() const { return m_error->isHidden() ? QString() : m_error->text(); }
QImage ModelView::picture() const { return m_canvas->image; }
QWidget* ModelView::canvas() const { return m_canvas; }

QRect ModelView::mapRect(int layer, int head) const {
  const auto layout = m_canvas->layout();
  return layout ? layout->mapRect(layer, head) : QRect();
}

int ModelView::batch() const {
  if (!m_loaded) return 0;
  return std::clamp(m_document->selection().batch, 0, static_cast<int>(m_loaded->batchSize - 1));
}

std::pair<int, int> ModelView::selected() const {
  const Selection& selected = m_document->selection();
  return {selected.layer, selected.head};
}

void ModelView::showOpenButton() {
  // (a layer the model does not have selects nothing in it)
  const int layer = m_document->selection().layer;
  const bool shown = m_loaded != nullptr && layer >= 0 &&
                     static_cast<std::size_t>(layer) < m_loaded->model.layers.size();
  const bool stored = storedWeights(m_loaded);
  m_open->setEnabled(shown && !stored);
  m_open->setToolTip(stored ? storedWeightsReason()
                            : tr("Open the selected layer in the full view, to work on it"));
  // Numbered as the pictures and the caption number it (within its step in a generation capture).
  m_open->setText(
      shown
          ? tr("&Open layer %1").arg(model::layer_number(m_loaded->model.index, std::size_t(layer)))
          : tr("&Open the layer"));
}

QString ModelView::layerText(int layer) const {
  if (!m_loaded || layer < 0 || std::size_t(layer) >= m_loaded->model.layers.size()) return {};
  return modelLayerName(m_loaded->model, layer) + QStringLiteral(" — ") +
         modelLayerCheck(m_loaded->computed, layer);
}

QString ModelView::cellText(const ModelCellHit& cell) const {
  if (!cell.valid() || !m_loaded) return {};
  const model::Layer& layer = m_loaded->model.layers[static_cast<std::size_t>(cell.layer)];
  const Tensor& w = m_loaded->computed.weights[static_cast<std::size_t>(cell.layer)];
  const std::int64_t H = w.size(1), L = w.size(2), Sx = w.size(3);
  const std::int64_t batch = std::min<std::int64_t>(m_canvas->imageBatch, w.size(0) - 1);
  const double weight = w.value(((batch * H + cell.head) * L + cell.query) * Sx + cell.key);
  return tr("%1, head %2: query %3 \"%4\", key %5 \"%6\", weight %7")
      .arg(modelLayerName(m_loaded->model, cell.layer))
      .arg(cell.head)
      .arg(cell.query)
      .arg(modelQueryLabels(layer, L)[static_cast<int>(cell.query)])
      .arg(cell.key)
      .arg(modelKeyLabels(layer, Sx)[static_cast<int>(cell.key)])
      .arg(weight, 0, 'g', 4);
}

void ModelView::setColormap(Colormap colormap) {
  if (colormap == m_colormap) return;
  m_colormap = colormap;
  redraw();
}

void ModelView::setMode(ModelMode mode) { m_modes->setMode(mode); }

void ModelView::openModel(const QString& indexPath, const QString& displayName) {
  showError({});
  const QString name = displayName.isEmpty() ? QFileInfo(indexPath).fileName() : displayName;
  m_summary->setText(tr("Reading and computing %1…").arg(name));
  const std::string path = indexPath.toStdString();
  // Anything but an index is plain arrays of attention weights, labelled by position.
  const bool index = model::names_model_index(path);
  // A newer model asked for cancels this one (its computation stops at the next layer).
  m_load.start([this, path, name, index](const TaskScope& scope) {
    std::shared_ptr<const LoadedModel> done;
    QString error;
    try {
      auto loaded = std::make_shared<LoadedModel>();
      loaded->displayName = name;
      try {
        loaded->model = model::read_any_model(path, {});
      } catch (const InvalidInput& e) {
        if (index) throw;
        throw InvalidInput(
            std::string(e.what()) +
            tr(" (File > Open reads .npz and .safetensors files as attention weights; File > "
               "Load tensors… takes tensors with PyTorch's names as the session's.)")
                .toStdString());
      }
      RunControl control;
      control.cancel = scope.cancelFlag();
      // Every hardware thread (0, as the compute worker): the GUI thread only waits meanwhile.
      control.threads = 0;
      loaded->computed = model::compute_model(loaded->model, model::kDefaultTolerance, control);
      const Tensor& first = loaded->computed.weights.front();
      loaded->batchSize = first.dim() == 4 ? std::max<std::int64_t>(1, first.size(0)) : 1;
      if (loaded->model.index.image) {
        loaded->pictures = std::make_shared<const model::PatchPictures>(
            model::patch_pictures(*loaded->model.index.image, loaded->model.image));
      }
      done = std::move(loaded);
    } catch (const Cancelled&) {
      return;
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    scope.post([this, done, error] { deliverModel(done, error); });
  });
}

void ModelView::closeModel() {
  m_load.cancel();
  m_opening = false;
  showError({});
  m_flowTask.cancel();
  m_flow.reset();
  m_canvas->image = QImage();
  m_canvas->gridShown = false;
  m_canvas->gridLayout.reset();
  m_drawnKey = {};
  fitCanvas(0);
  m_modes->setModel(nullptr, nullptr);
  m_canvas->update();
  m_batch->blockSignals(true);
  m_batch->setRange(0, 0);
  m_batch->blockSignals(false);
  showOpenButton();
  // The model's memory is returned on a task's thread, as when a newer one replaces it.
  m_draw.start([loaded = std::move(m_loaded), retired = std::move(m_retired)](const TaskScope&) {});
  m_loaded.reset();
  m_retired.reset();
  showSummary();
  emit modelClosed();
}

void ModelView::deliverModel(std::shared_ptr<const LoadedModel> loaded, const QString& error) {
  if (!loaded) {
    showError(tr("Cannot open the model: %1").arg(error));
    showSummary();
    emit openEnded();
    emit modelFinished();
    return;
  }
  if (m_loaded) m_retired = std::move(m_loaded);  // released by the drawing task below
  m_loaded = std::move(loaded);
  m_canvas->gridLayout.reset();  // the old picture's, until the new one comes
  m_flowTask.cancel();
  m_flow.reset();
  m_modes->setModel(&m_loaded->model, &m_loaded->computed);
  // The first layer is opened (modelLoaded) once the picture is shown: its computation would
  // share the cores with the drawing.
  m_opening = true;
  m_batch->blockSignals(true);
  m_batch->setRange(0, static_cast<int>(m_loaded->batchSize - 1));
  m_batch->blockSignals(false);
  m_batch->setEnabled(m_loaded->batchSize > 1);
  // Nothing of the model before stays selected: its first batch element is drawn, and its
  // first layer selected on modelLoaded.
  m_document->setSelection({});
  showOpenButton();
  showSummary();
  // The new caption and summary may change the canvas's height: laid out now, the picture is
  // drawn once, at its final size (not a second time when the layout catches up).
  // (the view's layout, then the scroll area's, which sizes the canvas, are pending events)
  showHint(m_modes->mode());
  if (QLayout* l = layout()) l->activate();
  QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
  if (!redraw()) finishOpening();
}

void ModelView::showHint(ModelMode mode) {
  m_hint->setText(mode != ModelMode::grid ? QString()
                  : storedWeights(m_loaded) ? storedGridHint()
                                            : gridHint());
  m_hint->setVisible(mode == ModelMode::grid);
}

void ModelView::finishOpening() {
  if (!m_opening) return;
  m_opening = false;
  emit modelLoaded();
  emit openEnded();
}

void ModelView::showSummary() {
  // No model: the start page in the grid's place, and nothing to choose a view or batch of.
  m_start->setVisible(!m_loaded);
  m_scroll->setVisible(m_loaded != nullptr);
  m_modes->setEnabled(m_loaded != nullptr);
  m_open->setVisible(m_loaded != nullptr);
  if (!m_loaded) {
    m_hint->hide();  // no map to click (showHint shows it again with the next model)
    m_batch->setEnabled(false);
    m_caption->setText(tr("No model open."));
    m_summary->clear();
    return;
  }
  const model::Model& m = m_loaded->model;
  const model::ComputedModel& c = m_loaded->computed;
  m_caption->setText(m.index.caption.empty() ? m_loaded->displayName
                                             : m_loaded->displayName + QStringLiteral(" — ") +
                                                   QString::fromStdString(m.index.caption));
  if (m.index.weights_only) {
    QString text = tr("%1 attention layers of stored weights (a weights-only file: nothing is "
                      "recomputed or compared with PyTorch).")
                       .arg(m.layers.size());
    // A few warnings in full (one per layer could fill the view), then how many more.
    constexpr std::size_t kShown = 3;
    for (std::size_t i = 0; i < std::min(kShown, m.warnings.size()); ++i)
      text += QStringLiteral("\n") + tr("Warning: %1").arg(QString::fromStdString(m.warnings[i]));
    if (m.warnings.size() > kShown) {
      text += QStringLiteral("\n") +
              tr("… and %1 more layers whose rows do not sum to 1 (mhaviz-cli model --stats "
                 "lists them all).")
                  .arg(m.warnings.size() - kShown);
    }
    m_summary->setStyleSheet(m.warnings.empty() ? QString()
                                                : QStringLiteral("color: #b35900;"));
    m_summary->setText(text);
    return;
  }
  double worst = 0;
  QStringList differing;
  for (std::size_t i = 0; i < c.checks.size(); ++i) {
    worst = std::max(worst, c.checks[i].worst());
    if (!c.checks[i].ok) {
      differing << tr("%1 by %2")
                       .arg(modelLayerName(m.index, i),
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

void ModelView::startFlow(int batch, int step) {
  if (m_flowTask.isBusy() && m_flowBatch == batch && m_flowStep == step) return;
  m_flowBatch = batch;
  m_flowStep = step;
  m_flow.reset();
  m_hint->setText(tr("Computing the attention flow…"));
  m_hint->show();
  const QString what = tr("the Attention flow view");
  m_flowTask.start([this, loaded = m_loaded, batch, step, what](const TaskScope& scope) {
    std::shared_ptr<const model::AttentionFlow> flow;
    QString problem;
    try {
      RunControl control;
      control.cancel = scope.cancelFlag();
      control.progress = [this, scope](std::int64_t done, std::int64_t all) {
        scope.post([this, done, all] {
          m_hint->setText(tr("Computing the attention flow: %1 of %2 rows…").arg(done).arg(all));
        });
      };
      flow = std::make_shared<const model::AttentionFlow>(
          model::attention_flow(loaded->model, loaded->computed.weights, batch, step,
                                what.toStdString().c_str(), control));
    } catch (const Cancelled&) {
      return;
    } catch (const std::exception& e) {
      problem = QString::fromUtf8(e.what());
    }
    scope.post([this, flow, problem] {
      if (!flow) {
        m_canvas->gridShown = false;
        deliverPicture(QImage(), problem);
        return;
      }
      m_flow = flow;
      if (!redraw()) finishOpening();
    });
  });
}

void ModelView::showError(const QString& openError) {
  m_openError = openError;
  m_error->setText(m_openError);
  m_error->setVisible(!m_openError.isEmpty());
}

void ModelView::deliverPicture(const QImage& image, const QString& problem) {
  // A model that could not be opened is still said while the one before it is drawn again.
  const QString text = problem.isEmpty() ? m_openError
                       : m_openError.isEmpty()
                           ? tr("Cannot draw this view: %1").arg(problem)
                           : m_openError + u'\n' + tr("Cannot draw this view: %1").arg(problem);
  m_error->setText(text);
  m_error->setVisible(!text.isEmpty());
  m_canvas->image = image;
  m_canvas->update();
  finishOpening();
  emit modelFinished();
}

}  // namespace mhaviz::ui
