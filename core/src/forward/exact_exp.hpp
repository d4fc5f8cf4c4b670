#pragma once
// exp(x - shift) for a row of scores, exactly where PyTorch's value is exact.
//
// Eigen's vectorised exp clamps its argument to [-88.72, 88.72] (float) or [-709.78, 709.78]
// (double): exp(-inf) of a masked key comes out as 2.9e-39 instead of 0, and every argument in
// the subnormal range as that same value. Results below the smallest normal number mark those
// arguments; they are rare (masked keys, far-off scores) and recomputed with std::exp, which
// gives 0 for -inf and the subnormal otherwise, as PyTorch does. Contiguous rows (every row of
// the passes) run on kernels::exp_kernels(), the widest instruction set this CPU has.

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/exp_row.hpp"

namespace mhaviz::detail {

/// out = exp(in - shift) coefficient-wise; `in` and `out` are 1-row or 1-column Eigen
/// expressions of the same size (they may not alias).
template <typename In, typename Out>
void exp_shifted(const In& in, Out&& out, typename std::decay_t<Out>::Scalar shift) {
  using T = typename std::decay_t<Out>::Scalar;
  using InT = std::remove_cvref_t<In>;
  using OutT = std::remove_cvref_t<Out>;
  if constexpr ((std::is_same_v<T, float> ||
                 std::is_same_v<T, double>)&&std::is_same_v<typename InT::Scalar, T> &&
                bool(InT::Flags & Eigen::DirectAccessBit) &&
                bool(OutT::Flags & Eigen::DirectAccessBit)) {
    if (in.innerStride() == 1 && out.innerStride() == 1) {
      const kernels::ExpKernels& k = kernels::exp_kernels();
      if constexpr (std::is_same_v<T, float>) {
        k.f32(in.data(), out.data(), out.size(), shift);
      } else {
        k.f64(in.data(), out.data(), out.size(), shift);
      }
      return;
    }
  }
  out = (in.array() - shift).exp();
  const std::int64_t n = out.size();
  for (std::int64_t j = 0; j < n; ++j) {
    if (out(j) < std::numeric_limits<T>::min()) out(j) = std::exp(in(j)-shift);
  }
}

}  // namespace mhaviz::detail
