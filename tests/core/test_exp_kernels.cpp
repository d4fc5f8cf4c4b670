// The softmax's row kernels, one per instruction set (core/src/kernels/exp_row.hpp): each that
// this CPU runs, its exp against the C library's and its softmax against a double-precision
// one, with PyTorch's exact values (0 for -inf, the subnormal results, NaN and zero rows) bit
// for bit; the choice at run time and its MHAVIZ_ISA override.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/exp_row.hpp"
#include "mhaviz/core/base/tensor.hpp"

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
      case 3:
        x[k] = -std::numeric_limits<T>::infinity();
        break;
      case 5:
        x[k] = static_cast<T>(sizeof(T) == 4 ? -95.0 - static_cast<double>(j % 13)
                                             : -720.0 - static_cast<double>(j % 29));
        break;
      default:
        x[k] = static_cast<T>(normal(rng));
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

// softmax(row + mask) as the pass computes it, in long double (the reference).
template <typename T>
std::vector<long double> reference_softmax(const std::vector<T>& row, const std::vector<T>& mask) {
  std::vector<long double> s(row.size()), w(row.size());
  long double mx = -std::numeric_limits<long double>::infinity(), sum = 0;
  for (std::size_t j = 0; j < row.size(); ++j) {
    s[j] = static_cast<long double>(static_cast<T>(row[j] + mask[j]));  // added in T, as the pass
    mx = std::max(mx, s[j]);
  }
  for (std::size_t j = 0; j < row.size(); ++j) sum += w[j] = std::exp(s[j] - mx);
  for (long double& x : w) x /= sum;
  return w;
}

template <typename T>
void softmax(const ExpKernels& k, T* row, const T* mask, T* copy, std::int64_t n, bool zero,
             bool stream = false) {
  if constexpr (sizeof(T) == 4) {
    k.softmax_f32(row, mask, copy, stream, n, zero);
  } else {
    k.softmax_f64(row, mask, copy, stream, n, zero);
  }
  if (stream) mhaviz::detail::kernels::stream_fence();
}

template <typename T>
void expect_softmax_matches(const ExpKernels& k, std::int64_t n, std::size_t copy_offset,
                            bool stream) {
  std::vector<T> row = scores<T>(n, 11U + static_cast<unsigned>(n));
  std::vector<T> mask(row.size(), T(0));
  for (std::size_t j = 0; j < mask.size(); j += 5) mask[j] = -std::numeric_limits<T>::infinity();
  row[0] = T(3);  // one key not masked by either
  mask[0] = T(-1);
  const std::vector<long double> want = reference_softmax(row, mask);
  // The copy lands at an offset of copy_offset elements: aligned for streaming stores or not
  // (AlignedVector's storage is aligned for every vector width).
  // One element more than the largest offset: the element after the copy is always there to
  // show a write past its end.
  mhaviz::AlignedVector<T> copy_storage(row.size() + 17, std::numeric_limits<T>::quiet_NaN());
  T* copy = copy_storage.data() + copy_offset;
  softmax(k, row.data(), mask.data(), copy, n, false, stream);
  for (std::int64_t j = 0; j < n; ++j) {
    const auto i = static_cast<std::size_t>(j);
    if (want[i] == 0) {  // a masked key: exactly +0, as PyTorch
      EXPECT_TRUE(row[i] == 0 && !std::signbit(row[i]))
          << k.isa << " n=" << n << " j=" << j << " got " << row[i];
    } else {
      // exp's argument s - max is rounded to T: a relative error of eps * |s - max| (about
      // |log w|) comes on top of a few eps of exp, sum and scale.
      const long double w = want[i];
      const long double tol = 8 * std::numeric_limits<T>::epsilon() * w * (1 - std::log(w));
      EXPECT_LE(std::abs(row[i] - w), tol + std::numeric_limits<T>::denorm_min())
          << k.isa << " n=" << n << " j=" << j << " got " << row[i] << " want "
          << static_cast<double>(w);
    }
    EXPECT_EQ(std::memcmp(&copy[i], &row[i], sizeof(T)), 0)
        << k.isa << " copy n=" << n << " j=" << j;
  }
  EXPECT_TRUE(std::isnan(copy_storage[copy_offset + row.size()]))
      << k.isa << " wrote past the copy";
}

TEST(SoftmaxKernels, EveryVariantThisCpuRunsAgreesWithALongDoubleSoftmax) {
  for (const ExpKernels& k : exp_kernels_here()) {
    for (const std::int64_t n : {1, 3, 7, 8, 15, 16, 17, 33, 64, 1000, 2048}) {
      for (const std::size_t offset : {0U, 1U, 16U}) {
        for (const bool stream : {false, true}) {
          expect_softmax_matches<float>(k, n, offset, stream);
          expect_softmax_matches<double>(k, n, offset, stream);
        }
      }
    }
  }
}

template <typename T>
void expect_special_rows(const ExpKernels& k, std::int64_t n) {
  constexpr T kInf = std::numeric_limits<T>::infinity();
  const std::vector<T> masked(static_cast<std::size_t>(n), -kInf);
  std::vector<T> row = masked, copy(row.size());
  softmax(k, row.data(), static_cast<const T*>(nullptr), copy.data(), n, false);
  for (std::size_t j = 0; j < row.size(); ++j) {
    EXPECT_TRUE(std::isnan(row[j]) && std::isnan(copy[j])) << k.isa << " fully masked, n=" << n;
  }
  row = masked;
  softmax(k, row.data(), static_cast<const T*>(nullptr), copy.data(), n, true);
  for (std::size_t j = 0; j < row.size(); ++j) {
    EXPECT_TRUE(row[j] == 0 && !std::signbit(row[j]) && copy[j] == 0)
        << k.isa << " zeroed, n=" << n;
  }
  // A NaN or +inf score (the mask can bring one in too) makes the row NaN, as torch.softmax.
  for (const T bad : {std::numeric_limits<T>::quiet_NaN(), kInf}) {
    row.assign(row.size(), T(1));
    std::vector<T> mask(row.size(), T(0));
    mask.back() = bad;
    softmax(k, row.data(), mask.data(), static_cast<T*>(nullptr), n, true);
    for (std::size_t j = 0; j < row.size(); ++j) {
      EXPECT_TRUE(std::isnan(row[j])) << k.isa << " bad=" << bad << " n=" << n << " j=" << j;
    }
  }
}

TEST(SoftmaxKernels, MaskedNanAndInfiniteRowsAsPyTorch) {
  for (const ExpKernels& k : exp_kernels_here()) {
    for (const std::int64_t n : {1, 5, 16, 37}) {
      expect_special_rows<float>(k, n);
      expect_special_rows<double>(k, n);
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
