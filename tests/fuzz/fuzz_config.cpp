// libFuzzer target: mhaviz::io::parse_config_json on arbitrary text. A parsed configuration is
// written with config_to_json and parsed again, which must give an equal Config (the
// documented round trip), and validate_config must answer it with InvalidInput or accept it.
#include <cstdint>

#include "fuzz_common.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "mhaviz/core/spec/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mhaviz::fuzz::expect_parsed_or_rejected([&] {
    const mhaviz::Config config =
        mhaviz::io::parse_config_json(mhaviz::fuzz::as_text(data, size), "fuzz.json");
    const std::string text = mhaviz::io::config_to_json(config);
    mhaviz::Config again;
    try {
      again = mhaviz::io::parse_config_json(text, "round trip");
    } catch (const mhaviz::InvalidInput&) {
      __builtin_trap();  // config_to_json wrote something parse_config_json rejects
    }
    // NaN never compares equal; only compare when the text is the same after a second trip.
    if (!(again == config) && mhaviz::io::config_to_json(again) != text) __builtin_trap();
    mhaviz::validate_config(config);
  });
  return 0;
}
