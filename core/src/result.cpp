#include "mhaviz/core/result.hpp"

namespace mhaviz {

std::size_t ForwardResult::bytes() const {
  std::size_t total = 0;
  for (const Tensor* t : {&q, &k, &v, &raw_scores, &mask, &scores, &weights, &head_output, &merged,
                          &output, &attn_output}) {
    total += t->bytes().size();
  }
  if (weights_before_dropout) total += weights_before_dropout->bytes().size();
  if (attn_output_weights) total += attn_output_weights->bytes().size();
  return total + columns.size() * sizeof(KeyColumn);
}

}  // namespace mhaviz
