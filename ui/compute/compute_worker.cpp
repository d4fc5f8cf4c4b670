#include "compute/compute_worker.hpp"

#include <QElapsedTimer>
#include <algorithm>
#include <exception>
#include <new>

#include "mhaviz/core/analysis/analyses.hpp"
#include "mhaviz/core/analysis/block_sparsity.hpp"
#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/plan/memory.hpp"
#include "mhaviz/core/plan/view_plan.hpp"

namespace mhaviz::ui {
namespace {

// Threads of a pass and of its measures: every hardware thread, the core's rule for 0 (the GUI
// thread mostly sleeps meanwhile, and the scheduler wakes it ahead of the computing threads).
constexpr int kComputeThreads = 0;

// Nice value of the task that computes the measures after the picture (background work): the
// grid's preparation of the picture, which runs meanwhile, comes first.
constexpr int kMeasuresNice = 5;

}  // namespace

void registerComputeMetaTypes() {
  qRegisterMetaType<ComputeRequest>();
  qRegisterMetaType<ResultPtr>();
  qRegisterMetaType<AnalysesPtr>();
  qRegisterMetaType<ReducedRegion>();
}

/// Everything the forward call needs: parameters, inputs and masks generated from the config's
/// settings (mhaviz::make_problem, or make_reduced_problem for the reduced view), replaced by
/// the user's tensors when given. is_causal adds no
/// mask: as in PyTorch 2.x it is only a hint, and forward() rejects it without an attn_mask.
mhaviz::Problem makeComputeProblem(const mhaviz::Config& config,
                                   const mhaviz::io::TensorMap* tensors, bool reduced) {
  static const mhaviz::io::TensorMap none;
  const mhaviz::io::TensorMap& given = tensors != nullptr ? *tensors : none;
  // The reduced view reads a pattern mask's rows as it needs them (make_reduced_problem).
  return reduced ? mhaviz::make_reduced_problem(config, given, "loaded tensors")
                 : mhaviz::make_problem(config, given, "loaded tensors");
}

ComputeWorker::ComputeWorker(QObject* parent)
    : QObject(parent),
      m_pass(this),
      m_measures(this, kMeasuresNice),
      m_memoryLimit(mhaviz::kDefaultMemoryLimit) {
  registerComputeMetaTypes();
  m_pass.onEnded([this](quint64 run, bool wasCancelled) {
    const quint64 generation = m_requestOf.take(run);
    if (wasCancelled) emit cancelled(generation);
  });
  // The result a measures run reads is let go with the run (a newer one may be far larger).
  m_measures.onEnded([this](quint64 run, bool) {
    if (run == m_measures.generation()) m_measuring = {};
  });
}

ComputeWorker::~ComputeWorker() { cancelAll(); }

void ComputeWorker::submit(const ComputeRequest& request) {
  m_measures.cancel();  // the measures of an older result are no longer wanted
  m_held = {};
  const std::uint64_t limit = m_memoryLimit;
  const quint64 run = m_pass.start(
      [this, request, limit](const TaskScope& scope) { this->run(request, limit, scope); });
  m_requestOf.insert(run, request.generation);
}

void ComputeWorker::cancelAll() {
  m_pass.cancel();
  m_measures.cancel();
  m_held = {};
}

void ComputeWorker::holdMeasures() {
  m_holding = true;
  if (!m_measures.isBusy() || !m_measuring.result) return;
  m_measures.cancel();
  m_held = std::move(m_measuring);
  m_measuring = {};
}

void ComputeWorker::resumeMeasures() {
  m_holding = false;
  if (!m_held.result) return;
  MeasureRequest held = std::move(m_held);
  m_held = {};
  measure(held.generation, held.result, held.analyses, std::move(held.problem));
}

void ComputeWorker::run(const ComputeRequest& request, std::uint64_t limit,
                        const TaskScope& scope) {
  const quint64 generation = request.generation;
  const mhaviz::Config& config = request.config;
  const auto fail = [this, &scope, generation](const QString& message) {
    scope.post([this, generation, message] { emit failed(generation, message); });
  };
  emit started(generation);
  QElapsedTimer timer;
  timer.start();
  try {
    const mhaviz::ViewPlan plan = mhaviz::plan_view(config, limit);
    // Refused even reduced: the message of every map (what the user can change first).
    if (plan.kind == mhaviz::ViewKind::refused) throw mhaviz::InvalidInput(plan.refusal);
    const bool reduced = plan.kind == mhaviz::ViewKind::reduced;
    auto problem = std::make_shared<const mhaviz::Problem>(
        makeComputeProblem(config, request.tensors.get(), reduced));

    mhaviz::RunControl control;
    control.cancel = scope.cancelFlag();
    control.threads = kComputeThreads;
    qint64 lastPercent = -1;
    // Called between blocks from a computing thread (serialised); throttled to whole percents.
    control.progress = [this, &scope, generation, &lastPercent](std::int64_t done,
                                                                std::int64_t total) {
      const qint64 percent = total > 0 ? done * 100 / total : 100;
      if (percent == lastPercent) return;
      lastPercent = percent;
      scope.post([this, generation, done, total] { emit progress(generation, done, total); });
    };
    QString description;
    ReducedRegion region;
    ResultPtr result;
    auto analyses = std::make_shared<mhaviz::ResultAnalyses>();
    if (reduced) {
      result = computeReduced(*problem, request, control, description, &region);
    } else {
      result = std::make_shared<const mhaviz::ForwardResult>(
          mhaviz::forward(problem->config, problem->params, problem->inputs, control));
      // The head measures come after the picture (measure()); what a block-sparse kernel would
      // skip, for the mask editor's block grid, is cheap (it reads only the mask): here.
      for (const std::int64_t block : mhaviz::kSparsityBlocks) {
        analyses->block_sparsity.push_back(mhaviz::block_sparsity(*result, block));
      }
    }
    const double ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    // Superseded or cancelled after the last block: dropped; the task's end reports it.
    scope.post([this, generation, description, region, result,
                analyses = AnalysesPtr(std::move(analyses)), ms, reduced, problem] {
      emit reducedView(generation, description, region);
      emit resultReady(generation, result, analyses, ms);
      if (!reduced) measure(generation, result, analyses, problem);
    });
  } catch (const mhaviz::Cancelled&) {
    // reported as cancelled when the task ends
  } catch (const mhaviz::InvalidInput& e) {
    fail(QString::fromUtf8(e.what()));
  } catch (const std::bad_alloc&) {
    fail(
        tr("Out of memory while computing this configuration. Reduce L, S, N or E, or switch "
           "to float32."));
  } catch (const std::exception& e) {
    fail(tr("Computation failed: %1").arg(QString::fromUtf8(e.what())));
  } catch (...) {
    fail(tr("Computation failed with an unknown error."));
  }
}

void ComputeWorker::measure(quint64 generation, const ResultPtr& result,
                            const AnalysesPtr& analyses,
                            std::shared_ptr<const mhaviz::Problem> problem) {
  if (m_holding) {
    m_held = {generation, result, analyses, std::move(problem)};
    return;
  }
  m_measuring = {generation, result, analyses, problem};
  m_measures.start([this, generation, result, analyses, problem](const TaskScope& scope) {
    mhaviz::RunControl control;
    control.cancel = scope.cancelFlag();
    control.threads = kComputeThreads;
    // The analyses so far (the block sparsity, a few flags per block) and the measures; the
    // result is not touched.
    auto measured = std::make_shared<mhaviz::ResultAnalyses>(*analyses);
    try {
      measured->measures = std::make_shared<const mhaviz::ResultMeasures>(
          mhaviz::measure_result(*result, problem->inputs, control));
    } catch (const mhaviz::Cancelled&) {
      return;  // a newer request (or a cancel) came: it needs no measures of this
    } catch (const std::exception&) {
      // Without measures: the dock says so. The picture is already out and stays.
    }
    scope.post([this, generation, measured = AnalysesPtr(std::move(measured))] {
      emit measuresReady(generation, measured);
    });
  });
}

}  // namespace mhaviz::ui
