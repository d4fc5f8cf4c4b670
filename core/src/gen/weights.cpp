// Parameter generation: PyTorch's initialisation or identity projections, times a scale.
#include "mhaviz/core/gen/weights.hpp"

#include "mhaviz/core/base/errors.hpp"

namespace mhaviz::gen {

namespace {

ElemType elem_type(DType d) { return d == DType::float64 ? ElemType::f64 : ElemType::f32; }

/// (rows, cols) with `scale` where row % period == col, else 0: a (truncated / zero-padded)
/// identity, stacked rows / period times.
Tensor identity(const Config& c, std::int64_t rows, std::int64_t cols, std::int64_t period,
                double scale) {
  std::vector<double> v(static_cast<std::size_t>(rows * cols), 0.0);
  for (std::int64_t r = 0; r < rows; ++r) {
    if (r % period < cols) v[static_cast<std::size_t>(r * cols + r % period)] = scale;
  }
  const Tensor t = Tensor::from<double>({rows, cols}, std::move(v));
  return t.to(elem_type(c.dtype));
}

void scale_in_place(std::optional<Tensor>& t, double scale) {
  if (!t) return;
  if (t->type() == ElemType::f64) {
    for (double& x : t->data<double>()) x *= scale;
  } else {
    for (float& x : t->data<float>()) x = static_cast<float>(static_cast<double>(x) * scale);
  }
}

}  // namespace

Params make_params(const Config& c) {
  check_weight_spec(c);
  const WeightSpec& w = c.weight_spec;
  if (w.kind == WeightKind::default_init) {
    Params p = init_params(c);
    if (w.scale != 1.0) {
      for (const std::string_view key : kStateDictKeys) scale_in_place(*p.find(key), w.scale);
    }
    return p;
  }
  const std::int64_t E = c.embed_dim;
  const ElemType et = elem_type(c.dtype);
  Params p;
  if (c.packed_projection()) {
    p.in_proj_weight = identity(c, 3 * E, E, E, w.scale);
  } else {
    p.q_proj_weight = identity(c, E, E, E, w.scale);
    p.k_proj_weight = identity(c, E, c.k_dim(), E, w.scale);
    p.v_proj_weight = identity(c, E, c.v_dim(), E, w.scale);
  }
  if (c.bias) {
    p.in_proj_bias = Tensor(et, {3 * E});
    p.out_proj_bias = Tensor(et, {E});
  }
  p.out_proj_weight = identity(c, E, E, E, w.scale);
  if (c.add_bias_kv) {
    p.bias_k = Tensor(et, {1, 1, E});
    p.bias_v = Tensor(et, {1, 1, E});
  }
  return p;
}

}  // namespace mhaviz::gen
