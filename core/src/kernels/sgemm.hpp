#pragma once
// Matrix products in float and double on libxsmm's kernels, generated at run time for the CPU
// (internal to the core). Built in when cmake/Kernels.cmake finds libxsmm
// (MHAVIZ_SGEMM_KERNEL=1); without it every product runs on Eigen, compiled for the baseline.

#include <cstdint>

#ifndef MHAVIZ_SGEMM_KERNEL
#define MHAVIZ_SGEMM_KERNEL 0
#endif

namespace mhaviz::detail::kernels {

/// Whether gemm() and transpose() below are built in.
inline constexpr bool kSgemm = MHAVIZ_SGEMM_KERNEL != 0;

/// C (m x n) = A (m x k) * B (k x n). Every matrix is row-major; lda, ldb and ldc are the
/// distances between the starts of consecutive rows, in elements. Each element of C is the
/// chain of fused multiply-adds over k in order, from 0, whatever m and n are, so a row of C
/// does not depend on which other rows are computed with it, nor an element on how the
/// columns are cut (test_kernels.cpp). Returns false, with C partly written, when libxsmm
/// has no kernel for this CPU (e.g. LIBXSMM_TARGET=generic): the caller computes C otherwise.
/// Only defined when kSgemm is true.
bool gemm(std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t lda,
          const float* b, std::int64_t ldb, float* c, std::int64_t ldc);
bool gemm(std::int64_t m, std::int64_t n, std::int64_t k, const double* a, std::int64_t lda,
          const double* b, std::int64_t ldb, double* c, std::int64_t ldc);

/// out (cols x rows) = in (rows x cols) transposed, both row-major with leading dimensions ldi
/// and ldo. Only defined when kSgemm is true.
void transpose(std::int64_t rows, std::int64_t cols, const float* in, std::int64_t ldi, float* out,
               std::int64_t ldo);
void transpose(std::int64_t rows, std::int64_t cols, const double* in, std::int64_t ldi,
               double* out, std::int64_t ldo);

}  // namespace mhaviz::detail::kernels
