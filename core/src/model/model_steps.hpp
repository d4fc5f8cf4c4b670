#pragma once
// Generation steps of a model index (docs/capture-and-models.md, "Generation steps").

#include <string>

#include "mhaviz/core/model/model.hpp"

namespace mhaviz::model {

/// Throws InvalidInput (prefixed with `source`) unless the layers' steps fit index.steps: every
/// layer names a step when there are steps and none does otherwise; steps in call order, none
/// empty; every step calls the modules of step 0, in the same order, with the same sizes.
void check_steps(const ModelIndex& index, const std::string& source);

}  // namespace mhaviz::model
