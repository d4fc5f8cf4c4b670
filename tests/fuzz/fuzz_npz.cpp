// libFuzzer target: mhaviz::io::parse_npz (libzip reading from memory) on arbitrary bytes. What
// it accepts is written with write_npz and read back, which must give the same tensors.
#include <cstdint>

#include "fuzz_common.hpp"
#include "mhaviz/core/io/npz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const mhaviz::fuzz::ScratchFile file(".npz");
  mhaviz::fuzz::expect_round_trip(
      [&] { return mhaviz::io::parse_npz(mhaviz::fuzz::as_bytes(data, size), "fuzz.npz"); },
      [](const mhaviz::io::TensorMap& m) { mhaviz::io::write_npz(file.path(), m); },
      [] { return mhaviz::io::read_npz(file.path()); });
  return 0;
}
