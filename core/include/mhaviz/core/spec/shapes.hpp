#pragma once
/// \file
/// The shape flow: every step's tensor shape for a config, as a textbook table prints it.

#include <string>
#include <vector>

#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/spec/config.hpp"

namespace mhaviz {

struct ShapeStep {
  std::string step;      ///< e.g. "q after in-projection"
  std::string tensor;    ///< e.g. "q"
  Shape shape;           ///< concrete sizes
  std::string symbolic;  ///< e.g. "(L, N, E)" or "(N*H, S+2, hd)"
};

/// Shape of each step of the forward pass for this config. `static_src_len` replaces src_len
/// when static_k/static_v are given (-1: not given).
std::vector<ShapeStep> shape_flow(const Config& config, std::int64_t static_src_len = -1);

}  // namespace mhaviz
