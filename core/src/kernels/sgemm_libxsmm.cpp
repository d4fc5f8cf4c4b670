// kernels/sgemm.hpp on libxsmm (Debian's libxsmm-dev, version 1.17): a JIT-generated kernel per
// tile shape, cached by libxsmm itself. libxsmm's kernels are column-major; a row-major
// C = A * B is the column-major C^T = B^T * A^T, so the operands are handed over swapped.
#include "sgemm.hpp"

#include <algorithm>
#include <mutex>

#include <libxsmm.h>

namespace mhaviz::detail::kernels {
namespace {

/// Rows of C per kernel call; A's rows stream through.
constexpr std::int64_t kTileRows = 256;

/// Columns of C per kernel call: a k x cols panel of B stays in L1/L2 while the kernel walks
/// down the rows of A. Measured on an AVX-512 core (libxsmm 1.17, its kernels' GFLOP/s against
/// an FMA peak of about 160): with a long inner dimension (the projections, k = E) 48 columns
/// run at 150-158 where 64 ran at 140-145 and 128 at 140; with a short one (q.k^T, k = head_dim)
/// 128 columns at 132-143 where 64 ran at 123-138. Up to 128 columns are one call.
std::int64_t tile_cols(std::int64_t n, std::int64_t k) {
  if (n <= 128) return n;
  return k >= 256 ? 48 : 128;
}
/// libxsmm 1.17's kernels for 65 to 80 columns, and for at most 16 columns and 2 to 11 rows,
/// do not sum each element over k in order (the others do; test_kernels.cpp): such a tile is
/// cut into 64 columns and the rest, or computed row by row.
std::int64_t next_cols(std::int64_t tile, std::int64_t left) {
  const std::int64_t cols = std::min(tile, left);
  return cols > 64 && cols <= 80 ? 64 : cols;
}
std::int64_t next_rows(std::int64_t left, std::int64_t cols) {
  const std::int64_t rows = std::min(kTileRows, left);
  return rows < 12 && cols <= 16 ? 1 : rows;
}

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
  // Tiles have few shapes (full or the last rows; full, 64 or the last columns): each kernel
  // is looked up once per call, not once per tile.
  struct Kernel {
    std::int64_t rows = 0, cols = 0;
    libxsmm_smmfunction f = nullptr;
  };
  Kernel known[6];
  const auto lookup = [&](std::int64_t rows, std::int64_t cols) {
    for (Kernel& kn : known) {
      if (kn.f == nullptr) {
        kn = {rows, cols, kernel(rows, cols, k, lda, ldb, ldc)};
        return kn.f;
      }
      if (kn.rows == rows && kn.cols == cols) return kn.f;
    }
    return kernel(rows, cols, k, lda, ldb, ldc);
  };
  const std::int64_t tile = tile_cols(n, k);
  for (std::int64_t j = 0, cols = 0; j < n; j += cols) {
    cols = next_cols(tile, n - j);
    for (std::int64_t i = 0, rows = 0; i < m; i += rows) {
      rows = next_rows(m - i, cols);
      const libxsmm_smmfunction f = lookup(rows, cols);
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
