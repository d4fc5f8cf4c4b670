#pragma once
// One layer of a whole model as the tensors a session computes with: what opening its
// configuration together with a tensors file of these members would give.

#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/model/model.hpp"

namespace mhaviz::ui {

/// The layer's state_dict entries (PyTorch's keys) and forward arguments (query, key, value and
/// the masks and static_k/v it was called with), so that
/// make_problem(layer.problem.config, layerTensors(layer)) rebuilds layer.problem exactly.
mhaviz::io::TensorMap layerTensors(const model::Layer& layer);

}  // namespace mhaviz::ui
