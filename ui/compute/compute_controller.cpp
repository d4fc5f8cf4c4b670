#include "compute/compute_controller.hpp"

#include <QStringList>
#include <algorithm>
#include <exception>

#include "compute/config_command.hpp"
#include "mhaviz/core/errors.hpp"
#include "mhaviz/core/gen/user_values.hpp"
#include "mhaviz/core/memory.hpp"

namespace mhaviz::ui {

ComputeController::ComputeController(QObject* parent)
    : QObject(parent), m_memoryLimit(mhaviz::kDefaultMemoryLimit) {
  registerComputeMetaTypes();
  ComputeWorker* w = m_thread.worker();
  // Queued (the worker emits on its own thread); typed functor connections only.
  connect(w, &ComputeWorker::resultReady, this, &ComputeController::onResult);
  connect(w, &ComputeWorker::reducedView, this, [this](quint64 generation, const QString& text) {
    if (generation != m_generation || text == m_reduced) return;
    m_reduced = text;
    emit reducedChanged(m_reduced);
  });
  connect(w, &ComputeWorker::failed, this, &ComputeController::onFailed);
  connect(w, &ComputeWorker::cancelled, this, &ComputeController::onCancelled);
  connect(w, &ComputeWorker::progress, this, [this](quint64 generation, qint64 done, qint64 total) {
    if (generation == m_generation) emit progress(done, total);
  });
}

ComputeController::~ComputeController() = default;

QString ComputeController::quickCheck(const mhaviz::Config& config, std::uint64_t limit) {
  try {
    mhaviz::validate_config(config);
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
  try {
    // Maps over the limit are shown reduced (mhaviz/core/long_context.hpp) when that fits.
    if (!mhaviz::needs_reduced_view(config, limit) ||
        mhaviz::estimate_reduced_memory(config) > limit) {
      mhaviz::check_memory(config, limit);
    }
  } catch (const std::exception& e) {
    // The window has no setting for its limit: say where a larger one can be given.
    return QString::fromUtf8(e.what()) +
           tr(" (The window's limit is %1; mhaviz-cli run --max-memory SIZE computes larger "
              "configurations.)")
               .arg(QString::fromStdString(mhaviz::format_bytes(limit)));
  }
  return {};
}

void ComputeController::changeConfig(const mhaviz::Config& requested, const QString& text,
                                     int mergeId) {
  // The user's masks, padding and labels are kept as they made them (m_userValues) and fitted
  // to the sizes here: what a smaller size cuts comes back when it grows again.
  mhaviz::gen::UserValues values = m_userValues;
  values.take_edits(m_config, requested);
  mhaviz::Config next = requested;
  const std::vector<std::string> fitNotes = values.fit(next);
  m_userValues = values;
  if (next == m_config) return;
  QStringList notes;
  const bool resized = next.tgt_len != m_config.tgt_len || next.src_len != m_config.src_len ||
                       next.batch() != m_config.batch() || next.num_heads != m_config.num_heads;
  for (const std::string& note : fitNotes) {
    if (resized) notes << QString::fromStdString(note);
  }
  m_fitNotes = notes.join(u'\n');
  m_fittedFromUserValues = next;
  m_undo.push(new ConfigCommand(m_config, next, text, mergeId,
                                [this](const mhaviz::Config& c) { applyConfig(c); }));
  m_fitNotes.clear();
  if (!notes.isEmpty()) emit sizesFitted(notes.join(u'\n'));
}

void ComputeController::setView(const ViewOptions& view) {
  ViewOptions fitted = m_result ? fitViewToResult(view, *m_result) : view;
  if (!m_reduced.isEmpty()) fitted.stage = Stage::weights;  // the reduced view has only these
  if (fitted == m_view) return;
  // A reduced result holds one batch element folded one way: another needs computing (also
  // when the settings' first result has not arrived yet).
  const bool reducedSettings = mhaviz::needs_reduced_view(m_config, m_memoryLimit) &&
                               mhaviz::estimate_reduced_memory(m_config) <= m_memoryLimit;
  const bool recomputeReduced = (reducedSettings || !m_reduced.isEmpty()) &&
                                (fitted.batch != m_view.batch || fitted.reduce != m_view.reduce);
  m_view = fitted;
  emit viewChanged(m_view);
  if (recomputeReduced) submitCurrent();
}

void ComputeController::recompute() { applyConfig(m_config); }

void ComputeController::cancel() {
  if (!isBusy()) return;
  m_userCancelled = true;
  m_thread.worker()->cancelAll();
}

void ComputeController::setMemoryLimit(std::uint64_t bytes) {
  m_memoryLimit = bytes;
  m_thread.worker()->setMemoryLimit(bytes);
}

void ComputeController::setTensors(std::shared_ptr<const mhaviz::io::TensorMap> tensors) {
  m_tensors = std::move(tensors);
  recompute();
}

void ComputeController::applyConfig(const mhaviz::Config& config) {
  m_config = config;
  // Undo, redo and opened files bring their own values: remember those from now on.
  if (config != m_fittedFromUserValues) {
    m_userValues = mhaviz::gen::UserValues(config);
    m_fittedFromUserValues = config;
  }
  emit configChanged(m_config);
  const QString problem = quickCheck(m_config, m_memoryLimit);
  if (!problem.isEmpty()) {
    // Keep the last good picture; make whatever is still running stale and stop it.
    ++m_generation;
    m_thread.worker()->cancelAll();
    setError(problem);
    setOutOfDate(m_result != nullptr, problem);
    return;
  }
  setError({});
  submitCurrent();
}

void ComputeController::submitCurrent() {
  ComputeRequest request;
  request.generation = ++m_generation;
  request.config = m_config;
  request.tensors = m_tensors;
  request.batch = m_view.batch;
  request.reduceMax = m_view.reduce == Reduce::max;
  const bool wasBusy = isBusy();
  m_awaiting = request.generation;
  m_userCancelled = false;
  m_thread.worker()->submit(request);
  if (!wasBusy) emit busyChanged(true);
}

void ComputeController::setError(const QString& message) {
  if (message == m_error) return;
  m_error = message;
  emit errorChanged(m_error);
}

void ComputeController::setOutOfDate(bool outOfDate, const QString& why) {
  m_outOfDate = outOfDate;
  emit outOfDateChanged(outOfDate, why);
}

void ComputeController::finishGeneration(quint64 generation) {
  if (generation != m_awaiting) return;
  m_awaiting = 0;
  emit busyChanged(false);
}

void ComputeController::onResult(quint64 generation, const ResultPtr& result, double computeMs) {
  finishGeneration(generation);
  if (generation != m_generation || !result) {
    ++m_staleDropped;
    return;
  }
  m_result = result;
  m_view = fitViewToResult(m_view, *m_result);
  if (!m_reduced.isEmpty()) m_view.stage = Stage::weights;
  setOutOfDate(false);
  emit resultReady(m_result, m_view, computeMs);
}

void ComputeController::onFailed(quint64 generation, const QString& message) {
  finishGeneration(generation);
  if (generation != m_generation) return;
  setError(message);
  setOutOfDate(m_result != nullptr, message);
}

void ComputeController::onCancelled(quint64 generation) {
  finishGeneration(generation);
  if (generation != m_generation || !m_userCancelled) return;
  m_userCancelled = false;
  setOutOfDate(m_result != nullptr,
               tr("Computation cancelled: the picture shows earlier settings. Press F5 to "
                  "compute again."));
  emit cancelled();
}

ViewOptions fitViewToResult(ViewOptions view, const mhaviz::ForwardResult& result) {
  view.batch = std::clamp(view.batch, 0, static_cast<int>(std::max<std::int64_t>(result.N, 1)) - 1);
  if (view.soloHead >= result.H) view.soloHead = -1;
  if (view.stage == Stage::weights_before_dropout && !result.weights_before_dropout) {
    view.stage = Stage::weights;
  }
  if (view.stage == Stage::capped_scores && !result.has_capped_scores()) {
    view.stage = Stage::raw_scores;
  }
  const auto labels = [](const std::vector<std::string>& names) {
    QStringList list;
    for (const std::string& name : names) list << QString::fromStdString(name);
    return list;
  };
  view.queryLabels = labels(result.config.query_labels);
  view.keyLabels = labels(result.config.key_labels);
  return view;
}

}  // namespace mhaviz::ui
