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

/// row = softmax(row + mask) over n keys in place (mask may be null), also written to `copy`
/// unless it is null, by streaming stores when `stream_copy` (then kernels::stream_fence()
/// before the copy is handed over; kernels/exp_row.hpp); PyTorch's exact values as above.
template <typename T>
void softmax_in_place(T* row, const T* mask, T* copy, bool stream_copy, std::int64_t n,
                      bool fully_masked_to_zero) {
  const kernels::ExpKernels& k = kernels::exp_kernels();
  if constexpr (std::is_same_v<T, float>) {
    k.softmax_f32(row, mask, copy, stream_copy, n, fully_masked_to_zero);
  } else {
    k.softmax_f64(row, mask, copy, stream_copy, n, fully_masked_to_zero);
  }
}

/// The softmax of a row whose keys [live, S) are all -inf (the future of a causal stripe):
/// the same values as softmax_in_place over the whole row (those keys get exactly 0, a fully
/// masked row NaN or 0), with exp computed only for keys [0, live) and the appended keys
/// [S, Sx). The sum runs over the two computed parts, in another order than softmax_in_place's,
/// so the other weights may differ from softmax_in_place's in the last bits.
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
