#include "mhaviz/core/spec/inputs.hpp"

#include "base/rng.hpp"

namespace mhaviz {

namespace {
Shape layout(const Config& c, std::int64_t len, std::int64_t features) {
  if (!c.batched()) return {len, features};
  if (c.batch_first) return {c.batch(), len, features};
  return {len, c.batch(), features};
}

/// Standard normals of stream `stream` of the input seed, in row-major order of `shape`.
Tensor normal_tensor(const Config& c, std::uint64_t stream, Shape shape) {
  const detail::CounterRng rng(c.input_seed_or_default(), stream);
  if (c.dtype == DType::float64) {
    Tensor t(ElemType::f64, std::move(shape));
    rng.normals(0, t.data<double>());
    return t;
  }
  Tensor t(ElemType::f32, std::move(shape));
  rng.normals(0, t.data<float>());
  return t;
}
}  // namespace

Inputs random_inputs(const Config& c) {
  Inputs in;
  in.query = normal_tensor(c, detail::kQueryStream, layout(c, c.tgt_len, c.embed_dim));
  in.key = normal_tensor(c, detail::kKeyStream, layout(c, c.src_len, c.k_dim()));
  in.value = normal_tensor(c, detail::kValueStream, layout(c, c.src_len, c.v_dim()));
  return in;
}

}  // namespace mhaviz
