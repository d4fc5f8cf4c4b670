// mhaviz-kernels-bench: the kernel for each product of a pass, measured side by side (not a
// test; its figures: docs/performance.md). For the in-projection (a chunk of 256 tokens times
// W^T), the q.k^T tiles (inner dimension head_dim) and weights.v (inner dimension S) at the
// sizes of mhaviz-bench, it prints GFLOP/s of one thread for
//   - Eigen (as the core builds it),
//   - libxsmm through the core's own kernels::gemm (when built in),
//   - OpenBLAS and BLIS, loaded at run time (libopenblas0-pthread, libblis4-serial) through
//     the BLAS sgemm_ they both export; "-" when the library is not installed.
// Each figure is the best of --reps repetitions, each at least --min-ms long. First it prints
// the FMA peak of one core: the rate of 12 independent chains of fused multiply-adds on full
// vectors (512-bit with AVX-512F, 256-bit with AVX2+FMA), which neither latency nor memory
// limits, on one thread, best of --reps:
//   "FMA peak, one core: AVX-512 X GFLOP/s, AVX2 Y GFLOP/s (float32, ...)".
// With --peak it prints that line only (tests/bench/compare_torch.py measures the peak so).
//
//   mhaviz-kernels-bench [--peak] [--reps 5] [--min-ms 20]
#include <dlfcn.h>
#include <immintrin.h>

#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "kernels/sgemm.hpp"

namespace {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using BlasSgemm = void (*)(const char*, const char*, const int*, const int*, const int*,
                           const float*, const float*, const int*, const float*, const int*,
                           const float*, float*, const int*);

struct Blas {
  std::string name;
  BlasSgemm sgemm = nullptr;
};

/// A BLAS loaded at run time from the first path that opens, held to one thread.
Blas load_blas(const std::string& name, const std::vector<const char*>& paths,
               const char* set_threads) {
  for (const char* path : paths) {
    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) continue;
    if (auto* threads = reinterpret_cast<void (*)(int)>(dlsym(lib, set_threads))) threads(1);
    return {name, reinterpret_cast<BlasSgemm>(dlsym(lib, "sgemm_"))};
  }
  return {name, nullptr};
}

/// Row-major C = A * B through a column-major BLAS: C^T = B^T * A^T (B's rows ldb apart).
void blas_product(BlasSgemm f, const Mat& a, const float* b, int ldb, Mat& c) {
  const int m = static_cast<int>(a.rows()), n = static_cast<int>(c.cols()),
            k = static_cast<int>(a.cols());
  const float one = 1.0F, zero = 0.0F;
  f("N", "N", &n, &m, &k, &one, b, &ldb, a.data(), &k, &zero, c.data(), &n);
}

double best_gflops(const std::function<void()>& run, double flop, int reps, double min_ms) {
  using clock = std::chrono::steady_clock;
  run();  // warm-up: caches, generated kernels
  double best = 0;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = clock::now();
    int calls = 0;
    double ms = 0;
    do {
      run();
      ++calls;
      ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
    } while (ms < min_ms);
    best = std::max(best, flop * calls / (ms * 1e6));
  }
  return best;
}

// The FMA peak. Each step of a chain is acc = acc * a + b on every lane (2 FLOP per lane); 12
// chains are more than (FMA pipes x FMA latency, 2 x 4) on current x86 cores, so the pipes never
// wait, and with a and b they fit AVX2's 16 registers. The chains live in registers during a
// call and in `acc` (16 floats per chain) between calls.
constexpr int kChains = 12;
constexpr int kSteps = 4096;  // per chain and call

__attribute__((target("avx512f"))) void fma_chains_avx512(float* acc) {
  __m512 x[kChains];
  for (int c = 0; c < kChains; ++c) x[c] = _mm512_loadu_ps(acc + 16 * c);
  const __m512 a = _mm512_set1_ps(0.999F), b = _mm512_set1_ps(1e-3F);
  for (int i = 0; i < kSteps; ++i) {
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c) x[c] = _mm512_fmadd_ps(x[c], a, b);
  }
  for (int c = 0; c < kChains; ++c) _mm512_storeu_ps(acc + 16 * c, x[c]);
}

__attribute__((target("avx2,fma"))) void fma_chains_avx2(float* acc) {
  __m256 x[kChains];
  for (int c = 0; c < kChains; ++c) x[c] = _mm256_loadu_ps(acc + 16 * c);
  const __m256 a = _mm256_set1_ps(0.999F), b = _mm256_set1_ps(1e-3F);
  for (int i = 0; i < kSteps; ++i) {
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c) x[c] = _mm256_fmadd_ps(x[c], a, b);
  }
  for (int c = 0; c < kChains; ++c) _mm256_storeu_ps(acc + 16 * c, x[c]);
}

/// GFLOP/s of `chains` (fma_chains_avx512 or _avx2) on vectors of `lanes` floats.
double fma_rate(void (*chains)(float*), int lanes, int reps, double min_ms, float seed,
                float* sink) {
  std::vector<float> acc(16 * kChains, seed);
  const double flop = 2.0 * lanes * kChains * kSteps;
  const double gflops = best_gflops([&] { chains(acc.data()); }, flop, reps, min_ms);
  for (float v : acc) *sink += v;
  return gflops;
}

/// Prints the FMA peak line (the widths the CPU lacks are left out).
void print_fma_peak(int reps, double min_ms) {
  volatile float start = 1.0F;  // not a constant: the chains cannot be folded away
  const float seed = start;
  float sink = 0.0F;
  std::string rates;
  char buf[64];
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) {
    const double r = fma_rate(fma_chains_avx512, 16, reps, min_ms, seed, &sink);
    std::snprintf(buf, sizeof buf, "AVX-512 %.1f GFLOP/s", r);
    rates += buf;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    const double r = fma_rate(fma_chains_avx2, 8, reps, min_ms, seed, &sink);
    std::snprintf(buf, sizeof buf, "%sAVX2 %.1f GFLOP/s", rates.empty() ? "" : ", ", r);
    rates += buf;
  }
  if (rates.empty()) rates = "no AVX2+FMA on this CPU";
  std::printf("FMA peak, one core: %s (float32, %d chains of FMAs, 1 thread, best of %d)\n",
              rates.c_str(), kChains, reps);
  if (sink == 0.0F) std::printf("(all chains ended at 0)\n");  // the chains' results are used
}

struct Shape {
  const char* product;
  const char* size;
  int m, n, k;
};

}  // namespace

int main(int argc, char** argv) {
  int reps = 5;
  double min_ms = 20;
  bool peak_only = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--peak") == 0) {
      peak_only = true;
    } else if (i + 1 < argc && std::strcmp(argv[i], "--reps") == 0) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else if (i + 1 < argc && std::strcmp(argv[i], "--min-ms") == 0) {
      min_ms = std::max(1.0, std::atof(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: mhaviz-kernels-bench [--peak] [--reps N] [--min-ms MS]\n");
      return 2;
    }
  }
  print_fma_peak(reps, min_ms);
  if (peak_only) return 0;
  setenv("OPENBLAS_NUM_THREADS", "1", 1);
  setenv("OMP_NUM_THREADS", "1", 1);
  const std::vector<Blas> blas = {
      load_blas("OpenBLAS",
                {"/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0", "libopenblas.so.0"},
                "openblas_set_num_threads"),
      load_blas("BLIS", {"/usr/lib/x86_64-linux-gnu/blis-serial/libblis.so.4", "libblis.so.4"},
                "bli_thread_set_num_threads")};

  // The products of a pass, as forward.cpp cuts them (N/L/S/E/H in the size column).
  const std::vector<Shape> shapes = {
      {"in-projection", "E=512", 256, 512, 512},    {"in-projection", "E=768", 256, 768, 768},
      {"q.k^T tile", "S=128 hd=32", 64, 128, 32},   {"q.k^T tile", "S=512 hd=64", 64, 512, 64},
      {"q.k^T tile", "S=2048 hd=64", 32, 2048, 64}, {"weights.v", "S=128 hd=32", 64, 32, 128},
      {"weights.v", "S=512 hd=64", 64, 64, 512},    {"weights.v", "S=2048 hd=64", 32, 64, 2048}};

  std::printf("%-14s %-13s %-15s %8s %8s", "product", "size", "m x n x k", "Eigen", "libxsmm");
  for (const Blas& b : blas) std::printf(" %9s", b.name.c_str());
  std::printf("   (GFLOP/s, 1 thread, best of %d)\n", reps);
  for (const Shape& s : shapes) {
    // B as the pass holds it (a transposed weight matrix or a head's keys, attention_tile.hpp):
    // its rows one 64-byte line further apart than needed.
    const Mat a = Mat::Random(s.m, s.k), padded = Mat::Random(s.k, (s.n + 15) / 16 * 16 + 16);
    const auto b = padded.leftCols(s.n);
    const int ldb = static_cast<int>(padded.cols());
    Mat c(s.m, s.n);
    const double flop = 2.0 * s.m * s.n * s.k;
    const std::string dims =
        std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
    std::printf("%-14s %-13s %-15s", s.product, s.size, dims.c_str());
    std::printf(" %8.1f", best_gflops([&] { c.noalias() = a * b; }, flop, reps, min_ms));
    if constexpr (mhaviz::detail::kernels::kSgemm) {
      std::printf(" %8.1f",
                  best_gflops(
                      [&] {
                        if (!mhaviz::detail::kernels::gemm(s.m, s.n, s.k, a.data(), s.k, b.data(),
                                                            ldb, c.data(), s.n)) {
                          std::fprintf(stderr, "libxsmm has no kernel for this CPU\n");
                          std::exit(1);
                        }
                      },
                      flop, reps, min_ms));
    } else {
      std::printf(" %8s", "-");
    }
    for (const Blas& lib : blas) {
      if (lib.sgemm == nullptr) {
        std::printf(" %9s", "-");
      } else {
        std::printf(" %9.1f",
                    best_gflops([&] { blas_product(lib.sgemm, a, b.data(), ldb, c); }, flop, reps,
                                min_ms));
      }
    }
    std::printf("\n");
  }
  return 0;
}
