// Chooses the fold_row variant (fold_row.hpp): the one of exp_kernels()'s instruction set.

#include "fold_row.hpp"

#include <array>
#include <cstring>

#include "exp_row.hpp"

namespace mhaviz::detail::kernels {

// The variants cmake/IsaKernels.cmake built (fold_row_isa.cpp, one namespace each).
#define MHAVIZ_DECLARE_ISA(name)                                                            \
  namespace isa_##name {                                                                   \
  float fold_max_f32(const float* x, std::int64_t n);                                      \
  float fold_exp_sums_f32(const float* x, std::int64_t n, float shift, std::int64_t first, \
                          std::int64_t width, float* sums);                                \
  }
MHAVIZ_DECLARE_ISA(x86_64)
#if MHAVIZ_ISA_AVX2
MHAVIZ_DECLARE_ISA(avx2)
#endif
#if MHAVIZ_ISA_AVX512
MHAVIZ_DECLARE_ISA(avx512)
#endif
#undef MHAVIZ_DECLARE_ISA

const FoldKernels& fold_kernels() {
  static const std::array kVariants = {
      FoldKernels{"x86-64", isa_x86_64::fold_max_f32, isa_x86_64::fold_exp_sums_f32},
#if MHAVIZ_ISA_AVX2
      FoldKernels{"avx2", isa_avx2::fold_max_f32, isa_avx2::fold_exp_sums_f32},
#endif
#if MHAVIZ_ISA_AVX512
      FoldKernels{"avx512", isa_avx512::fold_max_f32, isa_avx512::fold_exp_sums_f32},
#endif
  };
  static const FoldKernels& chosen = []() -> const FoldKernels& {
    for (const FoldKernels& k : kVariants) {
      if (std::strcmp(k.isa, exp_kernels().isa) == 0) return k;
    }
    return kVariants.front();
  }();
  return chosen;
}

}  // namespace mhaviz::detail::kernels
