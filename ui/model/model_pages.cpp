#include "model/model_pages.hpp"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QTemporaryDir>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

#include "document/document.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/model/model.hpp"
#include "mhaviz/core/model/weights_only.hpp"
#include "model/layer_tensors.hpp"
#include "model/model_grid_layout.hpp"
#include "model/model_view.hpp"
#include "session/session_file.hpp"
#include "session/session_files.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

namespace {

QString resourcePath(const QString& name, const char* suffix) {
  return QStringLiteral(":/examples/models/") + name + QLatin1String(suffix);
}

}  // namespace

QList<ModelExample> modelExamples() {
  QList<ModelExample> out;
  for (const QString& name : {QStringLiteral("reverse"), QStringLiteral("copy"),
                              QStringLiteral("generate"), QStringLiteral("squares")}) {
    QFile file(resourcePath(name, ".json"));
    if (!file.open(QIODevice::ReadOnly)) continue;  // built without the models
    const QByteArray text = file.readAll();
    try {
      const model::ModelIndex index = model::parse_model_index(
          std::string_view(text.constData(), static_cast<std::size_t>(text.size())),
          (name + QStringLiteral(".json")).toStdString());
      const QString caption = QString::fromStdString(index.caption);
      // A short title in the menu's language (the model's own caption, English and a sentence
      // long, ran off a 1280-pixel screen): the caption is the entry's status tip and tooltip.
      const QString title = name == QLatin1String("reverse") ? ModelPages::tr("reverses its input")
                            : name == QLatin1String("copy")
                                ? ModelPages::tr("a copy head continues a repeated sequence")
                            : name == QLatin1String("generate")
                                ? ModelPages::tr("generates step by step with a KV cache")
                            : name == QLatin1String("squares")
                                ? ModelPages::tr("a vision transformer finds the small square")
                                : caption;
      out.push_back({name, caption, title});
    } catch (const std::exception&) {
      continue;  // a damaged resource is left out of the menu (the model tests catch it)
    }
  }
  return out;
}

ModelPages::ModelPages(QWidget* layerView, Document* document, QWidget* parent)
    : QStackedWidget(parent),
      m_document(document),
      m_modelView(new ModelView(document)),
      m_layerBar(new QWidget),
      m_layerText(new QLabel),
      m_back(new QPushButton(tr("Back to the model view"))),
      m_toModel(new QAction(tr("&Model view"), this)) {
  setObjectName(QStringLiteral("centralPages"));
  auto* layerPage = new QWidget;
  m_back->setObjectName(QStringLiteral("backToModel"));
  m_layerText->setObjectName(QStringLiteral("modelLayerText"));
  m_layerText->setWordWrap(true);  // never widens the window
  auto* bar = new QHBoxLayout(m_layerBar);
  bar->setContentsMargins(6, 2, 6, 2);
  bar->addWidget(m_layerText, 1);
  bar->addWidget(m_back);
  m_layerBar->setObjectName(QStringLiteral("modelLayerBar"));
  m_layerBar->hide();
  auto* layout = new QVBoxLayout(layerPage);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(m_layerBar);
  layout->addWidget(layerView, 1);
  addWidget(layerPage);
  addWidget(m_modelView);

  m_toModel->setObjectName(QStringLiteral("modelViewAction"));
  m_toModel->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
  m_toModel->setCheckable(true);
  m_toModel->setEnabled(false);
  connect(m_toModel, &QAction::triggered, this,
          [this](bool on) { on ? showModelView() : showLayerView(); });
  connect(m_back, &QPushButton::clicked, this, &ModelPages::showModelView);
  connect(m_modelView, &ModelView::layerSelected, this, &ModelPages::selectLayer);
  connect(m_modelView, &ModelView::layerChosen, this, &ModelPages::openLayer);
  connect(m_modelView, &ModelView::exampleRequested, this, &ModelPages::openModelExample);
  connect(m_modelView, &ModelView::openFileRequested, this, [this] {
    if (m_session != nullptr) m_session->openDialog();
  });
  // The first layer as the session, so that every dock describes the model on screen.
  connect(m_modelView, &ModelView::modelLoaded, this, [this] {
    if (showStoredLayer(0, -1)) return;
    applyLayer(0, -1);
    m_document->setSelection({0, -1});
    followStep();  // a generation capture opens at its last step
  });
  connect(m_modelView->modes(), &ModelModeBar::viewChanged, this, [this] { followStep(); });
  connect(document, &Document::changed, this, [this, document](Document::Changes what) {
    // A weights-only layer's token views and measures follow the batch element shown.
    const Selection& selected = document->selection();
    if ((what & Document::Change::selection) && selected.layer >= 0 &&
        selected.batch != m_storedBatch) {
      showStoredLayer(selected.layer, selected.head);
    }
    if (what & Document::Change::origin) followOrigin();
    if (what & Document::Change::view) m_modelView->setColormap(document->view().colormap);
    if (what & (Document::Change::config | Document::Change::view)) updateBar();
  });
  connect(this, &QStackedWidget::currentChanged, this,
          [this] { m_toModel->setChecked(showingModel()); });
  m_modelView->setColormap(document->view().colormap);
}

ModelPages::~ModelPages() = default;

bool ModelPages::showingModel() const { return currentWidget() == m_modelView; }

void ModelPages::setVisible(bool visible) {
  const bool wasHidden = isHidden();
  QStackedWidget::setVisible(visible);
  if (isHidden() != wasHidden) emit shownChanged();
}

void ModelPages::showModelView() { setCurrentWidget(m_modelView); }

void ModelPages::showLayerView() { setCurrentIndex(0); }

void ModelPages::openModel(const QString& indexPath) {
  if (m_session != nullptr && !m_session->maybeSave()) return;
  m_modelOpen = true;
  m_toModel->setEnabled(true);
  showModelView();
  emit modelOpening();
  m_modelView->openModel(indexPath);
}

void ModelPages::followOrigin() {
  if (m_applying || !m_modelOpen) {
    updateBar();
    return;
  }
  // Something else was opened while the model was shown or read: nothing of it stays.
  closeModel();
}

void ModelPages::closeModel() {
  m_modelOpen = false;
  m_storedText.clear();
  m_storedBatch = -1;
  m_storedMeasures.cancel();
  emit storedLayerShown(nullptr, ViewOptions{});
  m_modelView->closeModel();
  m_document->setSelection({});
  m_toModel->setEnabled(false);
  showLayerView();
  updateBar();
}

void ModelPages::setPresentation(bool on) {
  m_presenting = on;
  updateBar();
}

QString ModelPages::layerText() const {
  const SessionOrigin& origin = m_document->origin();
  if (!m_modelOpen || !origin.isModelLayer()) return {};
  const int head = m_document->view().soloHead;
  QString text = head >= 0 ? tr("%1 of %2, head %3").arg(origin.layerTitle, origin.model).arg(head)
                           : tr("%1 of %2, all heads").arg(origin.layerTitle, origin.model);
  if (!(m_document->config() == origin.config)) text += tr(" (edited)");
  return text;
}

void ModelPages::updateBar() {
  const QString text = layerText();
  m_layerText->setText(text);
  m_layerBar->setVisible(!text.isEmpty() && !m_presenting);
}

bool ModelPages::openModelExample(const QString& name) {
  if (!m_examplesDir) {
    m_examplesDir = std::make_unique<QTemporaryDir>();
    if (!m_examplesDir->isValid()) {
      m_examplesDir.reset();
      return false;
    }
  }
  const QDir dir(m_examplesDir->path());
  for (const char* suffix : {".json", ".npz"}) {
    const QString target = dir.filePath(name + QLatin1String(suffix));
    if (!QFileInfo::exists(target) && !QFile::copy(resourcePath(name, suffix), target))
      return false;
  }
  openModel(dir.filePath(name + QStringLiteral(".json")));
  return true;
}

bool ModelPages::showStoredLayer(int layer, int head) {
  const std::shared_ptr<const LoadedModel> loaded = m_modelView->loaded();
  if (!loaded || !loaded->model.index.weights_only || layer < 0 ||
      std::size_t(layer) >= loaded->model.layers.size()) {
    return false;
  }
  const model::Layer& l = loaded->model.layers[std::size_t(layer)];
  auto result = std::make_shared<const ForwardResult>(model::weights_result(l));
  ViewOptions view;
  view.stage = Stage::weights;
  view.soloHead = head;
  view.batch = m_modelView->batch();
  view.kvHeads = static_cast<int>(l.info.kv_heads);
  view = fitView(view, viewBounds(*result));
  m_storedBatch = view.batch;
  m_document->setSelection({layer, head, view.batch});
  m_storedText = tr("%1 of %2 (stored weights)")
                     .arg(modelLayerName(loaded->model.index, std::size_t(layer)),
                          loaded->displayName);
  emit storedLayerShown(result, view);
  m_storedMeasures.start([this, result, batch = view.batch](const TaskScope& scope) {
    RunControl control;
    control.cancel = scope.cancelFlag();
    std::shared_ptr<const ResultMeasures> measures;
    try {
      measures = std::make_shared<const ResultMeasures>(measure_result(*result, Inputs{}, control));
    } catch (const std::exception&) {
      return;  // cancelled (a newer layer was shown); stored weights are checked on reading
    }
    scope.post([this, result, measures, batch] { emit storedMeasuresReady(result, measures, batch); });
  });
  return true;
}

bool ModelPages::makeLayerTheSession(int layer, int head) {
  if (showStoredLayer(layer, head)) return false;  // a weights-only layer: no session to open
  const SessionOrigin& origin = m_document->origin();
  if (m_modelOpen && origin.isModelLayer() && origin.layer == layer) {
    // Already the session (edited or not): only the head shown changes.
    ViewOptions view = m_document->view();
    view.soloHead = head;
    m_document->setView(view);
  } else {
    if (m_session == nullptr || !m_session->maybeSave()) return false;
    applyLayer(layer, head);
  }
  m_document->setSelection({layer, head, m_document->selection().batch});
  return true;
}

void ModelPages::selectLayer(int layer, int head) { makeLayerTheSession(layer, head); }

void ModelPages::followStep() {
  const std::shared_ptr<const LoadedModel> loaded = m_modelView->loaded();
  const ModelModeBar* modes = m_modelView->modes();
  if (!loaded || !m_modelOpen || modes->mode() != ModelMode::step || modes->step() < 0) return;
  const SessionOrigin& origin = m_document->origin();
  const std::vector<model::Layer>& layers = loaded->model.layers;
  if (!origin.isModelLayer() || origin.layer < 0 || std::size_t(origin.layer) >= layers.size())
    return;
  if (m_session == nullptr || m_session->isModified()) return;  // never drop edits unasked
  try {
    const model::ModelIndex& index = loaded->model.index;
    const std::vector<std::size_t> from =
        model::step_layers(index, layers[std::size_t(origin.layer)].info.step);
    const std::vector<std::size_t> to = model::step_layers(index, modes->step());
    const auto place = static_cast<std::size_t>(
        std::find(from.begin(), from.end(), std::size_t(origin.layer)) - from.begin());
    if (to.empty()) return;
    const int target = static_cast<int>(to[std::min(place, to.size() - 1)]);
    if (target == origin.layer) return;
    const int head = m_document->view().soloHead;
    applyLayer(target, head);
    m_document->setSelection({target, head, m_document->selection().batch});
  } catch (const InvalidInput&) {
    // a step the index does not have: the session stays as it is
  }
}

void ModelPages::openLayer(int layer, int head) {
  if (makeLayerTheSession(layer, head)) showLayerView();
}

void ModelPages::applyLayer(int layer, int head) {
  const std::shared_ptr<const LoadedModel> loaded = m_modelView->loaded();
  if (!loaded || layer < 0 || std::size_t(layer) >= loaded->model.layers.size()) return;
  if (m_session == nullptr) return;
  const model::Layer& l = loaded->model.layers[std::size_t(layer)];
  Session session;
  session.config = l.problem.config;
  session.tensors = std::make_shared<const mhaviz::io::TensorMap>(layerTensors(l));
  session.embedTensors = true;  // a saved session carries the layer with it
  session.view = m_document->view();
  session.view.stage = Stage::weights;
  session.view.soloHead = head;
  session.view.batch = m_modelView->batch();
  session.origin.model = loaded->displayName;
  session.origin.layerTitle =
      modelLayerName(loaded->model.index, std::size_t(layer));
  session.origin.layer = layer;
  session.origin.config = l.problem.config;
  const std::vector<std::size_t> overImage = model::image_layers(loaded->model.index);
  if (std::find(overImage.begin(), overImage.end(), std::size_t(layer)) != overImage.end())
    session.origin.pictures = loaded->pictures;
  m_applying = true;
  m_session->applySession(session, QString(), true);
  m_applying = false;
  updateBar();
}

void ModelPages::addExamples(QMenu* examples) {
  const QList<ModelExample> models = modelExamples();
  if (models.isEmpty()) return;
  examples->addSeparator();
  for (const ModelExample& m : models) {
    QAction* a = examples->addAction(tr("Model \u201c%1\u201d: %2").arg(m.name, m.title));
    a->setStatusTip(m.caption);
    a->setToolTip(m.caption);
    a->setObjectName(QStringLiteral("modelExample_") + m.name);
    a->setData(m.name);
    connect(a, &QAction::triggered, this, [this, name = m.name] { openModelExample(name); });
  }
}

}  // namespace mhaviz::ui
