#include "mhaviz/core/io/result_tensors.hpp"

#include "mhaviz/core/derived_maps.hpp"

namespace mhaviz::io {

TensorMap result_tensors(const ForwardResult& r, int threads) {
  TensorMap out;
  out.emplace("attn_output", r.attn_output);
  if (r.attn_output_weights) out.emplace("attn_output_weights", *r.attn_output_weights);
  out.emplace("q", r.q);
  out.emplace("k", r.k);
  out.emplace("v", r.v);
  // Not stored by the pass: derived here as (N,H,L,S'), the same values it used.
  // capped_scores only when attn_logit_softcapping is set.
  for (DerivedMap m : {DerivedMap::raw_scores, DerivedMap::mask, DerivedMap::capped_scores,
                       DerivedMap::scores}) {
    if (m == DerivedMap::capped_scores && !r.config.attn_logit_softcapping) continue;
    out.emplace(std::string(derived_map_name(m)), derived_all(r, m, threads));
  }
  out.emplace("weights_per_head", r.weights);
  if (r.weights_before_dropout) out.emplace("weights_before_dropout", *r.weights_before_dropout);
  out.emplace("head_output", r.head_output);
  out.emplace("merged", r.merged);
  out.emplace("output", r.output);
  return out;
}

}  // namespace mhaviz::io
