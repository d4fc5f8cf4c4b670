// Per-query attention measures and head ablation (mhaviz/core/analysis/measures.hpp).
#include "mhaviz/core/analysis/measures.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "base/eigen_types.hpp"
#include "mhaviz/core/analysis/logit_scale.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/base/parallel.hpp"

namespace mhaviz {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Rows of one (n, h) that a block of the row-wise measures holds: small enough that a cancel
/// is seen within about a millisecond (a block of the entropy is 16 rows of Sx weights).
constexpr std::int64_t kEntropyRows = 16;
constexpr std::int64_t kAblationRows = 64;

/// Calls fn(b) for every block b in [0, count) on control.threads threads, throwing Cancelled
/// before a block when control.cancel reads true, and calling control.progress (serialised)
/// after each block with (blocks of this step done, blocks of this step). Each block writes
/// only its own entries, so the results do not depend on the thread count, bit for bit.
void for_blocks(std::int64_t count, const RunControl& control,
                const std::function<void(std::int64_t)>& fn) {
  std::mutex progress_mutex;
  std::int64_t done = 0;
  parallel_for(count, thread_count(control.threads, count), [&](std::int64_t b) {
    if (control.cancel != nullptr && control.cancel->load(std::memory_order_relaxed)) {
      throw Cancelled();
    }
    fn(b);
    if (control.progress) {
      const std::lock_guard lock(progress_mutex);
      control.progress(++done, count);
    }
  });
}

/// for_blocks over the rows of every (n, h) in blocks of `rows` rows: fn(b, i0, i1) for
/// batch-head b = n * H + h and its rows [i0, i1).
void for_row_blocks(std::int64_t heads, std::int64_t L, std::int64_t rows,
                    const RunControl& control,
                    const std::function<void(std::int64_t, std::int64_t, std::int64_t)>& fn) {
  const std::int64_t per_head = std::max<std::int64_t>(1, (L + rows - 1) / rows);
  for_blocks(heads * per_head, control, [&](std::int64_t k) {
    const std::int64_t b = k / per_head, i0 = (k % per_head) * rows;
    fn(b, i0, std::min(L, i0 + rows));
  });
}

void check_fit(const ForwardResult& r, const Inputs& in) {
  const auto fits = [&](const std::optional<Tensor>& m, std::int64_t rows2d, std::int64_t rows3d) {
    if (!m) return true;
    const std::int64_t n = m->numel();
    return n == rows2d * r.S || n == rows3d * r.S;
  };
  // A mask the SDPA path dropped was never applied (PyTorch does not check its shape either).
  const bool attn_fits = r.path.attn_mask_dropped || fits(in.attn_mask, r.L, r.N * r.H * r.L);
  if (!attn_fits || !fits(in.key_padding_mask, r.N, r.N)) {
    throw InvalidInput("measures: the masks do not belong to this result (attn_mask must hold " +
                       std::to_string(r.L * r.S) + " or " + std::to_string(r.N * r.H * r.L * r.S) +
                       " values, key_padding_mask " + std::to_string(r.N * r.S) +
                       "); compute the result from these inputs first");
  }
}

/// Open keys of every (n, h, i): the entries of the merged mask the pass applied
/// (ForwardResult::merged_mask: with the SDPA path's causal mask over all Sx columns where that
/// path drops attn_mask) that are not -inf.
template <typename T>
std::vector<std::int64_t> open_keys(const ForwardResult& r, const RunControl& control) {
  std::vector<std::int64_t> out(static_cast<std::size_t>(r.N * r.H * r.L), r.Sx);
  if (!r.has_mask()) return out;
  const T* mask = r.merged_mask.data<T>().data();
  for_row_blocks(r.N * r.H, r.L, kEntropyRows, control,
                 [&](std::int64_t b, std::int64_t i0, std::int64_t i1) {
                   const std::int64_t n = b / r.H, h = b % r.H;
                   std::size_t at = static_cast<std::size_t>(b * r.L + i0);
                   for (std::int64_t i = i0; i < i1; ++i, ++at) {
                     const T* row = mask + r.mask_offset(n, h, 0) + i * r.mask_row_stride();
                     out[at] = std::count_if(row, row + r.Sx, [](T x) {
                       return x != -std::numeric_limits<T>::infinity();
                     });
                   }
                 });
  return out;
}

std::int64_t column_of(const ForwardResult& r, KeyKind kind) {
  for (std::size_t j = 0; j < r.columns.size(); ++j) {
    if (r.columns[j].kind == kind) return static_cast<std::int64_t>(j);
  }
  return -1;
}

/// What attention_measures reads from one row of weights (Sx of them).
struct RowStats {
  double entropy = 0.0;  ///< -Σ x log x over the weights in (0, 1), in nats
  double top = 0.0;      ///< the largest weight
  bool nan = false;      ///< a weight is NaN
};

/// The row's statistics, vectorised: the logarithms in T (Eigen's array log, a few ulp), the
/// terms summed in double. `terms` is scratch of Sx entries. A weight of 0 or 1 adds exactly
/// 0 (log 1 = 0), so a row with one weight 1 has entropy exactly 0.
template <typename T>
RowStats row_stats(const T* a, std::int64_t Sx, Eigen::Array<T, Eigen::Dynamic, 1>& terms) {
  using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
  const Eigen::Map<const Array> x(a, Sx);
  RowStats s;
  // Weights lie in [0, 1]: their sum is NaN exactly when one of them is.
  s.nan = std::isnan(x.sum());
  if (s.nan) return s;
  // Eigen's select() is not vectorised: a weight of 0 is read as the smallest normal number,
  // whose log is finite, so its term is 0 · log = 0 (and a subnormal weight's term is below
  // any rounding of the sum).
  terms = x * x.cwiseMax(std::numeric_limits<T>::min()).log();
  s.entropy = -terms.template cast<double>().sum();
  s.top = static_cast<double>(x.maxCoeff());
  return s;
}

template <typename T>
void attention_measures(const ForwardResult& r, HeadMeasures& m, const RunControl& control) {
  const auto w = attention_distribution(r).data<T>();
  const std::int64_t jb = column_of(r, KeyKind::bias_k);
  const std::int64_t jz = column_of(r, KeyKind::zero);
  const auto rows = static_cast<std::size_t>(r.N * r.H * r.L);
  for (auto* v :
       {&m.entropy, &m.normalized_entropy, &m.confidence, &m.first_key, &m.bias_k, &m.zero}) {
    v->assign(rows, kNaN);
  }
  // Blocks of kEntropyRows rows of one (n, h).
  for_row_blocks(
      r.N * r.H, r.L, kEntropyRows, control, [&](std::int64_t b, std::int64_t i0, std::int64_t i1) {
        Eigen::Array<T, Eigen::Dynamic, 1> terms(r.Sx);
        for (auto row = static_cast<std::size_t>(b * r.L + i0);
             row < static_cast<std::size_t>(b * r.L + i1); ++row) {
          const std::int64_t open = m.open_keys[row];
          if (open == 0) continue;
          const T* a = w.data() + row * static_cast<std::size_t>(r.Sx);
          const RowStats s = row_stats(a, r.Sx, terms);
          if (s.nan) continue;  // NaN scores (not masks) give NaN weights: every measure stays NaN
          const double h = s.entropy;
          m.entropy[row] = h == 0.0 ? 0.0 : h;  // no -0
          m.normalized_entropy[row] = open == 1 ? 0.0 : h / std::log(static_cast<double>(open));
          m.confidence[row] = s.top;
          m.first_key[row] = r.S > 0 ? static_cast<double>(a[0]) : 0.0;
          m.bias_k[row] = jb >= 0 ? static_cast<double>(a[jb]) : 0.0;
          m.zero[row] = jz >= 0 ? static_cast<double>(a[jz]) : 0.0;
        }
      });
}

/// ‖Δ‖ and ‖output‖ of every (n, h, i) row, Δ = head_output[n,h,i] @ W_O[:, h*hd:(h+1)*hd]^T
/// (the change of the output row when the head is zeroed, up to its sign).
template <typename T>
void ablation_norms(const ForwardResult& r, std::vector<double>& delta, std::vector<double>& out,
                    const RunControl& control) {
  using M = detail::Mat<double>;
  const Tensor wt = r.params.out_proj_weight->to(ElemType::f64);
  const detail::ConstMatMap<double> wo(wt.data<double>().data(), r.E, r.E);
  const auto ho = r.head_output.data<T>();
  const auto o = r.output.data<T>();
  delta.assign(static_cast<std::size_t>(r.N * r.H * r.L), kNaN);
  out.assign(delta.size(), kNaN);
  // Blocks of kAblationRows rows of one (n, h).
  for_row_blocks(
      r.N * r.H, r.L, kAblationRows, control,
      [&](std::int64_t b, std::int64_t i0, std::int64_t i1) {
        const std::int64_t n = b / r.H, h = b % r.H;
        const std::size_t base = static_cast<std::size_t>((n * r.H + h) * r.L);
        M x(i1 - i0, r.hd);
        for (std::int64_t i = i0; i < i1; ++i) {
          for (std::int64_t c = 0; c < r.hd; ++c) {
            x(i - i0, c) =
                ho[(base + static_cast<std::size_t>(i)) * static_cast<std::size_t>(r.hd) +
                   static_cast<std::size_t>(c)];
          }
        }
        const M d = x * wo.middleCols(h * r.hd, r.hd).transpose();
        for (std::int64_t i = i0; i < i1; ++i) {
          delta[base + static_cast<std::size_t>(i)] = d.row(i - i0).norm();
          double s = 0.0;
          const T* orow = o.data() + static_cast<std::size_t>((n * r.L + i) * r.E);
          for (std::int64_t e = 0; e < r.E; ++e) s += double(orow[e]) * double(orow[e]);
          out[base + static_cast<std::size_t>(i)] = std::sqrt(s);
        }
      });
}

double ratio(double delta, double out) {
  if (!std::isfinite(delta) || !std::isfinite(out) || out == 0.0) return kNaN;
  return delta / out;
}

template <typename T>
HeadMeasures compute(const ForwardResult& r, const RunControl& control) {
  HeadMeasures m;
  m.N = r.N;
  m.H = r.H;
  m.L = r.L;
  m.has_bias_k = column_of(r, KeyKind::bias_k) >= 0;
  m.has_zero = column_of(r, KeyKind::zero) >= 0;
  m.open_keys = open_keys<T>(r, control);
  attention_measures<T>(r, m, control);
  // Weights without a pass (a weights-only model's layer): no head outputs or out_proj to
  // ablate; the ablation is NaN (not available), the attention measures are the weights'.
  if (r.head_output.dim() == 0 || r.output.dim() == 0) {
    m.ablation.assign(static_cast<std::size_t>(r.N * r.H * r.L), kNaN);
    return m;
  }
  std::vector<double> delta, out;
  ablation_norms<T>(r, delta, out, control);
  m.ablation.resize(delta.size());
  for (std::size_t k = 0; k < delta.size(); ++k) m.ablation[k] = ratio(delta[k], out[k]);
  return m;
}

}  // namespace

const Tensor& attention_distribution(const ForwardResult& result) {
  return result.weights_before_dropout ? *result.weights_before_dropout : result.weights;
}

HeadMeasures head_measures(const ForwardResult& result, const Inputs& inputs,
                           const RunControl& control) {
  check_fit(result, inputs);
  // A pass's result has out_proj.weight; weights alone (no head outputs) need none.
  if (!result.params.out_proj_weight && result.head_output.dim() != 0) {
    throw InvalidInput("measures: the result has no out_proj.weight");
  }
  if (result.weights.type() == ElemType::f64) return compute<double>(result, control);
  return compute<float>(result, control);
}

namespace {

/// Σ_e output[b, i, e]² of output row (b, i), in double, summed in order of e.
double output_row_square(const ForwardResult& result, std::int64_t b, std::int64_t i) {
  double s = 0.0;
  for (std::int64_t e = 0; e < result.E; ++e) {
    const double x = result.output.value((b * result.L + i) * result.E + e);
    s += x * x;
  }
  return s;
}

/// head_average with the output rows' squares from `squares` ((N, L), output_row_square's)
/// when given, else computed here.
HeadAverage average_of(const HeadMeasures& m, const ForwardResult& result, std::int64_t n,
                       std::int64_t h, const std::vector<double>* squares) {
  HeadAverage a;
  double sums[6] = {0, 0, 0, 0, 0, 0};
  double d2 = 0.0, o2 = 0.0;
  const std::int64_t n0 = n < 0 ? 0 : n;
  const std::int64_t n1 = n < 0 ? m.N : n + 1;
  for (std::int64_t b = n0; b < n1; ++b) {
    for (std::int64_t i = 0; i < m.L; ++i) {
      const std::size_t k = m.at(b, h, i);
      if (!std::isnan(m.entropy[k])) {
        ++a.queries;
        sums[0] += m.entropy[k];
        sums[1] += m.normalized_entropy[k];
        sums[2] += m.confidence[k];
        sums[3] += m.first_key[k];
        sums[4] += m.bias_k[k];
        sums[5] += m.zero[k];
      }
      if (!std::isnan(m.ablation[k])) {
        // ‖output‖ of the row, from the result (the ratio alone cannot be summed).
        const double s = squares != nullptr ? (*squares)[static_cast<std::size_t>(b * m.L + i)]
                                            : output_row_square(result, b, i);
        d2 += m.ablation[k] * m.ablation[k] * s;
        o2 += s;
      }
    }
  }
  const auto mean = [&](double s) {
    return a.queries > 0 ? s / static_cast<double>(a.queries) : kNaN;
  };
  a.entropy = mean(sums[0]);
  a.normalized_entropy = mean(sums[1]);
  a.confidence = mean(sums[2]);
  a.first_key = mean(sums[3]);
  a.bias_k = mean(sums[4]);
  a.zero = mean(sums[5]);
  a.ablation = o2 > 0.0 ? std::sqrt(d2 / o2) : kNaN;
  return a;
}

}  // namespace

HeadAverage head_average(const HeadMeasures& m, const ForwardResult& result, std::int64_t n,
                         std::int64_t h) {
  return average_of(m, result, n, h, nullptr);
}

ResultMeasures measure_result(const ForwardResult& result, const Inputs& inputs,
                              const RunControl& control) {
  ResultMeasures out;
  out.head = head_measures(result, inputs, control);
  // Weights without a pass (model::weights_result): the attention measures and the sink scores
  // only; the ablation (NaN), value norms, value zeroing and logit scale need the pass.
  if (result.head_output.dim() == 0 || result.output.dim() == 0) {
    out.averages.resize(static_cast<std::size_t>((result.N + 1) * result.H));
    for_blocks((result.N + 1) * result.H, control, [&](std::int64_t k) {
      const std::int64_t n = k / result.H, h = k % result.H;
      out.averages[static_cast<std::size_t>(k)] =
          average_of(out.head, result, n == result.N ? -1 : n, h, nullptr);
    });
    out.sinks = sink_scores(result, control);
    return out;
  }
  // The squares of the output rows once (every head's average reads them), then the averages
  // of every (n, h) and of every h over all n, in parallel: each is the same sum as
  // head_average's.
  std::vector<double> squares(static_cast<std::size_t>(result.N * result.L));
  for_row_blocks(result.N, result.L, kAblationRows, control,
                 [&](std::int64_t b, std::int64_t i0, std::int64_t i1) {
                   for (std::int64_t i = i0; i < i1; ++i) {
                     squares[static_cast<std::size_t>(b * result.L + i)] =
                         output_row_square(result, b, i);
                   }
                 });
  out.averages.resize(static_cast<std::size_t>((result.N + 1) * result.H));
  for_blocks((result.N + 1) * result.H, control, [&](std::int64_t k) {
    const std::int64_t n = k / result.H, h = k % result.H;
    out.averages[static_cast<std::size_t>(k)] =
        average_of(out.head, result, n == result.N ? -1 : n, h, &squares);
  });
  out.sinks = sink_scores(result, control);
  if (result.N * result.H * result.L * result.Sx <= kValueNormCellLimit) {
    out.norms = value_norms(result, control);
    out.zeroing = value_zeroing(result, control);
  }
  try {
    out.logit_scale = logit_scales(result.params, result.E, result.H);
  } catch (const InvalidInput&) {
    out.logit_scale.clear();  // no projection weights: the view leaves the measure out
  }
  return out;
}

std::size_t ResultMeasures::bytes() const {
  std::size_t b = head.open_keys.size() * sizeof(std::int64_t) +
                  7 * head.entropy.size() * sizeof(double) + averages.size() * sizeof(HeadAverage);
  if (norms) {
    b += norms->per_head.bytes().size() + norms->summed.bytes().size() +
         norms->f_norms.bytes().size();
  }
  if (zeroing) b += zeroing->cosine.bytes().size() + zeroing->relative_l2.bytes().size();
  b += sinks.score.size() * sizeof(double) + sinks.queries.size() * sizeof(std::int64_t);
  return b;
}

}  // namespace mhaviz
