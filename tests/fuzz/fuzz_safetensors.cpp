// libFuzzer target: mhaviz::io::parse_safetensors on arbitrary bytes.
#include <cstdint>

#include "fuzz_common.hpp"
#include "mhaviz/core/io/safetensors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mhaviz::fuzz::expect_parsed_or_rejected([&] {
    (void)mhaviz::io::parse_safetensors(mhaviz::fuzz::as_bytes(data, size), "fuzz.safetensors");
  });
  return 0;
}
