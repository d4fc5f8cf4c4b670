#include "mhaviz/core/io/result_tensors.hpp"

namespace mhaviz::io {

TensorMap result_tensors(const ForwardResult& r) {
  TensorMap out;
  out.emplace("attn_output", r.attn_output);
  if (r.attn_output_weights) out.emplace("attn_output_weights", *r.attn_output_weights);
  out.emplace("q", r.q);
  out.emplace("k", r.k);
  out.emplace("v", r.v);
  out.emplace("raw_scores", r.raw_scores);
  out.emplace("mask", r.mask);
  if (r.capped_scores) out.emplace("capped_scores", *r.capped_scores);
  out.emplace("scores", r.scores);
  out.emplace("weights_per_head", r.weights);
  if (r.weights_before_dropout) out.emplace("weights_before_dropout", *r.weights_before_dropout);
  out.emplace("head_output", r.head_output);
  out.emplace("merged", r.merged);
  out.emplace("output", r.output);
  return out;
}

}  // namespace mhaviz::io
