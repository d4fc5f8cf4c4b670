#include "mhaviz/core/forward/result.hpp"

#include <set>

namespace mhaviz {

std::size_t ForwardResult::bytes() const {
  // Returned values share storage with intermediates (e.g. per-head attn_output_weights are
  // the weights): count each storage once.
  std::set<const void*> seen;
  std::size_t total = 0;
  const auto add = [&](const Tensor& t) {
    if (seen.insert(t.storage_id()).second) total += t.bytes().size();
  };
  for (const Tensor* t :
       {&q, &k, &v, &merged_mask, &weights, &head_output, &merged, &output, &attn_output}) {
    add(*t);
  }
  if (weights_before_dropout) add(*weights_before_dropout);
  if (attn_output_weights) add(*attn_output_weights);
  for (std::string_view key : kStateDictKeys) {
    if (const auto& t = *params.find(key)) add(*t);
  }
  return total + columns.size() * sizeof(KeyColumn);
}

}  // namespace mhaviz
