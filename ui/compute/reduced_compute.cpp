#include "compute/reduced_compute.hpp"

#include <algorithm>
#include <memory>

#include "mhaviz/core/long_context.hpp"
#include "stages/reduced_result.hpp"

namespace mhaviz::ui {

ResultPtr computeReduced(const mhaviz::Problem& problem, const ComputeRequest& request,
                         const mhaviz::RunControl& control, QString& description) {
  mhaviz::ReducedRequest r;
  r.batch = std::clamp<std::int64_t>(request.batch, 0, problem.config.batch() - 1);
  r.max_rows = kReducedCells;
  r.max_cols = kReducedCells;
  r.reduce = request.reduceMax ? mhaviz::BlockReduce::max : mhaviz::BlockReduce::mean;
  const mhaviz::ReducedWeights weights =
      mhaviz::reduced_weights(problem.config, problem.params, problem.inputs, r, control);
  description = reducedDescription(weights);
  return std::make_shared<const mhaviz::ForwardResult>(reducedResult(weights, problem.config));
}

}  // namespace mhaviz::ui
