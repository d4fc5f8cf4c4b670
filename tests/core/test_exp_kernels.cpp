// The softmax's exp kernels, one per instruction set (core/src/kernels/exp_row.hpp): each that
// this CPU runs against the C library's exp, with PyTorch's exact values (0 for -inf, the
// subnormal results) bit for bit; the choice at run time and its MHAVIZ_ISA override.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/exp_row.hpp"

namespace {

using mhaviz::detail::kernels::exp_kernels;
using mhaviz::detail::kernels::exp_kernels_here;
using mhaviz::detail::kernels::ExpKernels;

// Scores as a pass has them: ordinary values, masked keys (-inf), far-off scores whose exp is
// subnormal or 0, and lengths that leave every vector width a remainder.
template <typename T>
std::vector<T> scores(std::int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, 4.0);
  std::vector<T> x(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) {
    const auto k = static_cast<std::size_t>(j);
    switch (j % 7) {
      case 3: x[k] = -std::numeric_limits<T>::infinity(); break;
      case 5: x[k] = static_cast<T>(sizeof(T) == 4 ? -95.0 - static_cast<double>(j % 13) : -720.0 - static_cast<double>(j % 29)); break;
      default: x[k] = static_cast<T>(normal(rng));
    }
  }
  return x;
}

template <typename T>
void expect_matches_libm(const ExpKernels& k, std::int64_t n) {
  const std::vector<T> in = scores<T>(n, 7U + static_cast<unsigned>(n));
  const T shift = static_cast<T>(1.25);
  std::vector<T> out(in.size(), std::numeric_limits<T>::quiet_NaN());
  if constexpr (sizeof(T) == 4) {
    k.f32(in.data(), out.data(), n, shift);
  } else {
    k.f64(in.data(), out.data(), n, shift);
  }
  for (std::int64_t j = 0; j < n; ++j) {
    const auto i = static_cast<std::size_t>(j);
    const T want = std::exp(in[i] - shift);
    if (want < std::numeric_limits<T>::min()) {
      // Exact where PyTorch is: +0 for -inf, the subnormal itself otherwise.
      EXPECT_EQ(std::memcmp(&out[i], &want, sizeof(T)), 0)
          << k.isa << " n=" << n << " j=" << j << " in=" << in[i] << " got " << out[i];
    } else {
      EXPECT_NEAR(out[i], want, 4 * std::numeric_limits<T>::epsilon() * want)
          << k.isa << " n=" << n << " j=" << j;
    }
  }
}

TEST(ExpKernels, EveryVariantThisCpuRunsAgreesWithTheCLibrary) {
  ASSERT_FALSE(exp_kernels_here().empty());
  for (const ExpKernels& k : exp_kernels_here()) {
    for (const std::int64_t n : {1, 3, 7, 8, 15, 16, 17, 33, 64, 1000}) {
      expect_matches_libm<float>(k, n);
      expect_matches_libm<double>(k, n);
    }
  }
}

TEST(ExpKernels, TheBaselineIsAlwaysThereAndTheWidestIsChosen) {
  const auto here = exp_kernels_here();
  EXPECT_STREQ(here.front().isa, "x86-64");
  const char* wanted = std::getenv("MHAVIZ_ISA");
  if (wanted == nullptr) {
    EXPECT_STREQ(exp_kernels().isa, here.back().isa);
  } else {
    // core-baseline-isa runs this suite with MHAVIZ_ISA=x86-64.
    EXPECT_STREQ(exp_kernels().isa, wanted);
  }
}

// Under qemu-x86_64 -cpu <model> (ctest isa-kernels-nehalem, isa-kernels-haswell), the CPU's
// own cpuid decides: MHAVIZ_EXPECT_ISA names the widest variant that model has.
TEST(ExpKernels, TheCpuDecidesWhichVariantRuns) {
  const char* expected = std::getenv("MHAVIZ_EXPECT_ISA");
  if (expected == nullptr) GTEST_SKIP() << "MHAVIZ_EXPECT_ISA is not set (qemu tests only)";
  EXPECT_STREQ(exp_kernels_here().back().isa, expected);
  EXPECT_STREQ(exp_kernels().isa, expected);
}

TEST(ExpKernels, EveryVariantBuiltThatThisCpuCanRunIsOffered) {
  std::vector<std::string> names;
  for (const ExpKernels& k : exp_kernels_here()) names.emplace_back(k.isa);
  auto offered = [&](const char* isa) {
    return std::find(names.begin(), names.end(), isa) != names.end();
  };
#if MHAVIZ_ISA_AVX2
  EXPECT_EQ(offered("avx2"), __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
#else
  EXPECT_FALSE(offered("avx2"));
#endif
#if MHAVIZ_ISA_AVX512
  EXPECT_EQ(offered("avx512"), __builtin_cpu_supports("avx512f") &&
                                   __builtin_cpu_supports("avx512dq") &&
                                   __builtin_cpu_supports("avx2"));
#else
  EXPECT_FALSE(offered("avx512"));
#endif
}

}  // namespace
