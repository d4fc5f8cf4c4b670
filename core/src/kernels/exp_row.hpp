#pragma once
// exp(x - shift) over a contiguous row of scores, in the widest instructions this CPU has
// (internal to the core).
//
// The programs are built for the x86-64 baseline, so that they run on any x86-64; the one loop
// where wider vectors pay most, the softmax's exponentials, is compiled once per instruction set
// (exp_row_isa.cpp, cmake/IsaKernels.cmake) and chosen once, at the first call, from what the
// CPU reports. Each variant keeps PyTorch's exact values: a result below the smallest normal
// number (exp(-inf) of a masked key, a far-off score) is recomputed with the C library's exp,
// which gives exactly 0 for -inf and the subnormal otherwise.

#include <cstdint>
#include <span>

namespace mhaviz::detail::kernels {

/// One instruction set's kernels: out[j] = exp(in[j] - shift) for j < n (in and out must not
/// overlap).
struct ExpKernels {
  const char* isa;  // "x86-64", "avx2", "avx512"
  void (*f32)(const float* in, float* out, std::int64_t n, float shift);
  void (*f64)(const double* in, double* out, std::int64_t n, double shift);
};

/// Every variant built in that this CPU (and its operating system) can run, narrowest first.
std::span<const ExpKernels> exp_kernels_here();

/// The variant the core uses: the widest of exp_kernels_here(), or the one named by the
/// environment variable MHAVIZ_ISA (x86-64, avx2, avx512) when this CPU can run it; chosen at
/// the first call.
const ExpKernels& exp_kernels();

}  // namespace mhaviz::detail::kernels
