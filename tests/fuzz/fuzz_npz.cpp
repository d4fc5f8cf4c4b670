// libFuzzer target: mhaviz::io::parse_npz (libzip reading from memory) on arbitrary bytes.
#include <cstdint>

#include "fuzz_common.hpp"
#include "mhaviz/core/io/npz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mhaviz::fuzz::expect_parsed_or_rejected(
      [&] { (void)mhaviz::io::parse_npz(mhaviz::fuzz::as_bytes(data, size), "fuzz.npz"); });
  return 0;
}
