// F.multi_head_attention_forward's general path (PyTorch 2.x), every intermediate kept.
// Step numbers refer to docs/semantics.md.
//
// Work is split three ways: (1) the in-projections as GEMMs over all tokens, in row chunks;
// (2) one block per batch-head b = n*H + h, in parallel, each walking its queries in stripes
// (attention_tile.hpp) so that the scores, mask, softmax and dropout of a stripe happen in a
// scratch tile in cache and only the weights are written, once, then multiplied by v while
// still in cache; (3) the out-projection over all tokens. Every block writes only its own
// slices of the result. Raw scores, per-head mask and scores are not stored: derived_maps.cpp
// recomputes them with the same tiles when they are shown.
#include "mhaviz/core/forward/forward.hpp"

#include <cmath>
#include <limits>
#include <mutex>
#include <optional>

#include "attention_tile.hpp"
#include "base/eigen_types.hpp"
#include "base/rng.hpp"
#include "dims.hpp"
#include "head_products.hpp"
#include "masks.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/base/parallel.hpp"
#include "mhaviz/core/spec/semantics.hpp"
#include "path_call.hpp"
#include "projections.hpp"
#include "soft_cap.hpp"
#include "softmax.hpp"
#include "transposed_weights.hpp"

namespace mhaviz {

namespace {

using detail::ConstMatMap;
using detail::Dims;
using detail::kElem;
using detail::Mat;
using detail::MatMap;
using detail::product;

constexpr std::int64_t kRowsPerChunk = 256;  // tokens per projection work item
constexpr std::int64_t kStreamWeightsFrom = std::int64_t{8} << 20;  // bytes of all weights
/// Multiply-adds of an in-projection up to which it is made head by head, straight into the
/// heads (head_products.hpp), rather than in chunks of tokens copied into the heads: below it
/// the copies cost more than the narrower products lose. Measured (one thread, CPU time of
/// passes interleaved in one process): the whole pass 5 % faster at (2,16,16,64,4) (32 tokens
/// x 64 x 64), 3 % at (1,64,64,128,4), 9 % slower at (4,64,64,128,8) and (4,128,128,256,8).
constexpr std::int64_t kHeadsDirectUpTo = std::int64_t{1} << 20;
constexpr std::int64_t kScratchKept = std::int64_t{4} << 20;  // bytes of a scratch matrix

/// Scratch matrices of the calling thread, kept from block to block and from pass to pass: a
/// small pass otherwise spends a tenth of its time allocating and freeing them. Those grown
/// past kScratchKept are freed after use, so that a thread does not hold much memory.
template <typename T>
struct Scratch {
  Mat<T> projected, q_scaled, tile;
  detail::Transposed<T> kt;

  static Scratch& here() {
    thread_local Scratch scratch;
    return scratch;
  }
  void trim() {
    for (Mat<T>* m : {&projected, &q_scaled, &tile, &kt.storage}) {
      if (m->size() * std::int64_t{sizeof(T)} > kScratchKept) m->resize(0, 0);
    }
  }
};

/// Matrix `index` of a tensor viewed as a stack of (rows, cols) matrices.
template <typename T>
MatMap<T> block(Tensor& t, std::int64_t index, std::int64_t rows, std::int64_t cols) {
  return MatMap<T>(t.data<T>().data() + index * rows * cols, rows, cols);
}
template <typename T>
ConstMatMap<T> block(const Tensor& t, std::int64_t index, std::int64_t rows, std::int64_t cols) {
  return ConstMatMap<T>(t.data<T>().data() + index * rows * cols, rows, cols);
}

/// Step 2: out = x @ W.T + b over rows of tokens, in chunks of rows on `threads` threads.
template <typename T>
void project_into(const ConstMatMap<T>& x, const detail::Transposed<T>& wt,
                  const detail::RowVec<T>& b, MatMap<T> out, int threads) {
  const std::int64_t rows = x.rows();
  const std::int64_t chunks = (rows + kRowsPerChunk - 1) / kRowsPerChunk;
  parallel_for(chunks, thread_count(threads, chunks), [&](std::int64_t c) {
    const std::int64_t r0 = c * kRowsPerChunk;
    const std::int64_t nr = std::min(kRowsPerChunk, rows - r0);
    auto o = out.middleRows(r0, nr);
    product(o, x.middleRows(r0, nr), wt.matrix());
    o.rowwise() += b;
  });
}

/// Steps 2 and 5: x @ W.T + b for every token of a sequence tensor (rows in its own order:
/// (len*N) for (len, N, f), (N*len) for (N, len, f)), split into heads as it is made: token l
/// of batch element n, head h, lands at row l of matrix n*H + h of `heads` (N, H, block_rows,
/// hd); rows [len, block_rows) are left to the appended keys. Each chunk of tokens is projected
/// into a scratch matrix that is still in cache when its rows are copied out.
template <typename T>
void project_heads(const Tensor& x, const detail::Transposed<T>& wt, const detail::RowVec<T>& b,
                   const Dims& d, bool seq_first, std::int64_t len, Tensor& heads,
                   std::int64_t block_rows, int threads) {
  const std::int64_t f = x.size(-1), rows = x.numel() / f, hd = d.hd;
  if (detail::kHeadsDirectExact<T> && rows * f * d.E <= kHeadsDirectUpTo) {
    detail::heads_direct(x, wt, b, d, seq_first, len, heads, block_rows);
    return;
  }
  const ConstMatMap<T> all(x.data<T>().data(), rows, f);
  T* out = heads.data<T>().data();
  const std::int64_t chunks = (rows + kRowsPerChunk - 1) / kRowsPerChunk;
  parallel_for(chunks, thread_count(threads, chunks), [&](std::int64_t c) {
    const std::int64_t r0 = c * kRowsPerChunk;
    const std::int64_t nr = std::min(kRowsPerChunk, rows - r0);
    Scratch<T>& scratch = Scratch<T>::here();
    Mat<T>& o = scratch.projected;
    o.resize(nr, d.E);
    product(o, all.middleRows(r0, nr), wt.matrix());
    o.rowwise() += b;
    for (std::int64_t t = r0; t < r0 + nr; ++t) {
      const std::int64_t n = seq_first ? t % d.N : t / len, l = seq_first ? t / d.N : t % len;
      for (std::int64_t h = 0; h < d.H; ++h) {
        std::copy_n(o.row(t - r0).data() + h * hd, hd, out + ((n * d.H + h) * block_rows + l) * hd);
      }
    }
    scratch.trim();
  });
}

template <typename T>
struct Pass {
  const Config& c;
  const Inputs& in;
  const Dims& d;
  const detail::Projections<T>& w;
  ForwardResult& r;

  /// Steps 4-13 for batch-head b.
  void block_pass(std::int64_t b) const {
    const std::int64_t n = b / d.H, h = b % d.H;
    const std::int64_t L = d.L, S = d.S, Sx = d.Sx, hd = d.hd;
    auto q = block<T>(r.q, b, L, hd);
    auto k = block<T>(r.k, b, Sx, hd);
    auto v = block<T>(r.v, b, Sx, hd);
    // Steps 5, 6, 4, 7 in this order: head split (project_heads: made so); static_k/v;
    // bias_k/bias_v row; zero row.
    if (in.static_k) k.topRows(S) = block<T>(*in.static_k, b, S, hd);
    if (in.static_v) v.topRows(S) = block<T>(*in.static_v, b, S, hd);
    if (c.add_bias_kv) {
      k.row(S) = w.bias_k.segment(h * hd, hd);
      v.row(S) = w.bias_v.segment(h * hd, hd);
    }
    if (c.add_zero_attn) {
      k.row(Sx - 1).setZero();
      v.row(Sx - 1).setZero();
    }

    const T scale = detail::score_scale<T>(hd);  // 2.x
    const bool dropping = c.training && c.dropout > 0.0;
    const T keep = c.dropout < 1.0 ? static_cast<T>(1.0 / (1.0 - c.dropout)) : T(0);
    std::optional<detail::Rng> rng;  // seeding costs more than a small block: only when used
    if (dropping) rng.emplace(c.dropout_seed_or_default(), static_cast<std::uint64_t>(b));
    auto weights = block<T>(r.weights, b, L, Sx);
    auto out = block<T>(r.head_output, b, L, hd);
    const bool masked = r.has_mask();
    const T* mask = masked ? r.merged_mask.data<T>().data() : nullptr;
    const std::int64_t tile_rows = detail::query_tile_rows<T>(Sx);
    const bool zero_masked = r.path.fully_masked_rows_zero;  // SDPA's safe softmax, or NaN
    Scratch<T>& scratch = Scratch<T>::here();
    detail::Transposed<T>& kt = scratch.kt;
    detail::transpose_padded_into(k, kt);
    // Weights larger than a core's caches are streamed to memory: nothing reads them again in
    // the pass (step 12 reads the tile), so they need not be read in first nor keep the
    // caches.
    const bool stream_weights = r.weights.numel() * std::int64_t{sizeof(T)} >= kStreamWeightsFrom;
    Mat<T>& q_scaled = scratch.q_scaled;
    Mat<T>& tile = scratch.tile;
    for (std::int64_t i0 = 0; i0 < L; i0 += tile_rows) {
      const std::int64_t rows = std::min(tile_rows, L - i0);
      // Steps 8-9: scores = (q * sqrt(1/hd)) @ k^T + merged mask, in the scratch tile.
      detail::raw_score_tile<T>(q, kt, i0, rows, scale, q_scaled, tile);
      // Soft-capped in place when attn_logit_softcapping is set (soft_cap.hpp).
      detail::soft_cap(c.attn_logit_softcapping, tile, tile);
      for (std::int64_t i = i0; i < i0 + rows; ++i) {
        T* row = tile.row(i - i0).data();
        const T* row_mask = masked ? mask + r.mask_offset(n, h, i) : nullptr;
        if (!dropping) {  // step 10 in the tile, which step 12 reads, and copied to the weights
          detail::softmax_in_place(row, row_mask, weights.row(i).data(), stream_weights, Sx,
                                   zero_masked);
          continue;
        }
        detail::softmax_in_place(row, row_mask, static_cast<T*>(nullptr), false, Sx, zero_masked);
        block<T>(*r.weights_before_dropout, b, L, Sx).row(i) = tile.row(i - i0);
        for (std::int64_t j = 0; j < Sx; ++j) {  // step 11
          T& x = row[j];
          x = rng->uniform() < c.dropout ? T(0) : x * keep;
        }
        weights.row(i) = tile.row(i - i0);
      }
      // Step 12: weighted values.
      product(out.middleRows(i0, rows), tile, v);
    }
    if (stream_weights) detail::kernels::stream_fence();
    // Step 13: heads merged back at features [h*hd, (h+1)*hd).
    block<T>(r.merged, n, L, d.E).middleCols(h * hd, hd) = out;
    scratch.trim();
  }
};

template <typename T>
void allocate(ForwardResult& r, const Config& c, const Dims& d) {
  const std::int64_t N = d.N, H = d.H, L = d.L, Sx = d.Sx, E = d.E, hd = d.hd;
  const ElemType et = kElem<T>;
  r.config = c;
  r.N = N, r.H = H, r.L = L, r.S = d.S, r.Sx = Sx, r.E = E, r.hd = hd;
  r.q = Tensor::uninitialized(et, {N, H, L, hd});
  r.k = Tensor::uninitialized(et, {N, H, Sx, hd});
  r.v = Tensor::uninitialized(et, {N, H, Sx, hd});
  r.weights = Tensor::uninitialized(et, {N, H, L, Sx});
  if (c.training && c.dropout > 0.0)
    r.weights_before_dropout = Tensor::uninitialized(et, {N, H, L, Sx});
  r.head_output = Tensor::uninitialized(et, {N, H, L, hd});
  r.merged = Tensor::uninitialized(et, {N, L, E});
  r.output = Tensor::uninitialized(et, {N, L, E});
  for (std::int64_t j = 0; j < d.S; ++j) r.columns.push_back({KeyKind::source, j});
  if (c.add_bias_kv) r.columns.push_back({KeyKind::bias_k, d.S});
  if (c.add_zero_attn) r.columns.push_back({KeyKind::zero, Sx - 1});
}

/// Step 15: PyTorch's return values in the input layout.
template <typename T>
void returned_values(ForwardResult& r, const Config& c, const Dims& d) {
  const std::int64_t N = d.N, H = d.H, L = d.L, Sx = d.Sx, E = d.E;
  if (!d.batched) {
    r.attn_output = r.output.reshaped({L, E});
  } else if (c.batch_first) {
    r.attn_output = r.output;
  } else {
    r.attn_output = Tensor::uninitialized(kElem<T>, {L, N, E});
    auto dst = r.attn_output.data<T>();
    const auto src = r.output.data<T>();
    for (std::int64_t n = 0; n < N; ++n) {
      for (std::int64_t l = 0; l < L; ++l) {
        std::copy_n(src.begin() + (n * L + l) * E, E, dst.begin() + (l * N + n) * E);
      }
    }
  }
  if (!c.need_weights) return;
  if (!c.average_attn_weights) {
    r.attn_output_weights = d.batched ? r.weights : r.weights.reshaped({H, L, Sx});
    return;
  }
  Tensor avg(kElem<T>, {N, L, Sx});
  for (std::int64_t n = 0; n < N; ++n) {
    auto a = block<T>(avg, n, L, Sx);
    for (std::int64_t h = 0; h < H; ++h) a += block<T>(r.weights, n * H + h, L, Sx);
    a /= static_cast<T>(H);
  }
  r.attn_output_weights = d.batched ? avg : avg.reshaped({L, Sx});
}

/// `requested` threads (0 = one per hardware thread), or 1 when the pass is so small that
/// starting threads (tens of microseconds each, several times per pass) costs more than it saves.
int useful_threads(int requested, const Dims& d) {
  const auto projections = 2.0 * static_cast<double>(d.E) * static_cast<double>(d.E) *
                           static_cast<double>(d.N * (2 * d.L + 2 * d.S));
  const auto attention = 4.0 * static_cast<double>(d.N * d.H * d.L * d.Sx * d.hd);
  constexpr double kMinFlopsForThreads = 1e7;
  return projections + attention < kMinFlopsForThreads ? 1 : requested;
}

template <typename T>
ForwardResult run(const Config& c, const Params& p, const Inputs& in, const RunControl& control,
                  const PathDecision& path, bool causal_all_columns) {
  const Dims d = detail::validated_dims(c, p, in);
  RunControl rc = control;
  rc.threads = useful_threads(control.threads, d);
  ForwardResult r;
  allocate<T>(r, c, d);
  r.path = path;
  r.params = p;  // copies share the tensors' storage
  const detail::Projections<T> w(p, d);
  const detail::Masks<T> masks(in, d, causal_all_columns);
  r.merged_mask = masks.merged();
  const auto cancelled = [&] { return rc.cancel != nullptr && rc.cancel->load(); };

  const bool seq_first = d.batched && !c.batch_first;
  const auto transposed = [&](const detail::WeightRows& rows) {  // cached across passes
    return detail::transposed_weight<T>(*rows.tensor, rows.row0, d.E);
  };
  project_heads<T>(in.query, *transposed(w.q_rows), w.bq, d, seq_first, d.L, r.q, d.L, rc.threads);
  if (!in.static_k) {
    project_heads<T>(in.key, *transposed(w.k_rows), w.bk, d, seq_first, d.S, r.k, d.Sx, rc.threads);
  }
  if (!in.static_v) {
    project_heads<T>(in.value, *transposed(w.v_rows), w.bv, d, seq_first, d.S, r.v, d.Sx,
                     rc.threads);
  }
  if (cancelled()) throw Cancelled();

  const Pass<T> pass{c, in, d, w, r};
  const std::int64_t total = d.N * d.H;
  std::int64_t done = 0;
  std::mutex progress_mutex;
  parallel_for(total, thread_count(rc.threads, total), [&](std::int64_t b) {
    if (cancelled()) throw Cancelled();
    pass.block_pass(b);
    if (rc.progress) {
      const std::lock_guard lock(progress_mutex);
      rc.progress(++done, total);
    }
  });

  // Step 14: out_proj over every token.
  const std::int64_t tokens = d.N * d.L;
  project_into<T>(ConstMatMap<T>(r.merged.data<T>().data(), tokens, d.E), *transposed(w.o_rows),
                  w.bo, MatMap<T>(r.output.data<T>().data(), tokens, d.E), rc.threads);
  returned_values<T>(r, c, d);
  return r;
}

/// Floating tensors in another precision than the config's are converted (as PyTorch would
/// after module.to(dtype)); masks are left as they are and canonicalised later.
template <typename T>
ForwardResult run_converted(const Config& c, const Params& p, const Inputs& in,
                            const RunControl& rc, const PathDecision& path, bool causal) {
  const auto differs_t = [](const Tensor& t) { return t.is_floating() && t.type() != kElem<T>; };
  const auto differs = [&](const std::optional<Tensor>& t) { return t && differs_t(*t); };
  bool convert = differs_t(in.query) || differs_t(in.key) || differs_t(in.value) ||
                 differs(in.static_k) || differs(in.static_v);
  for (std::string_view key : kStateDictKeys) convert = convert || differs(*p.find(key));
  if (!convert) return run<T>(c, p, in, rc, path, causal);

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
  return run<T>(c, pc, ic, rc, path, causal);
}

}  // namespace

ForwardResult forward(const Config& config, const Params& params, const Inputs& given,
                      const RunControl& control) {
  // docs/semantics.md, "The three paths of PyTorch 2.x": the path PyTorch takes decides what
  // the general-path engine is given (1.13's masks as 2.x computes them, a dropped mask).
  const PathDecision path = torch_path(config, given);
  const detail::PathCall call =
      detail::call_for_path(config, inputs_for_semantics(config, given), path);
  ForwardResult r = config.dtype == DType::float64
                        ? run_converted<double>(call.config, params, call.inputs, control, path,
                                                call.causal_all_columns)
                        : run_converted<float>(call.config, params, call.inputs, control, path,
                                               call.causal_all_columns);
  r.config = config;  // the call as given (is_causal included)
  return r;
}

}  // namespace mhaviz
