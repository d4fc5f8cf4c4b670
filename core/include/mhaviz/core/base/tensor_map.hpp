#pragma once
/// \file
/// Named tensors as they come out of (and go into) a tensors file.

#include <map>
#include <string>

#include "mhaviz/core/base/tensor.hpp"

namespace mhaviz::io {

/// Tensors by name, in name order. Names are the file's own (".npy" suffixes of npz members
/// removed), e.g. PyTorch's state_dict keys and forward argument names.
using TensorMap = std::map<std::string, Tensor>;

}  // namespace mhaviz::io
