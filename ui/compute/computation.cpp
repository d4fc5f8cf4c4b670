#include "compute/computation.hpp"

#include <QStringList>
#include <QTimer>
#include <algorithm>
#include <exception>

#include "document/document.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/plan/memory.hpp"
#include "mhaviz/core/plan/view_plan.hpp"

namespace mhaviz::ui {

namespace {
// After this long a computation marks the picture before it as out of date.
constexpr int kSlowMs = 700;
}  // namespace

Computation::Computation(Document* document, QObject* parent)
    : QObject(parent),
      m_document(document),
      m_config(document->config()),
      m_view(document->view()),
      m_memoryLimit(mhaviz::kDefaultMemoryLimit) {
  registerComputeMetaTypes();
  m_slow = new QTimer(this);
  m_slow->setSingleShot(true);
  m_slow->setInterval(kSlowMs);
  connect(m_slow, &QTimer::timeout, this, [this] {
    if (m_awaiting != 0 && state().result != nullptr && !state().outOfDate) {
      setOutOfDate(true, tr("Computing the new settings: the picture still shows the previous "
                            "ones"));
    }
  });
  ComputeWorker* w = &m_worker;
  // The worker emits on the GUI thread (its tasks post there); typed functor connections only.
  connect(w, &ComputeWorker::resultReady, this, &Computation::onResult);
  connect(w, &ComputeWorker::measuresReady, this, &Computation::onMeasures);
  connect(w, &ComputeWorker::reducedView, this,
          [this](quint64 generation, const QString& text, const ReducedRegion& region) {
            if (generation != m_generation) return;
            Computed next = state();
            next.region = region;
            if (text.isEmpty()) next.region.blockRows = 0;
            const bool announce = text != next.reduced;
            next.reduced = text;
            updateViewBounds(next);
            // A new region of the same fold is not announced: its result is.
            publish(next,
                    announce ? Document::Changes(Document::Change::reduced) : Document::Changes());
          });
  connect(w, &ComputeWorker::failed, this, &Computation::onFailed);
  connect(w, &ComputeWorker::cancelled, this, &Computation::onCancelled);
  connect(w, &ComputeWorker::progress, this, [this](quint64 generation, qint64 done, qint64 total) {
    if (generation == m_generation) emit progress(done, total);
  });
  connect(document, &Document::changed, this, [this, document](Document::Changes what) {
    if (what & Document::Change::config) onConfigChanged(document->config());
    if (what & Document::Change::view) onViewChanged(document->view());
  });
}

Computation::~Computation() = default;

QString Computation::quickCheck(const mhaviz::Config& config, std::uint64_t limit) {
  try {
    mhaviz::validate_config(config);
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
  // Maps over the limit are shown reduced (mhaviz/core/long_context/long_context.hpp) when that
  // fits.
  const mhaviz::ViewPlan plan = mhaviz::plan_view(config, limit);
  if (plan.kind != mhaviz::ViewKind::refused) return {};
  // The window has no setting for its limit: say where a larger one can be given.
  return QString::fromStdString(plan.refusal) +
         tr(" (The window's limit is %1; mhaviz-cli run --max-memory SIZE computes larger "
            "configurations.)")
             .arg(QString::fromStdString(mhaviz::format_bytes(limit)));
}

const Computed& Computation::state() const {
  static const Computed none;
  return m_document ? m_document->computed() : none;
}

void Computation::publish(const Computed& next, Document::Changes what) {
  if (m_document) m_document->setComputed(next, what);
}

void Computation::updateViewBounds(const Computed& shown) {
  if (!m_document) return;
  // While newer settings compute, the result on screen is not what the view is chosen for: a
  // head of the coming result (a model's layer opened on head 5 while the window still shows
  // two heads) is fitted to the settings, and to the result when it arrives (onResult).
  ViewBounds bounds = m_awaiting != 0 ? viewBounds(m_config)
                      : shown.result  ? viewBounds(*shown.result)
                                      : ViewBounds{};
  bounds.weightsOnly = !shown.reduced.isEmpty();  // the reduced view has only these
  m_document->setViewBounds(bounds);
  m_view = m_document->view();
}

void Computation::onViewChanged(const ViewOptions& view) {
  // A reduced result holds one batch element folded one way: another needs computing (also
  // when the settings' first result has not arrived yet).
  const bool reducedSettings =
      mhaviz::plan_view(m_config, m_memoryLimit).kind == mhaviz::ViewKind::reduced;
  const bool recomputeReduced = (reducedSettings || !state().reduced.isEmpty()) &&
                                (view.batch != m_view.batch || view.reduce != m_view.reduce);
  m_view = view;
  if (recomputeReduced) submitCurrent();
}

void Computation::recompute() { m_document->reapply(); }

void Computation::zoomReduced(qint64 queryBegin, qint64 queryEnd, qint64 keyBegin, qint64 keyEnd,
                              QSize values) {
  const ReducedRegion& r = state().region;
  if (r.blockRows == 0 || !state().error.isEmpty()) return;
  const qint64 qb = std::clamp<qint64>(queryBegin, 0, r.L - 1);
  const qint64 kb = std::clamp<qint64>(keyBegin, 0, r.Sx - 1);
  const qint64 qe = std::clamp<qint64>(queryEnd, qb + 1, r.L);
  const qint64 ke = std::clamp<qint64>(keyEnd, kb + 1, r.Sx);
  if (qb == 0 && kb == 0 && qe == r.L && ke == r.Sx) {
    zoomReducedOut();
    return;
  }
  const QSize asked(std::max(1, values.width()), std::max(1, values.height()));
  if (qb == m_queryBegin && qe == m_queryEnd && kb == m_keyBegin && ke == m_keyEnd &&
      asked == m_zoomValues) {
    return;
  }
  m_queryBegin = qb;
  m_queryEnd = qe;
  m_keyBegin = kb;
  m_keyEnd = ke;
  m_zoomValues = asked;
  submitCurrent();  // supersedes (cancels) whatever is still running
}

void Computation::zoomReducedOut() {
  if (m_queryBegin == 0 && m_queryEnd == -1 && m_keyBegin == 0 && m_keyEnd == -1) return;
  m_queryBegin = m_keyBegin = 0;
  m_queryEnd = m_keyEnd = -1;
  m_zoomValues = QSize();
  if (state().region.blockRows != 0 && state().error.isEmpty()) submitCurrent();
}

void Computation::cancel() {
  if (m_awaiting == 0) return;
  m_userCancelled = true;
  m_worker.cancelAll();
}

void Computation::setMemoryLimit(std::uint64_t bytes) {
  m_memoryLimit = bytes;
  m_worker.setMemoryLimit(bytes);
}

void Computation::onConfigChanged(const mhaviz::Config& config) {
  // A zoomed region belongs to the sizes it was made for.
  if (config.tgt_len != m_config.tgt_len || config.src_len != m_config.src_len ||
      config.add_bias_kv != m_config.add_bias_kv ||
      config.add_zero_attn != m_config.add_zero_attn) {
    m_queryBegin = m_keyBegin = 0;
    m_queryEnd = m_keyEnd = -1;
    m_zoomValues = QSize();
  }
  m_config = config;
  const QString problem = quickCheck(m_config, m_memoryLimit);
  if (!problem.isEmpty()) {
    // Keep the last good picture; make whatever is still running stale and stop it.
    ++m_generation;
    m_worker.cancelAll();
    Computed next = state();
    next.measuring = false;  // the measures still to come are stale now
    publish(next, {});
    setError(problem);
    setOutOfDate(state().result != nullptr, problem);
    return;
  }
  setError({});
  submitCurrent();
}

void Computation::submitCurrent() {
  ComputeRequest request;
  request.generation = ++m_generation;
  request.config = m_config;
  request.tensors = m_document->tensors();
  request.batch = m_view.batch;
  request.reduceMax = m_view.reduce == Reduce::max;
  request.queryBegin = m_queryBegin;
  request.queryEnd = m_queryEnd;
  request.keyBegin = m_keyBegin;
  request.keyEnd = m_keyEnd;
  request.maxRows = m_zoomValues.height();
  request.maxCols = m_zoomValues.width();
  const bool wasBusy = m_awaiting != 0;
  m_awaiting = request.generation;
  Computed next = state();
  updateViewBounds(next);
  m_userCancelled = false;
  m_worker.submit(request);
  next.busy = true;
  next.measuring = false;  // the measures of an older result are no longer wanted
  publish(next, wasBusy ? Document::Changes() : Document::Changes(Document::Change::busy));
  if (!m_slow->isActive()) m_slow->start();
}

void Computation::setError(const QString& message) {
  if (message == state().error) return;
  Computed next = state();
  next.error = message;
  publish(next, Document::Change::error);
}

void Computation::setOutOfDate(bool outOfDate, const QString& why) {
  Computed next = state();
  next.outOfDate = outOfDate;
  next.outOfDateReason = outOfDate ? why : QString();
  publish(next, Document::Change::outOfDate);
}

void Computation::finishGeneration(quint64 generation) {
  if (generation != m_awaiting) return;
  m_awaiting = 0;
  Computed next = state();
  updateViewBounds(next);
  m_slow->stop();
  next.busy = false;
  publish(next, Document::Change::busy);
}

void Computation::onResult(quint64 generation, const ResultPtr& result, const AnalysesPtr& analyses,
                           double computeMs) {
  finishGeneration(generation);
  if (generation != m_generation || !result || !analyses) {
    ++m_staleDropped;
    return;
  }
  Computed next = state();
  next.result = result;
  next.analyses = analyses;
  next.computeMs = computeMs;
  // A full result's measures follow (ComputeWorker::measuresReady); a reduced one has none.
  next.measuring = next.reduced.isEmpty() && analyses->measures == nullptr;
  next.outOfDate = false;
  next.outOfDateReason.clear();
  updateViewBounds(next);
  // The picture is up to date again before the result is announced, as it has arrived.
  publish(next, Document::Change::outOfDate);
  publish(state(), Document::Change::result);
}

void Computation::onMeasures(quint64 generation, const AnalysesPtr& analyses) {
  if (generation != m_generation || !state().measuring || !analyses) return;  // stale
  Computed next = state();
  next.measuring = false;
  next.analyses = analyses;
  publish(next, Document::Change::measures);
}

void Computation::onFailed(quint64 generation, const QString& message) {
  finishGeneration(generation);
  if (generation != m_generation) return;
  setError(message);
  setOutOfDate(state().result != nullptr, message);
}

void Computation::onCancelled(quint64 generation) {
  finishGeneration(generation);
  if (generation != m_generation || !m_userCancelled) return;
  m_userCancelled = false;
  setOutOfDate(state().result != nullptr,
               tr("Computation cancelled: the picture shows earlier settings. Press F5 to "
                  "compute again."));
  emit cancelled();
}

}  // namespace mhaviz::ui
