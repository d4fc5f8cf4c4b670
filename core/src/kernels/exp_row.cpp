// Chooses the row kernels' variant (exp_row.hpp) once, from what the CPU reports.

#include "exp_row.hpp"

#include <array>
#include <cstdlib>
#include <cstring>

namespace mhaviz::detail::kernels {

// The variants cmake/IsaKernels.cmake built (exp_row_isa.cpp, one namespace each).
#define MHAVIZ_DECLARE_ISA(name)                                                     \
  namespace isa_##name {                                                            \
  void exp_f32(const float* in, float* out, std::int64_t n, float shift);           \
  void exp_f64(const double* in, double* out, std::int64_t n, double shift);        \
  void softmax_f32(float* row, const float* mask, float* copy, bool stream,         \
                   std::int64_t n, bool zero);                                      \
  void softmax_f64(double* row, const double* mask, double* copy, bool stream,      \
                   std::int64_t n, bool zero);                                      \
  }
MHAVIZ_DECLARE_ISA(x86_64)
#if MHAVIZ_ISA_AVX2
MHAVIZ_DECLARE_ISA(avx2)
#endif
#if MHAVIZ_ISA_AVX512
MHAVIZ_DECLARE_ISA(avx512)
#endif
#undef MHAVIZ_DECLARE_ISA
#define MHAVIZ_KERNELS(name, isa)                                                      \
  ExpKernels { name, isa::exp_f32, isa::exp_f64, isa::softmax_f32, isa::softmax_f64 }

namespace {

struct Candidate {
  ExpKernels kernels;
  bool (*runs_here)();
};

// __builtin_cpu_supports also checks that the operating system saves the wider registers.
const std::array kCandidates = {
    Candidate{MHAVIZ_KERNELS("x86-64", isa_x86_64), [] { return true; }},
#if MHAVIZ_ISA_AVX2
    Candidate{MHAVIZ_KERNELS("avx2", isa_avx2),
              [] { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }},
#endif
#if MHAVIZ_ISA_AVX512
    Candidate{MHAVIZ_KERNELS("avx512", isa_avx512),
              [] {
                return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                       __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
              }},
#endif
};
#undef MHAVIZ_KERNELS

struct Here {
  std::array<ExpKernels, kCandidates.size()> kernels{};
  std::size_t count = 0;
  Here() {
    for (const Candidate& c : kCandidates) {
      if (c.runs_here()) kernels[count++] = c.kernels;
    }
  }
};

const Here& here() {
  static const Here h;
  return h;
}

}  // namespace

std::span<const ExpKernels> exp_kernels_here() { return {here().kernels.data(), here().count}; }

const ExpKernels& exp_kernels() {
  static const ExpKernels& chosen = []() -> const ExpKernels& {
    const std::span<const ExpKernels> all = exp_kernels_here();
    if (const char* wanted = std::getenv("MHAVIZ_ISA")) {
      for (const ExpKernels& k : all) {
        if (std::strcmp(k.isa, wanted) == 0) return k;
      }
    }
    return all.back();
  }();
  return chosen;
}

}  // namespace mhaviz::detail::kernels
