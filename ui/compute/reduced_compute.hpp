#pragma once
// The compute worker's reduced view: a configuration whose maps exceed the memory limit gets
// its weights computed exactly, stripe by stripe, and folded to the screen
// (mhaviz/core/long_context/long_context.hpp), as a result holding only the weights stage.

#include <QMetaType>
#include <QString>

#include "compute/compute_request.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/plan/problem.hpp"

namespace mhaviz::ui {

/// Values per map of the reduced view in each direction (about a screen's worth).
inline constexpr std::int64_t kReducedCells = 512;

/// The reduced weights of `request.batch` (clamped to the batch) folded by block mean or max
/// (request.reduceMax), of the request's region (the whole map unless zoomed), into a result
/// of batch size N whose other batch elements are 0 (see reducedResult), labels naming each block's
/// first position. `description` gets reducedDescription's text and `region` (when not null) where
/// the result lies. Throws what reduced_weights throws (Cancelled, InvalidInput).
ResultPtr computeReduced(const mhaviz::Problem& problem, const ComputeRequest& request,
                         const mhaviz::RunControl& control, QString& description,
                         ReducedRegion* region = nullptr);

}  // namespace mhaviz::ui

Q_DECLARE_METATYPE(mhaviz::ui::ReducedRegion)
