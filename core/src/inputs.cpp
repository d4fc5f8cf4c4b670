#include "mhaviz/core/inputs.hpp"

#include "rng.hpp"

namespace mhaviz {

namespace {
Shape layout(const Config& c, std::int64_t len, std::int64_t features) {
  if (!c.batched()) return {len, features};
  if (c.batch_first) return {c.batch(), len, features};
  return {len, c.batch(), features};
}

Tensor normal_tensor(const Config& c, detail::Rng& rng, Shape shape) {
  if (c.dtype == DType::float64) {
    Tensor t(ElemType::f64, std::move(shape));
    for (double& x : t.data<double>()) x = rng.normal();
    return t;
  }
  Tensor t(ElemType::f32, std::move(shape));
  for (float& x : t.data<float>()) x = static_cast<float>(rng.normal());
  return t;
}
}  // namespace

Inputs random_inputs(const Config& c) {
  detail::Rng rng(c.input_seed_or_default());
  Inputs in;
  in.query = normal_tensor(c, rng, layout(c, c.tgt_len, c.embed_dim));
  in.key = normal_tensor(c, rng, layout(c, c.src_len, c.k_dim()));
  in.value = normal_tensor(c, rng, layout(c, c.src_len, c.v_dim()));
  return in;
}

}  // namespace mhaviz
