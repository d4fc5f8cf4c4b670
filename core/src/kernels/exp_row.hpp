#pragma once
// The softmax of a row of scores and exp(x - shift) over a row, in the widest instructions this
// CPU has (internal to the core).
//
// The programs are built for the x86-64 baseline, so that they run on any x86-64; the loops
// where wider vectors pay most, the softmax and its exponentials, are compiled once per
// instruction set (exp_row_isa.cpp, cmake/IsaKernels.cmake) and chosen once, at the first call,
// from what the CPU reports. Each variant keeps PyTorch's exact values: exp(-inf) of a masked
// key is exactly +0, and a result below the smallest normal number (a far-off score) is
// recomputed with the C library's exp, which gives the subnormal.

#include <immintrin.h>

#include <cstdint>
#include <span>

namespace mhaviz::detail::kernels {

/// One instruction set's kernels.
struct ExpKernels {
  const char* isa;  // "x86-64", "avx2", "avx512"
  /// out[j] = exp(in[j] - shift) for j < n (in and out must not overlap).
  void (*f32)(const float* in, float* out, std::int64_t n, float shift);
  void (*f64)(const double* in, double* out, std::int64_t n, double shift);
  /// row = softmax(row + mask) over j < n, in place (docs/semantics.md step 10; mask may be
  /// null), and also written to `copy` unless it is null. With `stream_copy` the copy is
  /// written by streaming stores where it is aligned for them: they bypass the caches (for
  /// results nothing reads soon) and are ordered only by stream_fence(). A key at -inf gets
  /// exactly +0; a row whose keys are all -inf becomes NaN, or +0 when
  /// `fully_masked_to_zero`; a row with a NaN or +inf score becomes NaN, as in PyTorch. The
  /// sum of the exponentials is taken in vector lanes and the row multiplied by its reciprocal.
  void (*softmax_f32)(float* row, const float* mask, float* copy, bool stream_copy,
                      std::int64_t n, bool fully_masked_to_zero);
  void (*softmax_f64)(double* row, const double* mask, double* copy, bool stream_copy,
                      std::int64_t n, bool fully_masked_to_zero);
};

/// Makes the streaming stores before it visible before any store after it (to other threads
/// too): called once after a run of softmax rows with stream_copy.
inline void stream_fence() { _mm_sfence(); }

/// Every variant built in that this CPU (and its operating system) can run, narrowest first.
std::span<const ExpKernels> exp_kernels_here();

/// The variant the core uses: the widest of exp_kernels_here(), or the one named by the
/// environment variable MHAVIZ_ISA (x86-64, avx2, avx512) when this CPU can run it; chosen at
/// the first call.
const ExpKernels& exp_kernels();

}  // namespace mhaviz::detail::kernels
