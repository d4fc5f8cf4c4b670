#pragma once
// Step 10 of docs/semantics.md, softmax over the keys of one row of scores, for the forward
// pass (forward.cpp) and the long-context pass (long_context.cpp) (internal to the core).
//
// PyTorch's exact values are kept bit for bit: a key at -inf gets exactly 0, a row of only
// -inf becomes NaN (1.13 and 2.0-2.4, and 2.x with need_weights=True), or 0 when
// `fully_masked_to_zero` (2.5+'s need_weights=False path through scaled_dot_product_attention's
// safe softmax; semantics.hpp decides which).

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "exact_exp.hpp"

namespace mhaviz::detail {

/// out = softmax(in) over one row (`in` and `out` must not overlap).
template <typename In, typename Out>
void softmax_row(const In& in, Out&& out, bool fully_masked_to_zero) {
  using T = typename std::decay_t<Out>::Scalar;
  const T mx = in.maxCoeff();
  if (fully_masked_to_zero && mx == -std::numeric_limits<T>::infinity()) {
    out.setZero();
    return;
  }
  exp_shifted(in, out, mx);
  out /= out.sum();
}

/// softmax_row for a row whose keys [live, S) are all -inf (the future of a causal stripe):
/// the same values as softmax_row over the whole row (those keys get exactly 0, a fully masked
/// row NaN or 0), with exp computed only for keys [0, live) and the appended keys [S, Sx).
/// The sum runs over the two computed parts, in another order than softmax_row's, so the other
/// weights may differ from softmax_row's in the last bits.
template <typename In, typename Out>
void softmax_live(const In& in, Out&& out, std::int64_t live, std::int64_t S,
                  bool fully_masked_to_zero) {
  using T = typename std::decay_t<Out>::Scalar;
  const std::int64_t tail = in.cols() - S;
  T mx = -std::numeric_limits<T>::infinity();
  if (live > 0) mx = in.head(live).maxCoeff();
  if (tail > 0) mx = std::max(mx, in.tail(tail).maxCoeff());
  out.segment(live, S - live).setZero();
  if (mx == -std::numeric_limits<T>::infinity()) {
    // Every key masked: NaN as PyTorch (or 0 for need_weights=False).
    out.head(live).setConstant(fully_masked_to_zero ? T(0) : std::numeric_limits<T>::quiet_NaN());
    out.tail(tail).setConstant(fully_masked_to_zero ? T(0) : std::numeric_limits<T>::quiet_NaN());
    if (!fully_masked_to_zero)
      out.segment(live, S - live).setConstant(std::numeric_limits<T>::quiet_NaN());
    return;
  }
  exp_shifted(in.head(live), out.head(live), mx);
  exp_shifted(in.tail(tail), out.tail(tail), mx);
  const T sum = out.head(live).sum() + out.tail(tail).sum();
  out.head(live) /= sum;
  out.tail(tail) /= sum;
}

}  // namespace mhaviz::detail
