// Long-context weights folded to a screen (mhaviz/core/long_context.hpp): docs/semantics.md
// steps 2-10 for the query rows of a region, one stripe of rows at a time, each stripe's
// weights folded into blocks before the next is computed.
#include "mhaviz/core/long_context.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <string_view>

#include "dims.hpp"
#include "eigen_types.hpp"
#include "long_context_rows.hpp"
#include "masks.hpp"
#include "mhaviz/core/errors.hpp"
#include "mhaviz/core/parallel.hpp"
#include "projections.hpp"
#include "softmax.hpp"

namespace mhaviz {

namespace {

using detail::ConstMatMap;
using detail::Dims;
using detail::kElem;
using detail::Mat;

/// Query rows per stripe at least (a stripe is a whole number of block rows).
constexpr std::int64_t kMinStripeRows = 32;

std::string range_text(std::int64_t a, std::int64_t b) {
  return std::to_string(a) + ":" + std::to_string(b);
}

/// The request's region with ends resolved, checked against the problem.
struct Region {
  std::int64_t q0, q1, k0, k1;
};
Region resolve(const ReducedRequest& r, const Dims& d) {
  Region g{r.query_begin, r.query_end < 0 ? d.L : r.query_end, r.key_begin,
           r.key_end < 0 ? d.Sx : r.key_end};
  if (r.batch < 0 || r.batch >= d.N) {
    throw InvalidInput("batch element " + std::to_string(r.batch) +
                       " does not exist: the input has " + std::to_string(d.N) + " (0 to " +
                       std::to_string(d.N - 1) + ")");
  }
  if (r.head < -1 || r.head >= d.H) {
    throw InvalidInput("head " + std::to_string(r.head) + " does not exist: num_heads is " +
                       std::to_string(d.H) + " (heads 0 to " + std::to_string(d.H - 1) + ")");
  }
  if (g.q0 < 0 || g.q1 > d.L || g.q0 >= g.q1) {
    throw InvalidInput("query rows " + range_text(g.q0, g.q1) +
                       " are not a range of the queries 0:" + std::to_string(d.L) +
                       " (give A:B with 0 <= A < B <= " + std::to_string(d.L) + ")");
  }
  if (g.k0 < 0 || g.k1 > d.Sx || g.k0 >= g.k1) {
    throw InvalidInput("key columns " + range_text(g.k0, g.k1) +
                       " are not a range of the keys 0:" + std::to_string(d.Sx) +
                       " (give A:B with 0 <= A < B <= " + std::to_string(d.Sx) + ")");
  }
  if (r.max_rows < 1 || r.max_cols < 1) {
    throw InvalidInput("the reduced view needs at least one value per map in each direction");
  }
  return g;
}

template <typename T>
ReducedWeights run(const Config& c, const Params& p, const Inputs& in, const ReducedRequest& req,
                   const RunControl& control) {
  const Dims d = detail::validated_dims(c, p, in);
  if (c.training && c.dropout > 0.0) {
    throw InvalidInput(
        "the reduced view of a long context shows weights without dropout; set training=false "
        "or dropout=0 (or compute a smaller part with mhaviz-cli run --head/--queries)");
  }
  const Region g = resolve(req, d);
  ReducedWeights out;
  out.N = d.N, out.H = d.H, out.L = d.L, out.Sx = d.Sx, out.batch = req.batch;
  out.query_begin = g.q0, out.query_end = g.q1, out.key_begin = g.k0, out.key_end = g.k1;
  out.block_rows = block_size(g.q1 - g.q0, req.max_rows);
  out.block_cols = block_size(g.k1 - g.k0, req.max_cols);
  out.rows = (g.q1 - g.q0 + out.block_rows - 1) / out.block_rows;
  out.cols = (g.k1 - g.k0 + out.block_cols - 1) / out.block_cols;
  out.reduce = req.reduce;
  if (req.head >= 0) {
    out.heads = {req.head};
  } else {
    for (std::int64_t h = 0; h < d.H; ++h) out.heads.push_back(h);
  }
  const auto maps = static_cast<std::int64_t>(out.heads.size());
  out.maps = Tensor(kElem<T>, {maps, out.rows, out.cols});
  const bool with_average = req.head < 0;
  if (with_average) out.average = Tensor(kElem<T>, {out.rows, out.cols});

  const detail::Projections<T> w(p, d);
  const detail::HeadKeys<T> keys(c, in, d, w, req.batch, g.q0, g.q1, control.threads);
  const detail::MaskRows<T> masks(in, d);
  const auto cancelled = [&] { return control.cancel != nullptr && control.cancel->load(); };
  if (cancelled()) throw Cancelled();
  const detail::BlockFolder<T> folder(out.maps.data<T>().data(),
                                      with_average ? out.average.data<T>().data() : nullptr, out);

  // A stripe: whole block rows, at least kMinStripeRows query rows.
  const std::int64_t blocks_per_stripe =
      std::max<std::int64_t>(1, (kMinStripeRows + out.block_rows - 1) / out.block_rows);
  const std::int64_t stripes = (out.rows + blocks_per_stripe - 1) / blocks_per_stripe;
  const T scale = static_cast<T>(std::sqrt(1.0 / static_cast<double>(d.hd)));  // 2.x
  const bool zero_masked_rows = !c.need_weights;
  std::int64_t done = 0;
  std::mutex progress_mutex;
  parallel_for(
      stripes, thread_count(control.threads, stripes), [&](std::int64_t s) {
        if (cancelled()) throw Cancelled();
        const std::int64_t r0 = s * blocks_per_stripe;
        const std::int64_t r1 = std::min(out.rows, r0 + blocks_per_stripe);
        const std::int64_t i0 = g.q0 + r0 * out.block_rows;
        const std::int64_t i1 = std::min(g.q1, g.q0 + r1 * out.block_rows);
        const std::int64_t rows = i1 - i0, width = g.k1 - g.k0;
        Mat<T> raw(rows, d.Sx), weights(rows, d.Sx), mask;
        if (masks.any()) mask.resize(rows, d.Sx);
        Mat<T> avg;
        if (with_average) avg = Mat<T>::Zero(rows, width);
        std::int64_t live = d.S;  // keys [live, S) are masked (-inf) in every row of the stripe
        for (std::int64_t m = 0; m < maps; ++m) {
          const std::int64_t h = out.heads[static_cast<std::size_t>(m)];
          const std::int64_t b = req.batch * d.H + h;
          if (masks.any() && (m == 0 || masks.per_head())) {
            for (std::int64_t i = 0; i < rows; ++i)
              masks.merged_row(req.batch, b, i0 + i, mask.row(i));
            live = detail::live_keys(mask, d.S);
          }
          // Steps 8-10 as forward() does them: (q * sqrt(1/hd)) @ k^T, + merged mask, softmax;
          // keys masked in every row (the future of a causal stripe) get weight 0 uncomputed.
          const Mat<T> q_scaled = keys.query(h, i0 - g.q0, rows) * scale;
          const Mat<T>& kt = keys.keys_transposed(h);
          detail::product(raw.leftCols(live), q_scaled, kt.leftCols(live));
          if (d.Sx > d.S)
            detail::product(raw.rightCols(d.Sx - d.S), q_scaled, kt.rightCols(d.Sx - d.S));
          if (masks.any()) {
            raw.leftCols(live) += mask.leftCols(live);
            raw.rightCols(d.Sx - d.S) += mask.rightCols(d.Sx - d.S);
          }
          for (std::int64_t i = 0; i < rows; ++i) {
            detail::softmax_live(raw.row(i), weights.row(i), live, d.S, zero_masked_rows);
          }
          folder.fold(m, r0, weights.middleCols(g.k0, width));
          if (with_average) avg += weights.middleCols(g.k0, width);
        }
        if (with_average) {
          avg /= static_cast<T>(d.H);
          folder.fold(-1, r0, avg);
        }
        if (cancelled()) throw Cancelled();
        if (control.progress) {
          const std::lock_guard lock(progress_mutex);
          control.progress(++done, stripes);
        }
      });
  return out;
}

}  // namespace

std::int64_t block_size(std::int64_t cells, std::int64_t max_values) {
  if (cells <= 0 || max_values <= 0) return 1;
  return std::max<std::int64_t>(1, (cells + max_values - 1) / max_values);
}

std::string ReducedWeights::description() const {
  if (exact()) return "exact cells";
  return std::string("block ") + (reduce == BlockReduce::max ? "max" : "mean") + " of " +
         std::to_string(block_rows) + "x" + std::to_string(block_cols) + " cells";
}

ReducedWeights reduced_weights(const Config& config, const Params& params, const Inputs& inputs,
                               const ReducedRequest& request, const RunControl& control) {
  // Floating tensors in another precision than the config's are converted (as forward()).
  const ElemType type = config.dtype == DType::float64 ? ElemType::f64 : ElemType::f32;
  const auto to_t = [type](std::optional<Tensor>& t) {
    if (t && t->is_floating() && t->type() != type) t = t->to(type);
  };
  Params p = params;
  for (std::string_view key : kStateDictKeys) to_t(*p.find(key));
  Inputs in = inputs;  // copies share the elements: nothing is copied unless converted
  for (Tensor* t : {&in.query, &in.key, &in.value}) {
    if (t->is_floating() && t->type() != type) *t = t->to(type);
  }
  to_t(in.static_k);
  to_t(in.static_v);
  if (config.dtype == DType::float64) return run<double>(config, p, in, request, control);
  return run<float>(config, p, in, request, control);
}

}  // namespace mhaviz
