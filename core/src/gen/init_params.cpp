// PyTorch's initialisation of the parameters from config.seed (init_params).
#include "mhaviz/core/gen/weights.hpp"

#include <cmath>
#include <vector>

#include "base/rng.hpp"

namespace mhaviz {

namespace {

ElemType elem_type(DType d) { return d == DType::float64 ? ElemType::f64 : ElemType::f32; }

/// The CounterRng streams of the parameter seed, one per generated tensor.
enum Stream : std::uint64_t {
  in_proj = 0,
  q_proj = 0,
  k_proj = 1,
  v_proj = 2,
  out_proj = 3,
  bias_k = 4,
  bias_v = 5
};

/// A (rows, cols) tensor of uniforms in [-bound, bound) from stream `stream` of config.seed.
Tensor uniform_tensor(const Config& c, Stream stream, Shape shape, double bound) {
  const detail::CounterRng rng(c.seed, stream);
  Tensor t(elem_type(c.dtype), std::move(shape));
  if (c.dtype == DType::float64) {
    rng.uniforms(0, t.data<double>(), -bound, bound);
  } else {
    rng.uniforms(0, t.data<float>(), -bound, bound);
  }
  return t;
}

/// torch.nn.init.xavier_uniform_ of a (fan_out, fan_in) matrix.
Tensor xavier_uniform(const Config& c, Stream stream, std::int64_t rows, std::int64_t cols) {
  return uniform_tensor(c, stream, {rows, cols}, std::sqrt(6.0 / static_cast<double>(rows + cols)));
}

/// torch.nn.init.xavier_normal_ of a (1, 1, E) tensor: fan_in = fan_out = E, std sqrt(1/E).
Tensor xavier_normal(const Config& c, Stream stream, std::int64_t E) {
  const detail::CounterRng rng(c.seed, stream);
  const double stdev = std::sqrt(1.0 / static_cast<double>(E));
  std::vector<double> v(static_cast<std::size_t>(E));
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = stdev * rng.normal(k);
  const Tensor t = Tensor::from<double>({1, 1, E}, std::move(v));
  return c.dtype == DType::float64 ? t : t.to(ElemType::f32);
}

}  // namespace

Params init_params(const Config& c) {
  const std::int64_t E = c.embed_dim;
  const ElemType et = elem_type(c.dtype);
  Params p;
  // MultiheadAttention._reset_parameters
  if (c.packed_projection()) {
    p.in_proj_weight = xavier_uniform(c, in_proj, 3 * E, E);
  } else {
    p.q_proj_weight = xavier_uniform(c, q_proj, E, E);
    p.k_proj_weight = xavier_uniform(c, k_proj, E, c.k_dim());
    p.v_proj_weight = xavier_uniform(c, v_proj, E, c.v_dim());
  }
  if (c.bias) {
    p.in_proj_bias = Tensor(et, {3 * E});
    p.out_proj_bias = Tensor(et, {E});
  }
  // NonDynamicallyQuantizableLinear keeps Linear's kaiming_uniform(a=sqrt(5)):
  // uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)).
  p.out_proj_weight = uniform_tensor(c, out_proj, {E, E}, 1.0 / std::sqrt(static_cast<double>(E)));
  if (c.add_bias_kv) {
    p.bias_k = xavier_normal(c, bias_k, E);
    p.bias_v = xavier_normal(c, bias_v, E);
  }
  return p;
}

}  // namespace mhaviz
