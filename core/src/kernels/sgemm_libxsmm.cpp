// kernels/sgemm.hpp on libxsmm (Debian's libxsmm-dev, version 1.17): a JIT-generated kernel per
// tile shape, in float or double, cached by libxsmm itself. libxsmm's kernels are column-major; a row-major
// C = A * B is the column-major C^T = B^T * A^T, so the operands are handed over swapped.
#include "sgemm.hpp"

#include <algorithm>
#include <array>
#include <mutex>

#include <libxsmm.h>

namespace mhaviz::detail::kernels {
namespace {

/// Rows of C per kernel call; A's rows stream through.
constexpr std::int64_t kTileRows = 256;

/// libxsmm's kernel type and dispatch for float and double.
template <typename T>
struct Libxsmm;
template <>
struct Libxsmm<float> {
  using Function = libxsmm_smmfunction;
  static constexpr auto dispatch = libxsmm_smmdispatch;
};
template <>
struct Libxsmm<double> {
  using Function = libxsmm_dmmfunction;
  static constexpr auto dispatch = libxsmm_dmmdispatch;
};

/// Elements in one AVX-512 vector: libxsmm's kernels work on columns of C in such vectors.
template <typename T>
constexpr std::int64_t kLanes = 64 / sizeof(T);

/// Columns of C per kernel call: a k x cols panel of B stays in L1/L2 while the kernel walks
/// down the rows of A. Measured on an AVX-512 core (libxsmm 1.17, its kernels' GFLOP/s against
/// an FMA peak of about 160 in float): with a long inner dimension (the projections, k = E)
/// 3 vectors of columns (48 floats) run at 150-158 where 4 ran at 140-145 and 8 at 140; with a
/// short one (q.k^T, k = head_dim) 8 vectors (128 floats) at 132-143 where 4 ran at 123-138.
/// Up to 8 vectors of columns are one call. (In double the differences are within the noise.)
template <typename T>
std::int64_t tile_cols(std::int64_t n, std::int64_t k) {
  if (n <= 8 * kLanes<T>) return n;
  return (k >= 256 ? 3 : 8) * kLanes<T>;
}

/// libxsmm 1.17's kernels for 4 vectors of columns and a part of a fifth (65-80 floats), and
/// for at most one vector of columns and 2 to 11 rows, do not sum each element over k in order
/// (the others do; test_kernels.cpp): such a tile is cut into 4 vectors and the rest, or
/// computed row by row.
template <typename T>
std::int64_t next_cols(std::int64_t tile, std::int64_t left) {
  const std::int64_t cols = std::min(tile, left);
  return cols > 4 * kLanes<T> && cols <= 5 * kLanes<T> ? 4 * kLanes<T> : cols;
}
template <typename T>
std::int64_t next_rows(std::int64_t left, std::int64_t cols) {
  const std::int64_t rows = std::min(kTileRows, left);
  return rows < 12 && cols <= kLanes<T> ? 1 : rows;
}

void initialise() {
  static std::once_flag initialised;
  std::call_once(initialised, [] { libxsmm_init(); });
}

libxsmm_blasint blas_int(std::int64_t v) { return static_cast<libxsmm_blasint>(v); }

/// The kernel for a (rows x cols) tile of C over k, or null when libxsmm cannot make one. The
/// last few found are remembered by each thread: libxsmm's own lookup costs about as much as
/// a small product (a pass at (2,16,16,64,4) asks for about 40 kernels in 25 us).
template <typename T>
typename Libxsmm<T>::Function kernel(std::int64_t rows, std::int64_t cols, std::int64_t k,
                                     std::int64_t lda, std::int64_t ldb, std::int64_t ldc) {
  using Function = typename Libxsmm<T>::Function;
  struct Known {
    std::array<std::int64_t, 6> shape{};
    Function f = nullptr;
  };
  thread_local std::array<Known, 16> known;
  thread_local std::size_t next = 0;
  const std::array<std::int64_t, 6> shape = {rows, cols, k, lda, ldb, ldc};
  for (const Known& kn : known) {
    if (kn.f != nullptr && kn.shape == shape) return kn.f;
  }
  initialise();
  const T alpha = 1, beta = 0;
  const int flags = LIBXSMM_GEMM_FLAG_NONE;
  const libxsmm_blasint ld_a = blas_int(ldb), ld_b = blas_int(lda),
                        ld_c = blas_int(ldc);  // swapped
  const Function f = Libxsmm<T>::dispatch(blas_int(cols), blas_int(rows), blas_int(k), &ld_a,
                                          &ld_b, &ld_c, &alpha, &beta, &flags, nullptr);
  if (f != nullptr) known[next++ % known.size()] = {shape, f};
  return f;
}

template <typename T>
bool gemm_tiles(std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t lda,
                const T* b, std::int64_t ldb, T* c, std::int64_t ldc) {
  if (m == 0 || n == 0) return true;
  if (k == 0) {
    for (std::int64_t i = 0; i < m; ++i) std::fill_n(c + i * ldc, n, T(0));
    return true;
  }
  // Tiles have few shapes (full or the last rows; full, 4 vectors or the last columns): each
  // kernel is looked up once per call, not once per tile.
  using Function = typename Libxsmm<T>::Function;
  struct Kernel {
    std::int64_t rows = 0, cols = 0;
    Function f = nullptr;
  };
  Kernel known[6];
  const auto lookup = [&](std::int64_t rows, std::int64_t cols) {
    for (Kernel& kn : known) {
      if (kn.f == nullptr) {
        kn = {rows, cols, kernel<T>(rows, cols, k, lda, ldb, ldc)};
        return kn.f;
      }
      if (kn.rows == rows && kn.cols == cols) return kn.f;
    }
    return kernel<T>(rows, cols, k, lda, ldb, ldc);
  };
  const std::int64_t tile = tile_cols<T>(n, k);
  for (std::int64_t j = 0, cols = 0; j < n; j += cols) {
    cols = next_cols<T>(tile, n - j);
    for (std::int64_t i = 0, rows = 0; i < m; i += rows) {
      rows = next_rows<T>(m - i, cols);
      const Function f = lookup(rows, cols);
      if (f == nullptr) return false;
      f(b + j, a + i * lda, c + i * ldc + j);
    }
  }
  return true;
}

template <typename T>
void transpose_with(std::int64_t rows, std::int64_t cols, const T* in, std::int64_t ldi, T* out,
                    std::int64_t ldo) {
  if (rows == 0 || cols == 0) return;
  initialise();
  // Column-major, `in` is cols x rows (leading dimension ldi) and `out` rows x cols (ldo).
  libxsmm_otrans(out, in, sizeof(T), blas_int(cols), blas_int(rows), blas_int(ldi),
                 blas_int(ldo));
}

}  // namespace

bool gemm(std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t lda,
          const float* b, std::int64_t ldb, float* c, std::int64_t ldc) {
  return gemm_tiles(m, n, k, a, lda, b, ldb, c, ldc);
}

bool gemm(std::int64_t m, std::int64_t n, std::int64_t k, const double* a, std::int64_t lda,
          const double* b, std::int64_t ldb, double* c, std::int64_t ldc) {
  return gemm_tiles(m, n, k, a, lda, b, ldb, c, ldc);
}

void transpose(std::int64_t rows, std::int64_t cols, const float* in, std::int64_t ldi, float* out,
               std::int64_t ldo) {
  transpose_with(rows, cols, in, ldi, out, ldo);
}

void transpose(std::int64_t rows, std::int64_t cols, const double* in, std::int64_t ldi,
               double* out, std::int64_t ldo) {
  transpose_with(rows, cols, in, ldi, out, ldo);
}

}  // namespace mhaviz::detail::kernels
