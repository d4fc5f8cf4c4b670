// libFuzzer target: mhaviz::io::parse_npy on arbitrary bytes. A parsed array is serialised and
// parsed again, which must give the same tensor.
#include <cstdint>

#include "fuzz_common.hpp"
#include "mhaviz/core/io/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mhaviz::fuzz::expect_parsed_or_rejected([&] {
    const mhaviz::Tensor t = mhaviz::io::parse_npy(mhaviz::fuzz::as_bytes(data, size), "fuzz.npy");
    const auto again = mhaviz::io::parse_npy(mhaviz::io::serialize_npy(t), "round trip");
    if (!mhaviz::fuzz::same(again, t)) __builtin_trap();
  });
  return 0;
}
