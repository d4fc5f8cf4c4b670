#pragma once
// The inner loop of the long-context fold (long_context_fold.hpp) in the widest instructions
// this CPU has (internal to the core): a row's largest score, and exp(x - shift) of a row
// summed per block column, never written out. Compiled once per instruction set
// (fold_row_isa.cpp, cmake/IsaKernels.cmake) like exp_row; the variant of the same
// instruction set as exp_kernels() is used (MHAVIZ_ISA chooses both).

#include <cstdint>

namespace mhaviz::detail::kernels {

struct FoldKernels {
  const char* isa;  // "x86-64", "avx2", "avx512"
  /// The largest of x[0, n) (n >= 1).
  float (*max_f32)(const float* x, std::int64_t n);
  /// e_j = exp(x_j - shift) for j < n, exactly 0 where x_j is -inf; returns the sum of every
  /// e_j. With `sums` (not null), the e_j are also added up per segment — [0, first), then
  /// segments of `width` — and segment k's sum is added to sums[k].
  float (*exp_sums_f32)(const float* x, std::int64_t n, float shift, std::int64_t first,
                        std::int64_t width, float* sums);
};

/// The variant of exp_kernels()'s instruction set.
const FoldKernels& fold_kernels();

}  // namespace mhaviz::detail::kernels
