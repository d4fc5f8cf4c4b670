// One instruction set's fold_row kernels (fold_row.hpp). cmake/IsaKernels.cmake compiles this
// file once per instruction set, with that set's compiler flags and MHAVIZ_ISA naming it;
// Eigen is renamed and everything lives in the set's own namespace, as in exp_row_isa.cpp.

#ifndef MHAVIZ_ISA
#error "compile with -DMHAVIZ_ISA=<name> (cmake/IsaKernels.cmake)"
#endif

#define MHAVIZ_CAT_(a, b) a##b
#define MHAVIZ_CAT(a, b) MHAVIZ_CAT_(a, b)
#define Eigen MHAVIZ_CAT(mhaviz_eigen_, MHAVIZ_ISA)

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>
#include <limits>

namespace mhaviz::detail::kernels::MHAVIZ_CAT(isa_, MHAVIZ_ISA) {

namespace {
using Row = Eigen::Map<const Eigen::Array<float, Eigen::Dynamic, 1>>;
}  // namespace

float fold_max_f32(const float* x, std::int64_t n) { return Row(x, n).maxCoeff(); }

/// What Eigen's vectorised exp gives for -inf: it clamps its argument (-88.38), so a masked key
/// comes out as this tiny number instead of 0. Every result is at least this, so subtracting it
/// (and taking the maximum with 0) makes a masked key's term exactly 0, vectorised, and moves
/// any other term by less than 5e-39.
float masked_exp() {
  static const float value = [] {
    Eigen::Array<float, 16, 1> x;
    x.setConstant(-std::numeric_limits<float>::infinity());
    const Eigen::Array<float, 16, 1> e = x.exp();  // packets, as in fold_exp_sums_f32
    return e(0);
  }();
  return value;
}

float fold_exp_sums_f32(const float* x, std::int64_t n, float shift, std::int64_t first,
                        std::int64_t width, float* sums) {
  const float floor = masked_exp();
  float total = 0.0F;
  std::int64_t len = sums != nullptr ? std::min(first, n) : n;
  for (std::int64_t j = 0, k = 0; j < n; ++k) {
    const Row xs(x + j, len);
    const float s = ((xs - shift).exp() - floor).max(0.0F).sum();
    if (sums != nullptr) sums[k] += s;
    total += s;
    j += len;
    len = std::min(width, n - j);
  }
  return total;
}

}  // namespace mhaviz::detail::kernels::MHAVIZ_CAT(isa_, MHAVIZ_ISA)
