#pragma once
// The parameter stages of the grid (Stage::in_proj_weight, Stage::out_proj_weight): the
// projection matrices cut into one map per head slice. Pure extraction, any thread.

#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/spec/params.hpp"
#include "stages/stage_data.hpp"

namespace mhaviz::ui {

/// True for the stages that show parameters rather than intermediates.
bool isParamStage(Stage stage);

/// The parameters `result` was computed with: generated or loaded from a tensors file.
mhaviz::Params paramsOf(const mhaviz::ForwardResult& result);

/// Maps of a parameter stage. in_proj_weight: for packed weights, W_q, W_k and W_v (rows [0,E),
/// [E,2E), [2E,3E) of in_proj_weight) with one (hd, E) map per head slice, titled with its rows;
/// separate q/k/v_proj_weight (E,E), (E,kdim), (E,vdim) cut the same way. out_proj_weight: the
/// (E, E) matrix. view.soloHead keeps only that head's slices. Values are signed.
StageData extractParamStage(const mhaviz::ForwardResult& result, const mhaviz::Params& params,
                            const ViewOptions& view);

}  // namespace mhaviz::ui
