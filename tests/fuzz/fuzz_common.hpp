#pragma once
// Shared by the libFuzzer targets: the one exception type a parser may throw for bad input.
//
// Every target calls a core function on attacker-controlled bytes. mhaviz::InvalidInput is
// the answer to bad input (the user sees its message); anything else escaping — another
// exception type, a crash, a sanitizer report, an allocation over -malloc_limit_mb — is a
// finding. An uncaught exception aborts, which libFuzzer reports as a crash with the input.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "mhaviz/core/errors.hpp"

namespace mhaviz::fuzz {

inline std::span<const std::byte> as_bytes(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const std::byte*>(data), size};
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Runs `parse`, accepting InvalidInput (with a non-empty message naming the source) as the
/// answer to bad input.
template <typename F>
void expect_parsed_or_rejected(F&& parse) {
  try {
    parse();
  } catch (const InvalidInput& e) {
    // A message must say something: an empty one would reach the user as a blank dialog.
    if (std::string_view(e.what()).empty()) __builtin_trap();
  }
}

}  // namespace mhaviz::fuzz
