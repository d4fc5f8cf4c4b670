#pragma once
// Shared by the libFuzzer targets: the one exception type a parser may throw for bad input.
//
// Every target calls a core function on attacker-controlled bytes. mhaviz::InvalidInput is
// the answer to bad input (the user sees its message); anything else escaping — another
// exception type, a crash, a sanitizer report, an allocation over -malloc_limit_mb — is a
// finding. An uncaught exception aborts, which libFuzzer reports as a crash with the input.

#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/base/tensor_map.hpp"

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

/// Same element type, shape and bytes.
inline bool same(const Tensor& a, const Tensor& b) {
  const auto x = a.bytes();
  const auto y = b.bytes();
  return a.type() == b.type() && a.shape() == b.shape() &&
         std::equal(x.begin(), x.end(), y.begin(), y.end());
}

/// The same names, each with the same tensor.
inline bool same(const io::TensorMap& a, const io::TensorMap& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.first == y.first && same(x.second, y.second);
  });
}

/// A file of this process in the temporary folder, for write -> read round trips (the writers
/// of npz and safetensors write files); removed when the process exits normally.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& suffix)
      : path_(std::filesystem::temp_directory_path() /
              ("mhaviz-fuzz-" + std::to_string(::getpid()) + suffix)) {}
  ~ScratchFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

/// Parses `data` with `parse` (InvalidInput is the answer to bad input, as in
/// expect_parsed_or_rejected); what it accepted must survive `write` then `read` unchanged.
/// Any exception from the round trip escapes, and libFuzzer reports it with the input.
template <typename Parse, typename Write, typename Read>
void expect_round_trip(Parse&& parse, Write&& write, Read&& read) {
  std::optional<io::TensorMap> parsed;
  expect_parsed_or_rejected([&] { parsed.emplace(parse()); });
  if (!parsed) return;
  write(*parsed);
  if (!same(read(), *parsed)) __builtin_trap();
}

}  // namespace mhaviz::fuzz
