// kernels/sgemm.hpp on libxsmm (Debian's libxsmm-dev, version 1.17): a JIT-generated kernel per
// tile shape, cached by libxsmm itself. libxsmm's kernels are column-major; a row-major
// C = A * B is the column-major C^T = B^T * A^T, so the operands are handed over swapped.
#include "sgemm.hpp"

#include <algorithm>
#include <mutex>

#include <libxsmm.h>

namespace mhaviz::detail::kernels {
namespace {

/// Columns of C per kernel call: a k x 64 panel of B stays in L1/L2 while the kernel walks
/// down the rows of A (measured faster than one call over all columns for the q.k^T tiles
/// and the projections, and no slower elsewhere).
constexpr std::int64_t kTileCols = 64;
/// Rows of C per kernel call; A's rows stream through.
constexpr std::int64_t kTileRows = 256;

void initialise() {
  static std::once_flag initialised;
  std::call_once(initialised, [] { libxsmm_init(); });
}

libxsmm_blasint blas_int(std::int64_t v) { return static_cast<libxsmm_blasint>(v); }

/// The kernel for a (rows x cols) tile of C over k, or null when libxsmm cannot make one.
libxsmm_smmfunction kernel(std::int64_t rows, std::int64_t cols, std::int64_t k, std::int64_t lda,
                           std::int64_t ldb, std::int64_t ldc) {
  initialise();
  const float alpha = 1.0F, beta = 0.0F;
  const int flags = LIBXSMM_GEMM_FLAG_NONE;
  const libxsmm_blasint ld_a = blas_int(ldb), ld_b = blas_int(lda),
                        ld_c = blas_int(ldc);  // swapped
  return libxsmm_smmdispatch(blas_int(cols), blas_int(rows), blas_int(k), &ld_a, &ld_b, &ld_c,
                             &alpha, &beta, &flags, nullptr);
}

}  // namespace

bool sgemm(std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t lda,
           const float* b, std::int64_t ldb, float* c, std::int64_t ldc) {
  if (m == 0 || n == 0) return true;
  if (k == 0) {
    for (std::int64_t i = 0; i < m; ++i) std::fill_n(c + i * ldc, n, 0.0F);
    return true;
  }
  // Every tile has one of at most four shapes (full or the last rows, full or the last
  // columns): each kernel is looked up once per call, not once per tile.
  libxsmm_smmfunction kernels[2][2] = {};
  for (std::int64_t j = 0; j < n; j += kTileCols) {
    const std::int64_t cols = std::min(kTileCols, n - j);
    for (std::int64_t i = 0; i < m; i += kTileRows) {
      const std::int64_t rows = std::min(kTileRows, m - i);
      libxsmm_smmfunction& f = kernels[rows < kTileRows ? 1 : 0][cols < kTileCols ? 1 : 0];
      if (f == nullptr) f = kernel(rows, cols, k, lda, ldb, ldc);
      if (f == nullptr) return false;
      f(b + j, a + i * lda, c + i * ldc + j);
    }
  }
  return true;
}

void transpose(std::int64_t rows, std::int64_t cols, const float* in, std::int64_t ldi, float* out,
               std::int64_t ldo) {
  if (rows == 0 || cols == 0) return;
  initialise();
  // Column-major, `in` is cols x rows (leading dimension ldi) and `out` rows x cols (ldo).
  libxsmm_otrans(out, in, sizeof(float), blas_int(cols), blas_int(rows), blas_int(ldi),
                 blas_int(ldo));
}

}  // namespace mhaviz::detail::kernels
