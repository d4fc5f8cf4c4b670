// kernels::gemm (libxsmm) against Eigen's product, on the shapes a pass uses and on strided
// operands; and the property the derived maps rely on: a row of C does not depend on which
// other rows are computed with it. Built only when the kernel is (cmake/Kernels.cmake).
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>

#include "forward/head_products.hpp"
#include "kernels/sgemm.hpp"
#include "mhaviz/core/base/tensor.hpp"

namespace {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Ref = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

class Sgemm : public ::testing::TestWithParam<std::tuple<int, int, int>> {};

TEST_P(Sgemm, AgreesWithADoubleProductToFloatRounding) {
  const auto [m, n, k] = GetParam();
  const Mat a = Mat::Random(m, k), b = Mat::Random(k, n);
  Mat c = Mat::Constant(m, n, 1e30F);  // every element must be written
  ASSERT_TRUE(mhaviz::detail::kernels::gemm(m, n, k, a.data(), k, b.data(), n, c.data(), n));
  const Ref want = a.cast<double>() * b.cast<double>();
  // Each |term| < 1: a float sum of k of them is within k * eps of the exact one.
  const double tol = 4.0 * k * std::numeric_limits<float>::epsilon();
  EXPECT_LT((c.cast<double>() - want).cwiseAbs().maxCoeff(), tol) << m << "x" << n << "x" << k;
}

// The in-projection chunks, q.k^T tiles (head_dim inner), weights.v (keys inner), ragged edges.
INSTANTIATE_TEST_SUITE_P(
    PassShapes, Sgemm,
    ::testing::Values(std::make_tuple(256, 512, 512), std::make_tuple(100, 768, 768),
                      std::make_tuple(64, 2048, 64), std::make_tuple(16, 130, 32),
                      std::make_tuple(64, 64, 2048), std::make_tuple(33, 64, 515),
                      std::make_tuple(300, 70, 3), std::make_tuple(1, 1, 1)));

TEST(SgemmStrided, BlocksOfLargerMatricesKeepTheirNeighboursIntact) {
  // C = A.block * B.leftCols, written into the middle of a larger matrix.
  const Mat a = Mat::Random(40, 90), b = Mat::Random(70, 300);
  Mat c = Mat::Zero(50, 200);
  const Mat before = c;
  const std::int64_t m = 30, n = 150, k = 70;
  ASSERT_TRUE(mhaviz::detail::kernels::gemm(m, n, k, a.data() + 5 * 90 + 10, 90, b.data(), 300,
                                            c.data() + 7 * 200 + 20, 200));
  const Mat want = a.block(5, 10, m, k) * b.leftCols(n);
  EXPECT_LT((c.block(7, 20, m, n) - want).cwiseAbs().maxCoeff(), 1e-4F);
  c.block(7, 20, m, n).setZero();
  EXPECT_EQ(c, before) << "elements outside the block were written";
}

/// C = A * B with each element summed over k in order by fused multiply-adds, from 0.
template <typename M>
M fma_chain(const M& a, const M& b) {
  M c(a.rows(), b.cols());
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    for (Eigen::Index j = 0; j < b.cols(); ++j) {
      typename M::Scalar acc = 0;
      for (Eigen::Index t = 0; t < a.cols(); ++t) acc = std::fma(a(i, t), b(t, j), acc);
      c(i, j) = acc;
    }
  }
  return c;
}

template <typename M>
void expect_fma_chains() {
  // What makes a row the same whatever tile it is computed in, and a product the same however
  // its columns are cut (sgemm.hpp): every shape up to 14 rows and 20 columns, 16 rows by up
  // to 140 columns and more, and the pass's kinds of products (a projection cut into tiles
  // with a ragged end, q.k^T tiles, weights.v). libxsmm's own kernels for 65-80 float columns,
  // or for 2-11 rows and one vector of columns, sum in another order: gemm must not use them.
  // (Each new shape costs libxsmm a kernel: hence not every shape.)
  std::vector<std::tuple<int, int, int>> shapes = {{40, 300, 256}, {64, 512, 64}, {32, 64, 512}};
  for (int n = 1; n <= 300; n += n < 140 ? 1 : 7) {
    if (n <= 20) {
      for (int m = 1; m <= 14; ++m) shapes.emplace_back(m, n, 16);
    }
    shapes.emplace_back(16, n, 64);
  }
  for (const auto& [m, n, k] : shapes) {
    const M a = M::Random(m, k), b = M::Random(k, n);
    M c(m, n);
    ASSERT_TRUE(mhaviz::detail::kernels::gemm(m, n, k, a.data(), k, b.data(), n, c.data(), n));
    ASSERT_EQ(c, fma_chain(a, b)) << m << "x" << n << "x" << k;
  }
}

TEST(SgemmOrder, EachElementIsAnFmaChainOverKInOrder) { expect_fma_chains<Mat>(); }

TEST(DgemmOrder, EachElementIsAnFmaChainOverKInOrder) {
  expect_fma_chains<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>();
}

TEST(SgemmRows, ARowIsTheSameAloneAsInAnyTile) {
  // derived_maps.hpp recomputes rows of a score tile and promises the pass's values bit for
  // bit; the pass's tiles and the derived ones start at the same rows, but this holds anyway.
  const std::int64_t n = 2048, k = 64;
  const Mat a = Mat::Random(64, k), b = Mat::Random(k, n);
  Mat all(64, n), one(1, n), some(5, n);
  ASSERT_TRUE(mhaviz::detail::kernels::gemm(64, n, k, a.data(), k, b.data(), n, all.data(), n));
  for (const std::int64_t i : {0, 17, 63}) {
    ASSERT_TRUE(
        mhaviz::detail::kernels::gemm(1, n, k, a.data() + i * k, k, b.data(), n, one.data(), n));
    EXPECT_EQ(one.row(0), all.row(i)) << "row " << i;
  }
  ASSERT_TRUE(
      mhaviz::detail::kernels::gemm(5, n, k, a.data() + 40 * k, k, b.data(), n, some.data(), n));
  EXPECT_EQ(some, all.middleRows(40, 5));
}

TEST(HeadsDirect, SameBitsAsAllColumnsProjectedThenCopiedIntoTheHeads) {
  // forward.cpp projects small passes head by head (head_products.hpp) and larger ones over
  // all E columns copied into the heads: both must give the same q, k and v.
  using mhaviz::detail::kHeadsDirectExact;
  static_assert(kHeadsDirectExact<float> && kHeadsDirectExact<double>);
  mhaviz::detail::Dims d;
  d.N = 3, d.E = 64, d.H = 4, d.hd = 16;
  const std::int64_t len = 19, f = 40, block_rows = len + 2;  // rows past len: appended keys
  const Mat w = Mat::Random(d.E, f);
  const Eigen::RowVectorXf b = Eigen::RowVectorXf::Random(d.E);
  const auto wt = mhaviz::detail::transposed_padded(w);
  for (const bool seq_first : {false, true}) {
    const Mat x = Mat::Random(d.N * len, f);  // rows (len*N) when seq_first, else (N*len)
    const mhaviz::Tensor input = mhaviz::Tensor::from<float>(
        seq_first ? mhaviz::Shape{len, d.N, f} : mhaviz::Shape{d.N, len, f},
        std::vector<float>(x.data(), x.data() + x.size()));
    mhaviz::Tensor heads = mhaviz::Tensor::from<float>(
        {d.N, d.H, block_rows, d.hd},
        std::vector<float>(static_cast<std::size_t>(d.N * d.H * block_rows * d.hd), 7.0F));
    mhaviz::detail::heads_direct(input, wt, b, d, seq_first, len, heads, block_rows);
    Mat all(d.N * len, d.E);
    ASSERT_TRUE(mhaviz::detail::kernels::gemm(d.N * len, d.E, f, x.data(), f, wt.storage.data(),
                                              wt.storage.cols(), all.data(), d.E));
    all.rowwise() += b;
    const auto got = heads.data<float>();
    for (std::int64_t n = 0; n < d.N; ++n) {
      for (std::int64_t h = 0; h < d.H; ++h) {
        for (std::int64_t l = 0; l < block_rows; ++l) {
          const std::int64_t t = seq_first ? l * d.N + n : n * len + l;
          for (std::int64_t c = 0; c < d.hd; ++c) {
            const float g =
                got[static_cast<std::size_t>(((n * d.H + h) * block_rows + l) * d.hd + c)];
            if (l < len) {
              ASSERT_EQ(g, all(t, h * d.hd + c)) << "n " << n << " h " << h << " l " << l;
            } else {
              ASSERT_EQ(g, 7.0F) << "an appended key's row was written";
            }
          }
        }
      }
    }
  }
}

TEST(Transpose, OfABlockIntoABlock) {
  const Mat in = Mat::Random(70, 90);
  Mat out = Mat::Zero(80, 60);
  const std::int64_t rows = 50, cols = 65;  // in.block(3, 4, 50, 65) -> out.block(2, 5, 65, 50)
  mhaviz::detail::kernels::transpose(rows, cols, in.data() + 3 * 90 + 4, 90,
                                     out.data() + 2 * 60 + 5, 60);
  EXPECT_EQ(out.block(2, 5, cols, rows), in.block(3, 4, rows, cols).transpose());
  out.block(2, 5, cols, rows).setZero();
  EXPECT_EQ(out, Mat::Zero(80, 60)) << "elements outside the block were written";
}

}  // namespace
