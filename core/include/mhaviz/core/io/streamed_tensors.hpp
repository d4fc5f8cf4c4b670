#pragma once
/// \file
/// Tensors for the writers, some of them made piece by piece while the file is written (e.g.
/// the derived (N,H,L,S') maps of `mhaviz-cli run`), so that a large tensor never has to be
/// whole in memory. The writers (write_npz_streamed, write_safetensors_streamed,
/// write_tensor_file_streamed) make the pieces on a thread of their own, a few pieces ahead of
/// what they write.

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <variant>

#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/base/tensor_map.hpp"

namespace mhaviz::io {

/// A tensor made in `pieces` pieces: piece(0), piece(1), ... in that order, each called once,
/// from a thread other than the writer's. Their bytes one after the other are the tensor's
/// (row-major, of `type` and `shape`); each piece must be of `type` (its shape is free).
struct PiecedTensor {
  ElemType type = ElemType::f32;
  Shape shape;
  std::int64_t pieces = 0;
  std::function<Tensor(std::int64_t piece)> piece;
};

/// A tensor held in memory, or one made in pieces.
using StreamedTensor = std::variant<Tensor, PiecedTensor>;

/// Tensors by name, in name order (as TensorMap).
using StreamedTensors = std::map<std::string, StreamedTensor>;

/// Every tensor of `tensors`, held (the copies share the tensors' storage).
StreamedTensors streamed(const TensorMap& tensors);

/// The element type, shape and size in bytes of either kind.
ElemType type_of(const StreamedTensor& t);
Shape shape_of(const StreamedTensor& t);
std::uint64_t byte_size(const StreamedTensor& t);

/// The whole tensor: the held one, or the pieces of a pieced one joined (made on this thread).
/// Throws InvalidInput, naming `name`, when the pieces do not add up to the tensor.
Tensor gathered(const StreamedTensor& t, const std::string& name);

}  // namespace mhaviz::io
