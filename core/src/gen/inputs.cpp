// query/key/value generation: random normal, one-hot tokens, sinusoidal positions.
#include "mhaviz/core/gen/inputs.hpp"

#include <cmath>

#include "base/rng.hpp"

namespace mhaviz::gen {

namespace {

/// Value of feature f of position p: one-hot or Vaswani's sinusoid, before scaling.
double token_value(InputKind kind, std::int64_t p, std::int64_t f, std::int64_t width) {
  if (kind == InputKind::one_hot) return f == p % width ? 1.0 : 0.0;
  // PE(p, 2k) = sin(p / 10000^(2k/d)), PE(p, 2k+1) = cos(p / 10000^(2k/d)).
  const auto two_k = static_cast<double>(f - f % 2);
  const double angle =
      static_cast<double>(p) / std::pow(10000.0, two_k / static_cast<double>(width));
  return f % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

/// A (len, N, width) / (N, len, width) / (len, width) tensor of the config's layout whose
/// element (position p, batch n, feature f) is scale * token_value + content * normal.
Tensor positional(const Config& c, std::int64_t len, std::int64_t width, std::uint64_t stream) {
  const InputSpec& s = c.input_spec;
  const std::int64_t N = c.batch();
  std::vector<double> v(static_cast<std::size_t>(len * N * width));
  // The random content: normal k of the stream for element k in row-major order of `shape`.
  std::vector<double> content;
  if (s.kind == InputKind::sinusoidal && s.content_scale > 0.0) {
    content.resize(v.size());
    mhaviz::detail::CounterRng(c.input_seed_or_default(), stream).normals(0, content);
  }
  Shape shape;
  if (!c.batched()) {
    shape = {len, width};
  } else if (c.batch_first) {
    shape = {N, len, width};
  } else {
    shape = {len, N, width};
  }
  std::size_t k = 0;
  const std::int64_t outer = c.batched() ? shape[0] : len;
  const std::int64_t inner = c.batched() ? shape[1] : 1;
  for (std::int64_t a = 0; a < outer; ++a) {
    for (std::int64_t b = 0; b < inner; ++b) {
      const std::int64_t p = c.batched() && c.batch_first ? b : a;
      for (std::int64_t f = 0; f < width; ++f) {
        double x = s.scale * token_value(s.kind, p, f, width);
        if (!content.empty()) x += s.content_scale * content[k];
        v[k++] = x;
      }
    }
  }
  const Tensor t = Tensor::from<double>(std::move(shape), std::move(v));
  return c.dtype == DType::float64 ? t : t.to(ElemType::f32);
}

Tensor scaled(const Tensor& t, double scale) {
  Tensor out = t;
  if (out.type() == ElemType::f64) {
    for (double& x : out.data<double>()) x *= scale;
  } else {
    for (float& x : out.data<float>()) x = static_cast<float>(static_cast<double>(x) * scale);
  }
  return out;
}

}  // namespace

Inputs make_inputs(const Config& c) {
  check_input_spec(c);
  const InputSpec& s = c.input_spec;
  Inputs in;
  if (s.kind == InputKind::random) {
    in = random_inputs(c);
    if (s.scale != 1.0) {
      in.query = scaled(in.query, s.scale);
      in.key = scaled(in.key, s.scale);
      in.value = scaled(in.value, s.scale);
    }
  } else {
    using mhaviz::detail::kKeyStream, mhaviz::detail::kQueryStream, mhaviz::detail::kValueStream;
    in.query = positional(c, c.tgt_len, c.embed_dim, kQueryStream);
    in.key = positional(c, c.src_len, c.k_dim(), kKeyStream);
    in.value = positional(c, c.src_len, c.v_dim(), kValueStream);
  }
  if (s.self_attention) {
    in.key = in.query;
    in.value = in.query;
  }
  return in;
}

}  // namespace mhaviz::gen
