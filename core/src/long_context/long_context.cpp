// Long-context weights folded to a screen (mhaviz/core/long_context/long_context.hpp):
// docs/semantics.md steps 2-10 for the query rows of a region, one stripe of rows at a time, each
// stripe's weights folded into blocks before the next is computed.
#include "mhaviz/core/long_context/long_context.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <string_view>

#include "base/eigen_types.hpp"
#include "forward/dims.hpp"
#include "forward/masks.hpp"
#include "forward/projections.hpp"
#include "long_context_fold.hpp"
#include "long_context_rows.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/base/parallel.hpp"
#include "mhaviz/core/gen/mask_pattern.hpp"
#include "mhaviz/core/spec/semantics.hpp"
#include "mhaviz/core/spec/torch_path.hpp"

namespace mhaviz {

namespace {

using detail::ConstMatMap;
using detail::Dims;
using detail::kElem;
using detail::Mat;

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

/// The element type and shape of the attn_mask make_attn_mask would generate.
detail::MaskLayout generated_layout(const Config& c) {
  detail::MaskLayout layout;
  if (c.attn_mask_spec.dtype == gen::MaskDType::floating) {
    layout.type = c.dtype == DType::float64 ? ElemType::f64 : ElemType::f32;
  }
  layout.shape = {c.tgt_len, c.src_len};
  if (c.attn_mask_spec.shape == gen::MaskShape::three_d) {
    layout.shape.insert(layout.shape.begin(), c.batch() * c.num_heads);
  }
  return layout;
}

/// The inputs as the pass reads them (inputs_for_semantics: PyTorch 1.13's mask conversions),
/// a generated attn_mask of `layout` taking part without being made.
Inputs semantic_inputs(const Config& c, const Inputs& in,
                       const std::optional<detail::MaskLayout>& layout) {
  if (!layout) return inputs_for_semantics(c, in);
  Inputs probe = in;
  probe.attn_mask = Tensor(layout->type, {0});  // only its element type is read
  probe = inputs_for_semantics(c, probe);
  probe.attn_mask.reset();
  return probe;
}

/// Query rows per stripe at least (a stripe is a whole number of block rows): enough rows that
/// each key chunk read from memory serves many of them.
constexpr std::int64_t kStripeRows = 128;

/// Keys per chunk: a stripe's scores of one chunk take about 256 KiB, to stay in L2; whole
/// panels of the stored keys.
template <typename T>
std::int64_t chunk_keys(std::int64_t stripe_rows) {
  const std::int64_t fit = (std::int64_t{256} << 10) / (stripe_rows * std::int64_t{sizeof(T)});
  constexpr std::int64_t panel = detail::HeadKeys<T>::kPanel;
  return std::clamp<std::int64_t>(fit, panel, 16 * panel) / panel * panel;
}

template <typename T>
ReducedWeights run(const Config& c, const Params& p, const Inputs& in, const ReducedRequest& req,
                   const RunControl& control) {
  // An attn_mask the inputs do not hold but the config generates from a pattern is read row by
  // row from the pattern (make_reduced_problem leaves it out).
  std::optional<gen::MaskPattern> pattern;
  std::optional<detail::MaskLayout> pattern_layout;
  if (!in.attn_mask && c.attn_mask_spec.kind != gen::MaskKind::none) {
    pattern = gen::MaskPattern::of(c);
    if (!pattern) {
      throw InvalidInput("the reduced view needs the attn_mask of a \"" +
                         std::string(gen::to_string(c.attn_mask_spec.kind)) +
                         "\" mask as a tensor (generate it with make_problem)");
    }
    pattern_layout = generated_layout(c);
  }
  const Inputs sem = semantic_inputs(c, in, pattern_layout);
  Inputs probe = in;  // torch_path reads the masks' element types only
  if (pattern_layout) probe.attn_mask = Tensor(pattern_layout->type, {0});
  const PathDecision path = torch_path(c, probe);
  if (path.attn_mask_dropped) {
    throw InvalidInput(
        "the reduced view of a long context does not compute PyTorch's SDPA path with is_causal "
        "(attn_mask dropped for SDPA's own causal mask over every key column); set "
        "need_weights=true, or compute a smaller part with mhaviz-cli run --head/--queries");
  }
  const Dims d = detail::validated_dims(c, p, sem, pattern_layout ? &*pattern_layout : nullptr);
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
  if (req.head < 0) out.average = Tensor(kElem<T>, {out.rows, out.cols});

  const auto cancelled = [&] { return control.cancel != nullptr && control.cancel->load(); };
  const detail::Projections<T> w(p, d);
  const detail::HeadKeys<T> keys(c, in, d, w, req.batch, g.q0, g.q1, control.threads);
  if (cancelled()) throw Cancelled();

  // A stripe: whole block rows, at least kStripeRows query rows.
  const std::int64_t blocks_per_stripe =
      std::max<std::int64_t>(1, (kStripeRows + out.block_rows - 1) / out.block_rows);
  const std::int64_t stripe_rows = blocks_per_stripe * out.block_rows;
  const std::int64_t stripes = (out.rows + blocks_per_stripe - 1) / blocks_per_stripe;
  // What a masked cell of the pattern adds: -inf for a bool mask (masked_value is for floats).
  const T pattern_value = c.attn_mask_spec.dtype == gen::MaskDType::boolean
                              ? -std::numeric_limits<T>::infinity()
                              : static_cast<T>(c.attn_mask_spec.masked_value);
  const detail::StripeMasks<T> masks(sem, pattern, pattern_value, d, req.batch,
                                     chunk_keys<T>(std::min(stripe_rows, g.q1 - g.q0)));
  const detail::StripeFolder<T> folder(keys, masks, d,
                                       {&out, g.q0, g.k0, g.k1, path.fully_masked_rows_zero});
  std::int64_t done = 0;
  std::mutex progress_mutex;
  parallel_for(stripes, thread_count(control.threads, stripes), [&](std::int64_t k) {
    if (cancelled()) throw Cancelled();
    // The last stripes first: under a causal mask they hold the most keys.
    const std::int64_t s = stripes - 1 - k;
    const std::int64_t r0 = s * blocks_per_stripe;
    const std::int64_t i0 = g.q0 + r0 * out.block_rows;
    const std::int64_t i1 = std::min(g.q1, i0 + stripe_rows);
    thread_local detail::FoldScratch<T> scratch;
    folder.fold(i0, i1 - i0, r0, scratch, cancelled);
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
