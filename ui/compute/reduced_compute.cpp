#include "compute/reduced_compute.hpp"

#include <algorithm>
#include <memory>

#include "mhaviz/core/long_context/long_context.hpp"
#include "stages/reduced_result.hpp"

namespace mhaviz::ui {

ResultPtr computeReduced(const mhaviz::Problem& problem, const ComputeRequest& request,
                         const mhaviz::RunControl& control, QString& description,
                         ReducedRegion* region) {
  mhaviz::ReducedRequest r;
  r.batch = std::clamp<std::int64_t>(request.batch, 0, problem.config.batch() - 1);
  r.query_begin = request.queryBegin;
  r.query_end = request.queryEnd;
  r.key_begin = request.keyBegin;
  r.key_end = request.keyEnd;
  r.max_rows = request.maxRows > 0 ? request.maxRows : kReducedCells;
  r.max_cols = request.maxCols > 0 ? request.maxCols : kReducedCells;
  r.reduce = request.reduceMax ? mhaviz::BlockReduce::max : mhaviz::BlockReduce::mean;
  const mhaviz::ReducedWeights weights =
      mhaviz::reduced_weights(problem.config, problem.params, problem.inputs, r, control);
  description = reducedDescription(weights);
  if (region != nullptr) {
    *region = {weights.query_begin, weights.query_end,  weights.key_begin, weights.key_end,
               weights.block_rows,  weights.block_cols, weights.L,         weights.Sx};
  }
  return std::make_shared<const mhaviz::ForwardResult>(reducedResult(weights, problem.config));
}

}  // namespace mhaviz::ui
