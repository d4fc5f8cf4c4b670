// One instruction set's exp_row kernels (exp_row.hpp). cmake/IsaKernels.cmake compiles this file
// once per instruction set, with that set's compiler flags and MHAVIZ_ISA naming it.
//
// Code compiled for AVX2 or AVX-512 must never be linked in place of baseline code. Inline
// functions and templates are emitted in every object that uses them and the linker keeps one
// copy; were Eigen's templates instantiated here under their usual names, the linker could pick
// this object's AVX-512 copy for the baseline callers elsewhere in the core. So Eigen is renamed
// in this file (the macro below) and everything defined here lives in a namespace of its own
// instruction set; the test isa-kernel-symbols checks every object's defined symbols for that.

#ifndef MHAVIZ_ISA
#error "compile with -DMHAVIZ_ISA=<name> (cmake/IsaKernels.cmake)"
#endif

#define MHAVIZ_CAT_(a, b) a##b
#define MHAVIZ_CAT(a, b) MHAVIZ_CAT_(a, b)
// Every use of the namespace Eigen in Eigen's headers and below becomes mhaviz_eigen_<isa>.
#define Eigen MHAVIZ_CAT(mhaviz_eigen_, MHAVIZ_ISA)

#include <math.h>  // ::expf and ::exp: C functions, no inline C++ wrapper emitted here

#include <Eigen/Core>
#include <cstdint>
#include <limits>

namespace mhaviz::detail::kernels::MHAVIZ_CAT(isa_, MHAVIZ_ISA) {

namespace {

template <typename T>
void exp_shifted(const T* in, T* out, std::int64_t n, T shift) {
  const Eigen::Map<const Eigen::Array<T, 1, Eigen::Dynamic>> x(in, n);
  Eigen::Map<Eigen::Array<T, 1, Eigen::Dynamic>> y(out, n);
  y = (x - shift).exp();
  // Eigen's vectorised exp clamps its argument (-88.72 float, -709.78 double): its results
  // below the smallest normal number are recomputed exactly (0 for -inf).
  for (std::int64_t j = 0; j < n; ++j) {
    if (out[j] < std::numeric_limits<T>::min()) {
      if constexpr (sizeof(T) == sizeof(float)) {
        out[j] = ::expf(in[j] - shift);
      } else {
        out[j] = ::exp(in[j] - shift);
      }
    }
  }
}

}  // namespace

void exp_f32(const float* in, float* out, std::int64_t n, float shift) {
  exp_shifted(in, out, n, shift);
}

void exp_f64(const double* in, double* out, std::int64_t n, double shift) {
  exp_shifted(in, out, n, shift);
}

}  // namespace mhaviz::detail::kernels::MHAVIZ_CAT(isa_, MHAVIZ_ISA)
