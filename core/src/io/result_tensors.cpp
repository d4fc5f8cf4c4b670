#include "mhaviz/core/io/result_tensors.hpp"

#include <algorithm>
#include <string>

#include "mhaviz/core/forward/derived_maps.hpp"

namespace mhaviz::io {

namespace {

/// The maps a pass does not store, in the order of DerivedMap: capped_scores only when
/// attn_logit_softcapping is set.
template <typename Fn>
void for_each_derived(const ForwardResult& r, Fn&& fn) {
  for (DerivedMap m :
       {DerivedMap::raw_scores, DerivedMap::mask, DerivedMap::capped_scores, DerivedMap::scores}) {
    if (m == DerivedMap::capped_scores && !r.config.attn_logit_softcapping) continue;
    fn(m, std::string(derived_map_name(m)));
  }
}

/// The tensors the pass keeps, by name (shared with the result, not copied).
template <typename Map>
void add_kept(const ForwardResult& r, Map& out) {
  out.emplace("attn_output", r.attn_output);
  if (r.attn_output_weights) out.emplace("attn_output_weights", *r.attn_output_weights);
  out.emplace("q", r.q);
  out.emplace("k", r.k);
  out.emplace("v", r.v);
  out.emplace("weights_per_head", r.weights);
  if (r.weights_before_dropout) out.emplace("weights_before_dropout", *r.weights_before_dropout);
  out.emplace("head_output", r.head_output);
  out.emplace("merged", r.merged);
  out.emplace("output", r.output);
}

}  // namespace

TensorMap result_tensors(const ForwardResult& r, int threads) {
  TensorMap out;
  add_kept(r, out);
  // Not stored by the pass: derived here as (N,H,L,S'), the same values it used.
  for_each_derived(r, [&](DerivedMap m, std::string name) {
    out.emplace(std::move(name), derived_all(r, m, threads));
  });
  return out;
}

StreamedTensors result_stream(const ForwardResult& r, std::size_t piece_bytes) {
  StreamedTensors out;
  add_kept(r, out);
  // Each derived map in pieces of whole rows of one head (derived_rows, so bit for bit the
  // values of derived_all), head after head: the (N,H,L,S') layout.
  const std::int64_t rows = derived_piece_rows(r, piece_bytes);
  const std::int64_t per_head = (r.L + rows - 1) / rows;
  for_each_derived(r, [&](DerivedMap m, std::string name) {
    PiecedTensor t;
    t.type = r.weights.type();
    t.shape = {r.N, r.H, r.L, r.Sx};
    t.pieces = r.N * r.H * per_head;
    t.piece = [&r, m, rows, per_head](std::int64_t k) {
      const std::int64_t head = k / per_head, row0 = k % per_head * rows;
      return derived_rows(r, m, head / r.H, head % r.H, row0, std::min(rows, r.L - row0));
    };
    out.emplace(std::move(name), std::move(t));
  });
  return out;
}

}  // namespace mhaviz::io
