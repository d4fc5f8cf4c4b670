#include <gtest/gtest.h>

#include <cstdint>

#include "mhaviz/core/base/pages.hpp"
#include "mhaviz/core/base/tensor.hpp"

namespace mhaviz {
namespace {

TEST(Tensor, ShapeTextFollowsPython) {
  EXPECT_EQ(shape_str({}), "()");
  EXPECT_EQ(shape_str({5}), "(5,)");
  EXPECT_EQ(shape_str({2, 3}), "(2, 3)");
  EXPECT_EQ(numel({2, 3, 4}), 24);
  EXPECT_EQ(numel({}), 1);
  EXPECT_THROW((void)numel({-1, 2}), std::invalid_argument);
  EXPECT_THROW((void)numel({1LL << 40, 1LL << 40}), std::invalid_argument);
}

// A zero dimension empties a shape however large the other dimensions are (fuzz_npy found a
// .npy header whose product before the zero overflowed int64 and was refused as too large).
TEST(Tensor, AZeroDimensionMeansNoElementsWhateverTheOthers) {
  const Shape huge_but_empty = {10, 6329, 601010473, 333623, 0, 362};
  EXPECT_EQ(numel(huge_but_empty), 0);
  EXPECT_EQ(Tensor(ElemType::boolean, huge_but_empty).numel(), 0);
  EXPECT_THROW((void)numel(Shape{10, 6329, 601010473, 333623, 362}), std::invalid_argument);
}

TEST(Tensor, TypedAccessChecksTheElementType) {
  Tensor t(ElemType::f32, {2, 2});
  t.data<float>()[3] = 1.5F;
  EXPECT_DOUBLE_EQ(t.value(3), 1.5);
  EXPECT_THROW((void)t.data<double>(), std::logic_error);
  EXPECT_EQ(t.bytes().size(), 16U);
  EXPECT_EQ(t.size(-1), 2);
  EXPECT_THROW((void)t.size(2), std::out_of_range);
}

TEST(Tensor, ConvertsBetweenTypes) {
  const Tensor b = Tensor::from_bools({3}, {0, 7, 1});
  EXPECT_EQ(b.type(), ElemType::boolean);
  EXPECT_EQ(b.data<std::uint8_t>()[1], 1);
  const Tensor f = b.to(ElemType::f64);
  EXPECT_DOUBLE_EQ(f.data<double>()[1], 1.0);
  const Tensor back = Tensor::from<double>({2}, {0.0, -2.5}).to(ElemType::boolean);
  EXPECT_EQ(back.data<std::uint8_t>()[0], 0);
  EXPECT_EQ(back.data<std::uint8_t>()[1], 1);
  EXPECT_THROW((void)Tensor::from<float>({2, 2}, {1.0F}), std::invalid_argument);
  EXPECT_EQ(f.reshaped({1, 3}).shape(), (Shape{1, 3}));
  EXPECT_THROW((void)f.reshaped({2, 2}), std::invalid_argument);
}

TEST(Tensor, CopiesShareUntilWritten) {
  const Tensor a = Tensor::from<float>({2, 2}, {1.0F, 2.0F, 3.0F, 4.0F});
  Tensor b = a;
  const Tensor r = a.reshaped({4});
  EXPECT_TRUE(b.shares_storage_with(a));
  EXPECT_TRUE(r.shares_storage_with(a));
  b.data<float>()[0] = 9.0F;  // a write through a copy detaches it first
  EXPECT_FALSE(b.shares_storage_with(a));
  EXPECT_EQ(a.data<float>()[0], 1.0F);
  EXPECT_EQ(r.data<float>()[0], 1.0F);
  EXPECT_EQ(b.data<float>()[0], 9.0F);
}

}  // namespace
}  // namespace mhaviz

// Large page vectors live in blocks of their own, aligned for huge pages, and hold what is
// written to them through growth and copies; small ones come from the ordinary heap.
TEST(PageVector, LargeBlocksAreHugePageAlignedAndKeepTheirElements) {
  constexpr std::size_t kHuge = std::size_t{2} << 20U;
  mhaviz::PageVector<std::uint32_t> large(3 * (kHuge / sizeof(std::uint32_t)) + 7);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(large.data()) % kHuge, 0U);
  for (std::size_t i = 0; i < large.size(); ++i)
    large[i] = static_cast<std::uint32_t>(i * 2654435761U);
  large.resize(large.size() + kHuge);  // moved into a larger block
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(large.data()) % kHuge, 0U);
  const mhaviz::PageVector<std::uint32_t> copy = large;
  for (const std::size_t i : {std::size_t{0}, std::size_t{12345}, 3 * (kHuge / 4) + 6}) {
    EXPECT_EQ(copy[i], static_cast<std::uint32_t>(i * 2654435761U));
  }
  EXPECT_EQ(copy.back(), 0U);  // the elements added by resize are value-initialised
  mhaviz::PageVector<double> small = {1.5, 2.5};
  small.push_back(3.5);
  EXPECT_EQ(small, (mhaviz::PageVector<double>{1.5, 2.5, 3.5}));
}

// The window starts again with glibc's malloc asking for huge pages too, keeping whatever the
// user set in GLIBC_TUNABLES, and never overrides a choice about that tunable (nor loops: the
// program started again finds it named). The effect itself: tests/core/huge_pages_probe.cpp.
TEST(HugePages, TunablesAddHugetlbUnlessNamed) {
  EXPECT_EQ(mhaviz::tunables_with_huge_pages(nullptr), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(mhaviz::tunables_with_huge_pages(""), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(mhaviz::tunables_with_huge_pages("glibc.malloc.check=3"),
            "glibc.malloc.check=3:glibc.malloc.hugetlb=1");
  EXPECT_EQ(mhaviz::tunables_with_huge_pages("glibc.malloc.hugetlbx=2"),
            "glibc.malloc.hugetlbx=2:glibc.malloc.hugetlb=1");
  EXPECT_EQ(mhaviz::tunables_with_huge_pages("glibc.malloc.hugetlb=0"), std::nullopt);
  EXPECT_EQ(mhaviz::tunables_with_huge_pages("a=b:glibc.malloc.hugetlb=1:c=d"), std::nullopt);
  EXPECT_EQ(mhaviz::tunables_with_huge_pages("glibc.malloc.hugetlb"), std::nullopt);
}
