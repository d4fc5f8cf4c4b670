// Comparing two model files, the work off the GUI thread: reading and computing A, the
// difference of every layer and head, and the maps of the one selected (model_compare.hpp).
#include "compare/model_compare.hpp"

#include <QFileInfo>
#include <QTimer>
#include <exception>

#include "compare/difference_table.hpp"
#include "document/document.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "render/colormaps.hpp"
#include "render/heatmap_grid.hpp"

namespace mhaviz::ui {

namespace model = mhaviz::model;

namespace {

/// A layer of a model as a result of the weights stage: a weights-only layer's stored weights, a
/// captured layer recomputed (as the model view and the layer's full view show it).
mhaviz::ForwardResult layerResult(const model::Model& m, std::size_t layer,
                                  const std::atomic<bool>* cancel) {
  const model::Layer& l = m.layers[layer];
  if (m.index.weights_only) return model::weights_result(l);
  mhaviz::RunControl control;
  control.cancel = cancel;
  control.threads = 0;
  return mhaviz::forward(l.problem.config, l.problem.params, l.problem.inputs, control);
}

/// Plain weights read as A take B's labels and grouping: the tokens (the decoder's from its
/// first decoder layer) and num_key_value_heads.
model::WeightsFileOptions optionsOf(const model::Model& b) {
  model::WeightsFileOptions options;
  options.tokens = b.index.tokens;
  for (const model::LayerInfo& info : b.index.layers) {
    if (info.group == "decoder") {
      options.target_tokens = info.config.query_labels;
      break;
    }
  }
  if (!b.index.layers.empty()) options.kv_heads = b.index.layers.front().kv_heads;
  return options;
}

}  // namespace

struct ModelCompare::Compared {
  int batch = 0;
  std::shared_ptr<const model::WeightsDifference> difference;
  QString mismatch;  // why there is none
  QStringList notes;
};

void ModelCompare::start() {
  m_reading = true;
  showStatus();
  showTitles();
  const QString name = QFileInfo(m_path).fileName();
  m_load.start([this, path = m_path.toStdString(), name, b = m_b,
                batch = m_batch](const TaskScope& scope) {
    ModelSide a;
    std::shared_ptr<const Compared> compared;
    QString error;
    try {
      auto read = std::make_shared<model::Model>();
      try {
        *read = model::read_any_model(path, optionsOf(*b.model));
      } catch (const mhaviz::InvalidInput& e) {
        error = model::names_model_index(path)
                    ? tr("Cannot read %1: %2").arg(name, QString::fromUtf8(e.what()))
                    : tr("Cannot read %1 with the tokens of %2: %3")
                          .arg(name, b.name, QString::fromUtf8(e.what()));
      }
      if (error.isEmpty()) {
        mhaviz::RunControl control;
        control.cancel = scope.cancelFlag();
        control.threads = 0;
        auto computed = std::make_shared<const model::ComputedModel>(
            model::compute_model(*read, model::kDefaultTolerance, control));
        a = ModelSide{name, std::move(read), std::move(computed)};
        compared = compareSides(a, b, batch, scope.cancelFlag());
      }
    } catch (const mhaviz::Cancelled&) {
      return;
    } catch (const std::exception& e) {
      error = tr("Cannot compare with %1: %2").arg(name, QString::fromUtf8(e.what()));
    }
    scope.post([this, a, compared, error] { deliverA(a, compared, error); });
  });
}

void ModelCompare::deliverA(ModelSide a, std::shared_ptr<const Compared> compared,
                            const QString& error) {
  m_reading = false;
  if (!error.isEmpty()) {
    m_problem = error;
    m_gridA->setStageData({}, mapView(), tr("A could not be read: see the line above"));
    showStatus();
    showTitles();
    emit shown();
    return;
  }
  m_a = std::move(a);
  applyDifference(*compared);
  if (m_difference) {
    // A comparison starts at the map that differs most.
    const Selection worst{static_cast<int>(m_difference->worst_layer),
                          static_cast<int>(m_difference->worst_head)};
    const Selection before = m_document->selection();
    if (!(worst == before)) emit mapChosen(worst.layer, worst.head);
    // Selected anew, the maps followed the selection; else the maps of the one selected.
    if (m_document->selection() == before) startMaps();
  }
  emit shown();
}

void ModelCompare::startDifference() {
  if (!m_a.valid() || !m_b.valid()) return;
  m_diff.start([this, a = m_a, b = m_b, batch = m_batch](const TaskScope& scope) {
    std::shared_ptr<const Compared> compared;
    try {
      compared = compareSides(a, b, batch, scope.cancelFlag());
    } catch (const mhaviz::Cancelled&) {
      return;
    }
    scope.post([this, compared] {
      applyDifference(*compared);
      emit shown();
    });
  });
}

void ModelCompare::applyDifference(const Compared& compared) {
  m_difference = compared.difference;
  m_notes = compared.notes;
  m_problem = compared.mismatch.isEmpty()
                  ? QString()
                  : tr("No difference shown: %1").arg(compared.mismatch);
  m_tableModel->set(m_difference, m_b.model);
  selectInTable();
  showStatus();
  showTitles();
  startMaps();
}

void ModelCompare::startMaps() {
  // (also without a difference: A's and B's maps of another shape show how they differ)
  const int selected = m_document->selection().layer;
  if (!m_a.valid() || !m_b.valid() || selected < 0) return;
  const auto layer = static_cast<std::size_t>(selected);
  if (layer >= m_a.model->layers.size() || layer >= m_b.model->layers.size()) {
    m_maps.cancel();
    m_data = CompareData{};
    const QString why = tr("Layer %1 is not in both: A has %2 layers, B %3")
                            .arg(layer)
                            .arg(m_a.model->layers.size())
                            .arg(m_b.model->layers.size());
    for (HeatmapGrid* grid : {m_gridA, m_gridB, m_gridDiff}) grid->setStageData({}, mapView(), why);
    showStatus();
    return;
  }
  m_maps.start([this, a = m_a, b = m_b, layer, view = mapView()](const TaskScope& scope) {
    auto data = std::make_shared<CompareData>();
    try {
      const mhaviz::ForwardResult ra = layerResult(*a.model, layer, scope.cancelFlag());
      const mhaviz::ForwardResult rb = layerResult(*b.model, layer, scope.cancelFlag());
      if (scope.cancelled()) return;
      *data = compareStage(ra, rb, view);
    } catch (const mhaviz::Cancelled&) {
      return;
    } catch (const std::exception& e) {
      data->mismatch = QString::fromUtf8(e.what());
    }
    // The grids' copies made here: at 512 tokens a map's cells are 2 MB and a whole layer's three
    // stages some 80 MB, whose copying on the GUI thread (page faults for the most part) held it
    // up past a frame.
    auto stages = std::make_shared<GridStages>(gridStages(*data));
    scope.post([this, data, stages] { present(std::move(*data), std::move(*stages)); });
  });
}

ModelCompare::GridStages ModelCompare::gridStages(const CompareData& data) {
  GridStages stages{data.a, data.b, data.ok() ? data.diff : StageData{}};
  for (StageData* stage : {&stages.a, &stages.b, &stages.diff}) stage->statsReady = false;
  return stages;
}

void ModelCompare::present(CompareData data, GridStages stages) {
  m_data = std::move(data);
  const quint64 generation = ++m_presented;
  const ViewOptions view = mapView();
  for (HeatmapGrid* grid : {m_gridA, m_gridB, m_gridDiff})
    grid->setMaskedColor(maskedColorBesideDiverging(view.colormap));
  showStatus();
  // One grid per turn of the event loop: each lays out its maps, ticks and legend and hands its
  // data to its background preparation on the GUI thread (a few milliseconds at 512 tokens; the
  // three at once held the thread up past a frame). A newer present() drops what is left.
  m_gridsToShow = 3;
  auto shared = std::make_shared<GridStages>(std::move(stages));
  const auto next = [this, generation, view, shared](auto&& self) -> void {
    if (generation != m_presented || m_gridsToShow == 0) return;
    switch (--m_gridsToShow) {
      case 2:
        if (shared->a.maps.empty()) {
          m_gridA->clear();
        } else {
          m_gridA->setStageData(std::move(shared->a), view);
        }
        break;
      case 1:
        if (shared->b.maps.empty()) {
          m_gridB->clear();
        } else {
          m_gridB->setStageData(std::move(shared->b), view);
        }
        break;
      default:
        if (!shared->diff.maps.empty()) {
          m_gridDiff->setStageData(std::move(shared->diff), view);
        } else {
          m_gridDiff->setStageData({}, view, tr("No B \u2212 A: see the line above"));
        }
        emit shown();
        return;
    }
    QTimer::singleShot(0, this, [self] { self(self); });
  };
  next(next);
}

std::shared_ptr<const ModelCompare::Compared> ModelCompare::compareSides(
    const ModelSide& a, const ModelSide& b, int batch, const std::atomic<bool>* cancel) {
  auto out = std::make_shared<Compared>();
  out->batch = batch;
  try {
    out->difference = std::make_shared<const model::WeightsDifference>(model::weights_difference(
        *a.model, a.computed->weights, *b.model, b.computed->weights, batch,
        "A (" + a.name.toStdString() + ")", cancel));
    for (const std::string& note : model::comparison_notes(*a.model, *b.model))
      out->notes << QString::fromStdString(note);
  } catch (const mhaviz::InvalidInput& e) {
    out->mismatch = QString::fromUtf8(e.what());
  }
  return out;
}

}  // namespace mhaviz::ui
