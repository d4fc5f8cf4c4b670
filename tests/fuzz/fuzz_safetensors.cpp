// libFuzzer target: mhaviz::io::parse_safetensors on arbitrary bytes. What it accepts is written
// with write_safetensors and read back, which must give the same tensors.
#include <cstdint>

#include "fuzz_common.hpp"
#include "mhaviz/core/io/safetensors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const mhaviz::fuzz::ScratchFile file(".safetensors");
  mhaviz::fuzz::expect_round_trip(
      [&] {
        return mhaviz::io::parse_safetensors(mhaviz::fuzz::as_bytes(data, size),
                                             "fuzz.safetensors");
      },
      [](const mhaviz::io::TensorMap& m) { mhaviz::io::write_safetensors(file.path(), m); },
      [] { return mhaviz::io::read_safetensors(file.path()); });
  return 0;
}
