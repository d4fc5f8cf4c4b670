#pragma once
// mhaviz-cli model on a generation capture (capture_generation(), docs/capture-and-models.md):
// --steps lists the steps, --step k --out writes a step's weights.

#include <string>

#include "mhaviz/core/model/model.hpp"

namespace mhaviz::cli {

/// Per step, one line: its calls, the newest position and the token it generates, and per
/// layer the key its heads give the most weight on average. Throws InvalidInput when the model
/// has no steps.
void printSteps(const model::Model& m, const model::ComputedModel& computed, std::int64_t batch);

/// Writes rows (one step) to `path` (.npz or .safetensors): "<layer>/weights" (heads, S')
/// float64, the newest position's weights of model layer <layer>.
void writeStepRows(const model::StepRows& rows, const std::string& path);

}  // namespace mhaviz::cli
