#include "mhaviz/core/io/streamed_tensors.hpp"

#include <cstring>

#include "mhaviz/core/base/errors.hpp"
#include "piece_producer.hpp"

namespace mhaviz::io {

StreamedTensors streamed(const TensorMap& tensors) {
  StreamedTensors out;
  for (const auto& [name, tensor] : tensors) out.emplace(name, tensor);
  return out;
}

ElemType type_of(const StreamedTensor& t) {
  if (const auto* held = std::get_if<Tensor>(&t)) return held->type();
  return std::get<PiecedTensor>(t).type;
}

Shape shape_of(const StreamedTensor& t) {
  if (const auto* held = std::get_if<Tensor>(&t)) return held->shape();
  return std::get<PiecedTensor>(t).shape;
}

std::uint64_t byte_size(const StreamedTensor& t) {
  if (const auto* held = std::get_if<Tensor>(&t)) return held->bytes().size();
  std::uint64_t n = elem_size(type_of(t));
  for (const std::int64_t d : shape_of(t)) n *= static_cast<std::uint64_t>(d);
  return n;
}

Tensor gathered(const StreamedTensor& t, const std::string& name) {
  if (const auto* held = std::get_if<Tensor>(&t)) return *held;
  const auto& pieced = std::get<PiecedTensor>(t);
  Tensor out = Tensor::uninitialized(pieced.type, pieced.shape);
  StreamedTensors one;
  one.emplace(name, pieced);
  PieceProducer producer(one, 1);
  const auto dst = out.bytes();
  std::size_t at = 0;
  while (at < dst.size()) {  // a short last piece makes next() throw, naming the tensor
    const Tensor piece = producer.next(name);
    const auto src = piece.bytes();
    if (!src.empty()) std::memcpy(dst.data() + at, src.data(), src.size());
    at += src.size();
  }
  return out;
}

}  // namespace mhaviz::io
