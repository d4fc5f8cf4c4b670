#include "mhaviz/core/params.hpp"

#include <cmath>

#include "rng.hpp"

namespace mhaviz {

std::optional<Tensor>* Params::find(std::string_view key) {
  if (key == "in_proj_weight") return &in_proj_weight;
  if (key == "q_proj_weight") return &q_proj_weight;
  if (key == "k_proj_weight") return &k_proj_weight;
  if (key == "v_proj_weight") return &v_proj_weight;
  if (key == "in_proj_bias") return &in_proj_bias;
  if (key == "bias_k") return &bias_k;
  if (key == "bias_v") return &bias_v;
  if (key == "out_proj.weight") return &out_proj_weight;
  if (key == "out_proj.bias") return &out_proj_bias;
  return nullptr;
}

const std::optional<Tensor>* Params::find(std::string_view key) const {
  return const_cast<Params*>(this)->find(key);  // NOLINT: same lookup, const result
}

std::optional<Shape> expected_param_shape(const Config& c, std::string_view key) {
  const std::int64_t E = c.embed_dim;
  const bool packed = c.packed_projection();
  if (key == "in_proj_weight") return packed ? std::optional<Shape>(Shape{3 * E, E}) : std::nullopt;
  if (key == "q_proj_weight") return packed ? std::nullopt : std::optional<Shape>(Shape{E, E});
  if (key == "k_proj_weight") {
    return packed ? std::nullopt : std::optional<Shape>(Shape{E, c.k_dim()});
  }
  if (key == "v_proj_weight") {
    return packed ? std::nullopt : std::optional<Shape>(Shape{E, c.v_dim()});
  }
  if (key == "in_proj_bias") return c.bias ? std::optional<Shape>(Shape{3 * E}) : std::nullopt;
  if (key == "bias_k" || key == "bias_v") {
    return c.add_bias_kv ? std::optional<Shape>(Shape{1, 1, E}) : std::nullopt;
  }
  if (key == "out_proj.weight") return Shape{E, E};
  if (key == "out_proj.bias") return c.bias ? std::optional<Shape>(Shape{E}) : std::nullopt;
  return std::nullopt;
}

namespace {

ElemType elem_type(DType d) { return d == DType::float64 ? ElemType::f64 : ElemType::f32; }

/// Fills a new tensor with values drawn by `draw()` in row-major order.
template <typename Draw>
Tensor drawn(const Config& c, Shape shape, Draw&& draw) {
  Tensor t(elem_type(c.dtype), std::move(shape));
  if (c.dtype == DType::float64) {
    for (double& x : t.data<double>()) x = draw();
  } else {
    for (float& x : t.data<float>()) x = static_cast<float>(draw());
  }
  return t;
}

/// torch.nn.init.xavier_uniform_ of a (fan_out, fan_in) matrix.
Tensor xavier_uniform(const Config& c, detail::Rng& rng, std::int64_t rows, std::int64_t cols) {
  const double bound = std::sqrt(6.0 / static_cast<double>(rows + cols));
  return drawn(c, {rows, cols}, [&] { return rng.uniform(-bound, bound); });
}

}  // namespace

Params init_params(const Config& c) {
  detail::Rng rng(c.seed);
  const std::int64_t E = c.embed_dim;
  const ElemType et = elem_type(c.dtype);
  Params p;
  // MultiheadAttention._reset_parameters
  if (c.packed_projection()) {
    p.in_proj_weight = xavier_uniform(c, rng, 3 * E, E);
  } else {
    p.q_proj_weight = xavier_uniform(c, rng, E, E);
    p.k_proj_weight = xavier_uniform(c, rng, E, c.k_dim());
    p.v_proj_weight = xavier_uniform(c, rng, E, c.v_dim());
  }
  if (c.bias) {
    p.in_proj_bias = Tensor(et, {3 * E});
    p.out_proj_bias = Tensor(et, {E});
  }
  // NonDynamicallyQuantizableLinear keeps Linear's kaiming_uniform(a=sqrt(5)):
  // uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)).
  const double bound = 1.0 / std::sqrt(static_cast<double>(E));
  p.out_proj_weight = drawn(c, {E, E}, [&] { return rng.uniform(-bound, bound); });
  if (c.add_bias_kv) {
    // xavier_normal_ of a (1,1,E) tensor: fan_in = fan_out = E, std = sqrt(2/(2E)).
    const double stdev = std::sqrt(1.0 / static_cast<double>(E));
    p.bias_k = drawn(c, {1, 1, E}, [&] { return stdev * rng.normal(); });
    p.bias_v = drawn(c, {1, 1, E}, [&] { return stdev * rng.normal(); });
  }
  return p;
}

}  // namespace mhaviz
