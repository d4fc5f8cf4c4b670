// --max-memory sizes.

#include <gtest/gtest.h>

#include "cli/memory_arg.hpp"

namespace mhaviz::cli {
namespace {

TEST(ParseByteSize, UnitsAndPlainBytes) {
  EXPECT_EQ(parseByteSize("123"), 123U);
  EXPECT_EQ(parseByteSize("1KiB"), 1024U);
  EXPECT_EQ(parseByteSize("512MiB"), 512ULL << 20);
  EXPECT_EQ(parseByteSize("8GiB"), 8ULL << 30);
  EXPECT_EQ(parseByteSize("4 gib"), 4ULL << 30);
  EXPECT_EQ(parseByteSize("2G"), 2ULL << 30);
  EXPECT_EQ(parseByteSize("1.5GiB"), 3ULL << 29);
  EXPECT_EQ(parseByteSize("2GB"), 2000000000U);
  EXPECT_EQ(parseByteSize("1e6"), 1000000U);
  EXPECT_EQ(parseByteSize("1TiB"), 1ULL << 40);
}

TEST(ParseByteSize, RejectsMalformedZeroAndHuge) {
  for (const char* bad : {"", "lots", "-1", "0", "0.1", "4 XB", "1GiBs", "1e30", "20000000TB"}) {
    EXPECT_FALSE(parseByteSize(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace mhaviz::cli
