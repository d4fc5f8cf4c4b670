// F.multi_head_attention_forward's general path (PyTorch 2.x), every intermediate kept.
// Step numbers refer to ../shared/docs/mha-semantics.md.
#include "mhaviz/core/forward.hpp"

#include <cmath>
#include <limits>

#include "dims.hpp"
#include "eigen_types.hpp"
#include "mhaviz/core/errors.hpp"
#include "rng.hpp"

namespace mhaviz {

namespace {

using detail::ConstMatMap;
using detail::Dims;
using detail::Mat;
using detail::MatMap;
using detail::RowVec;
using detail::StridedMap;

template <typename T>
constexpr ElemType kElem = std::is_same_v<T, double> ? ElemType::f64 : ElemType::f32;

template <typename T>
std::span<const T> values(const Tensor& t) {
  return t.data<T>();
}

/// Input rows of one batch element as an (len, features) matrix, whatever the layout.
template <typename T>
StridedMap<T> batch_rows(const Tensor& t, const Dims& d, bool batch_first, std::int64_t n) {
  const std::int64_t len = t.size(d.batched && batch_first ? 1 : 0);
  const std::int64_t f = t.size(-1);
  const T* base = values<T>(t).data();
  if (!d.batched || batch_first) {
    return StridedMap<T>(base + n * len * f, len, f, Eigen::OuterStride<>(f));
  }
  return StridedMap<T>(base + n * f, len, f, Eigen::OuterStride<>(d.N * f));
}

/// Step 2 weights: W_q, W_k, W_v and their biases, from the packed or separate parameters.
template <typename T>
struct Projections {
  Mat<T> wq, wk, wv, wo;
  RowVec<T> bq, bk, bv, bo;
  RowVec<T> bias_k, bias_v;
};

template <typename T>
Mat<T> as_matrix(const Tensor& t, std::int64_t row0, std::int64_t rows) {
  const std::int64_t cols = t.size(-1);
  return ConstMatMap<T>(values<T>(t).data() + row0 * cols, rows, cols);
}

template <typename T>
RowVec<T> as_row(const Tensor& t, std::int64_t from, std::int64_t count) {
  return Eigen::Map<const RowVec<T>>(values<T>(t).data() + from, count);
}

template <typename T>
Projections<T> projections(const Params& p, const Dims& d) {
  Projections<T> w;
  const std::int64_t E = d.E;
  if (p.in_proj_weight) {
    w.wq = as_matrix<T>(*p.in_proj_weight, 0, E);
    w.wk = as_matrix<T>(*p.in_proj_weight, E, E);
    w.wv = as_matrix<T>(*p.in_proj_weight, 2 * E, E);
  } else {
    w.wq = as_matrix<T>(*p.q_proj_weight, 0, E);
    w.wk = as_matrix<T>(*p.k_proj_weight, 0, E);
    w.wv = as_matrix<T>(*p.v_proj_weight, 0, E);
  }
  w.wo = as_matrix<T>(*p.out_proj_weight, 0, E);
  w.bq = w.bk = w.bv = w.bo = RowVec<T>::Zero(E);
  if (p.in_proj_bias) {
    w.bq = as_row<T>(*p.in_proj_bias, 0, E);
    w.bk = as_row<T>(*p.in_proj_bias, E, E);
    w.bv = as_row<T>(*p.in_proj_bias, 2 * E, E);
  }
  if (p.out_proj_bias) w.bo = as_row<T>(*p.out_proj_bias, 0, E);
  if (p.bias_k) {
    w.bias_k = as_row<T>(*p.bias_k, 0, E);
    w.bias_v = as_row<T>(*p.bias_v, 0, E);
  }
  return w;
}

/// Step 2: x @ W.T + b for one batch element.
template <typename T>
Mat<T> project(const StridedMap<T>& x, const Mat<T>& w, const RowVec<T>& b) {
  Mat<T> y(x.rows(), w.rows());
  y.noalias() = x * w.transpose();
  y.rowwise() += b;
  return y;
}

/// Step 3: a bool mask becomes 0 / -inf, a float mask is kept; both as T.
template <typename T>
Mat<T> canonical_mask(const Tensor& m, std::int64_t rows, std::int64_t cols) {
  Mat<T> out(rows, cols);
  const auto n = static_cast<std::size_t>(rows * cols);
  if (m.type() == ElemType::boolean) {
    const auto src = m.data<std::uint8_t>();
    for (std::size_t i = 0; i < n; ++i) {
      out.data()[i] = src[i] != 0 ? -std::numeric_limits<T>::infinity() : T(0);
    }
  } else {
    const Tensor t = m.to(kElem<T>);
    std::copy_n(t.data<T>().begin(), n, out.data());
  }
  return out;
}

/// The masks of steps 3 and 8 canonicalised once: attn_mask as (L, S) or (N*H*L, S) rows,
/// key_padding_mask as (N, S).
template <typename T>
struct Masks {
  Mat<T> attn;
  bool attn_3d = false;
  Mat<T> padding;

  Masks(const Inputs& in, const Dims& d) {
    if (in.attn_mask) {
      attn_3d = in.attn_mask->dim() == 3;
      attn = canonical_mask<T>(*in.attn_mask, attn_3d ? d.N * d.H * d.L : d.L, d.S);
    }
    if (in.key_padding_mask) padding = canonical_mask<T>(*in.key_padding_mask, d.N, d.S);
  }

  /// Steps 4, 7, 8: the merged additive mask of batch-head b (batch element n) as (L, Sx);
  /// the appended bias_k / zero columns stay 0, so they can never be masked.
  void merged(const Dims& d, std::int64_t n, std::int64_t b, MatMap<T>& out) const {
    out.setZero();
    auto src = out.leftCols(d.S);
    if (attn.size() > 0) src = attn.middleRows(attn_3d ? b * d.L : 0, d.L);
    if (padding.size() > 0) src.rowwise() += padding.row(n);
  }
};

/// Step 10: softmax over each row, in place. A row of only -inf becomes NaN (as PyTorch), or
/// 0 when `fully_masked_to_zero` (2.x's need_weights=False path through SDPA).
template <typename T>
void softmax_rows(MatMap<T>& w, bool fully_masked_to_zero) {
  for (Eigen::Index i = 0; i < w.rows(); ++i) {
    auto row = w.row(i);
    const T mx = row.maxCoeff();
    if (fully_masked_to_zero && mx == -std::numeric_limits<T>::infinity()) {
      row.setZero();
      continue;
    }
    row = (row.array() - mx).exp();
    row /= row.sum();
  }
}

/// Matrix `index` of a tensor viewed as a stack of (rows, cols) matrices.
template <typename T>
MatMap<T> block(Tensor& t, std::int64_t index, std::int64_t rows, std::int64_t cols) {
  return MatMap<T>(t.data<T>().data() + index * rows * cols, rows, cols);
}
template <typename T>
ConstMatMap<T> block(const Tensor& t, std::int64_t index, std::int64_t rows, std::int64_t cols) {
  return ConstMatMap<T>(t.data<T>().data() + index * rows * cols, rows, cols);
}

template <typename T>
ForwardResult run(const Config& c, const Params& p, const Inputs& in, const RunControl& rc) {
  const Dims d = detail::validated_dims(c, p, in);
  const std::int64_t N = d.N, H = d.H, L = d.L, S = d.S, Sx = d.Sx, E = d.E, hd = d.hd;
  const bool dropping = c.training && c.dropout > 0.0;

  ForwardResult r;
  r.config = c;
  r.N = N, r.H = H, r.L = L, r.S = S, r.Sx = Sx, r.E = E, r.hd = hd;
  const ElemType et = kElem<T>;
  r.q = Tensor(et, {N, H, L, hd});
  r.k = Tensor(et, {N, H, Sx, hd});
  r.v = Tensor(et, {N, H, Sx, hd});
  r.raw_scores = Tensor(et, {N, H, L, Sx});
  r.mask = Tensor(et, {N, H, L, Sx});
  r.scores = Tensor(et, {N, H, L, Sx});
  r.weights = Tensor(et, {N, H, L, Sx});
  if (dropping) r.weights_before_dropout = Tensor(et, {N, H, L, Sx});
  r.head_output = Tensor(et, {N, H, L, hd});
  r.merged = Tensor(et, {N, L, E});
  r.output = Tensor(et, {N, L, E});
  for (std::int64_t j = 0; j < S; ++j) r.columns.push_back({KeyKind::source, j});
  if (c.add_bias_kv) r.columns.push_back({KeyKind::bias_k, S});
  if (c.add_zero_attn) r.columns.push_back({KeyKind::zero, Sx - 1});

  const Projections<T> w = projections<T>(p, d);
  const Masks<T> masks(in, d);
  const T scale = static_cast<T>(std::sqrt(1.0 / static_cast<double>(hd)));  // 2.x: q * sqrt(1/hd)
  const T keep_scale = c.dropout < 1.0 ? static_cast<T>(1.0 / (1.0 - c.dropout)) : T(0);
  const bool bf = c.batch_first;
  const std::int64_t total = N * H;
  std::int64_t done = 0;

  for (std::int64_t n = 0; n < N; ++n) {
    // Step 2: in-projection of this batch element.
    const Mat<T> qp = project<T>(batch_rows<T>(in.query, d, bf, n), w.wq, w.bq);
    const Mat<T> kp = in.static_k ? Mat<T>() : project<T>(batch_rows<T>(in.key, d, bf, n), w.wk, w.bk);
    const Mat<T> vp =
        in.static_v ? Mat<T>() : project<T>(batch_rows<T>(in.value, d, bf, n), w.wv, w.bv);
    auto merged = block<T>(r.merged, n, L, E);

    for (std::int64_t h = 0; h < H; ++h) {
      if (rc.cancel != nullptr && rc.cancel->load(std::memory_order_relaxed)) throw Cancelled();
      const std::int64_t b = n * H + h;  // step 5: batch-head index
      auto q = block<T>(r.q, b, L, hd);
      auto k = block<T>(r.k, b, Sx, hd);
      auto v = block<T>(r.v, b, Sx, hd);
      // Steps 4-7: head split, static_k/v, bias_k/bias_v row, zero row (in that order).
      q = qp.middleCols(h * hd, hd);
      if (in.static_k) {
        k.topRows(S) = block<T>(*in.static_k, b, S, hd);
      } else {
        k.topRows(S) = kp.middleCols(h * hd, hd);
      }
      if (in.static_v) {
        v.topRows(S) = block<T>(*in.static_v, b, S, hd);
      } else {
        v.topRows(S) = vp.middleCols(h * hd, hd);
      }
      if (c.add_bias_kv) {
        k.row(S) = w.bias_k.segment(h * hd, hd);
        v.row(S) = w.bias_v.segment(h * hd, hd);
      }
      if (c.add_zero_attn) {
        k.row(Sx - 1).setZero();
        v.row(Sx - 1).setZero();
      }
      // Step 9: scores = (q * sqrt(1/hd)) @ k^T + mask.
      auto raw = block<T>(r.raw_scores, b, L, Sx);
      raw.noalias() = (q * scale) * k.transpose();
      auto mask = block<T>(r.mask, b, L, Sx);
      masks.merged(d, n, b, mask);
      auto scores = block<T>(r.scores, b, L, Sx);
      scores = raw + mask;
      // Step 10: softmax; step 11: dropout.
      auto weights = block<T>(r.weights, b, L, Sx);
      weights = scores;
      softmax_rows<T>(weights, !c.need_weights);
      if (dropping) {
        block<T>(*r.weights_before_dropout, b, L, Sx) = weights;
        detail::Rng rng(c.dropout_seed_or_default(), static_cast<std::uint64_t>(b));
        for (Eigen::Index i = 0; i < weights.size(); ++i) {
          T& x = weights.data()[i];
          x = rng.uniform() < c.dropout ? T(0) : x * keep_scale;
        }
      }
      // Step 12: weighted values, merged back at features [h*hd, (h+1)*hd).
      auto out = block<T>(r.head_output, b, L, hd);
      out.noalias() = weights * v;
      merged.middleCols(h * hd, hd) = out;
      ++done;
      if (rc.progress) rc.progress(done, total);
    }
    // Step 12: out_proj.
    auto o = block<T>(r.output, n, L, E);
    o.noalias() = merged * w.wo.transpose();
    o.rowwise() += w.bo;
  }

  // Step 13: PyTorch's return values in the input layout.
  if (!d.batched) {
    r.attn_output = r.output.reshaped({L, E});
  } else if (bf) {
    r.attn_output = r.output;
  } else {
    r.attn_output = Tensor(et, {L, N, E});
    auto dst = r.attn_output.data<T>();
    const auto src = r.output.data<T>();
    for (std::int64_t n = 0; n < N; ++n) {
      for (std::int64_t l = 0; l < L; ++l) {
        std::copy_n(src.begin() + (n * L + l) * E, E, dst.begin() + (l * N + n) * E);
      }
    }
  }
  if (c.need_weights) {
    if (c.average_attn_weights) {
      Tensor avg(et, {N, L, Sx});
      for (std::int64_t n = 0; n < N; ++n) {
        auto a = block<T>(avg, n, L, Sx);
        for (std::int64_t h = 0; h < H; ++h) a += block<T>(r.weights, n * H + h, L, Sx);
        a /= static_cast<T>(H);
      }
      r.attn_output_weights = d.batched ? avg : avg.reshaped({L, Sx});
    } else {
      r.attn_output_weights = d.batched ? r.weights : r.weights.reshaped({H, L, Sx});
    }
  }
  return r;
}

/// Floating tensors in another precision than the config's are converted (as PyTorch would
/// after module.to(dtype)); masks are left as they are and canonicalised later.
template <typename T>
ForwardResult run_converted(const Config& c, const Params& p, const Inputs& in,
                            const RunControl& rc) {
  const auto differs_t = [](const Tensor& t) { return t.is_floating() && t.type() != kElem<T>; };
  const auto differs = [&](const std::optional<Tensor>& t) { return t && differs_t(*t); };
  bool convert = differs_t(in.query) || differs_t(in.key) || differs_t(in.value) ||
                 differs(in.static_k) || differs(in.static_v);
  for (std::string_view key : kStateDictKeys) convert = convert || differs(*p.find(key));
  if (!convert) return run<T>(c, p, in, rc);

  const auto to_t = [](std::optional<Tensor>& t) {
    if (t && t->is_floating()) t = t->to(kElem<T>);
  };
  Params pc = p;
  for (std::string_view key : kStateDictKeys) to_t(*pc.find(key));
  Inputs ic = in;
  for (Tensor* t : {&ic.query, &ic.key, &ic.value}) {
    if (t->is_floating()) *t = t->to(kElem<T>);
  }
  to_t(ic.static_k);
  to_t(ic.static_v);
  return run<T>(c, pc, ic, rc);
}

}  // namespace

ForwardResult forward(const Config& config, const Params& params, const Inputs& inputs,
                      const RunControl& control) {
  if (config.dtype == DType::float64) {
    return run_converted<double>(config, params, inputs, control);
  }
  return run_converted<float>(config, params, inputs, control);
}

}  // namespace mhaviz
