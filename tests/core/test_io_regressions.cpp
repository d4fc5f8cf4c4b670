// Hostile and malformed files found by fuzzing (tests/fuzz) or review, kept in
// tests/fixtures/io/regressions/: each must be answered with InvalidInput naming the problem,
// never a crash or another exception. Also: the from-memory parsers agree with the file readers.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/io/safetensors.hpp"
#include "mhaviz/core/plan/memory.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "test_util.hpp"

namespace fs = std::filesystem;
using mhaviz::InvalidInput;
using mhaviz::io::TensorMap;

using mhaviz::test::expect_invalid;

namespace {

fs::path fixture(const std::string& name) { return fs::path(MHAVIZ_FIXTURE_DIR) / "io" / name; }
fs::path regression(const std::string& name) { return fixture("regressions/" + name); }

/// Runs fn; passes when it throws InvalidInput whose message holds every part. Any other
/// exception escapes and fails the test.
std::vector<std::byte> bytes_of(const std::string& text) {
  std::vector<std::byte> out(text.size());
  if (!text.empty()) std::memcpy(out.data(), text.data(), text.size());
  return out;
}

/// A safetensors file: 8-byte little-endian header length, the header, then `data_bytes` zeros.
std::vector<std::byte> safetensors_with_header(const std::string& header, std::size_t data_bytes) {
  std::vector<std::byte> out;
  const std::uint64_t n = header.size();
  for (std::size_t i = 0; i < 8; ++i) out.push_back(static_cast<std::byte>((n >> (8 * i)) & 0xFF));
  const auto h = bytes_of(header);
  out.insert(out.end(), h.begin(), h.end());
  out.resize(out.size() + data_bytes, std::byte{0});
  return out;
}

void expect_same(const TensorMap& a, const TensorMap& b) {
  ASSERT_EQ(a.size(), b.size());
  for (const auto& [name, t] : a) {
    ASSERT_EQ(b.count(name), 1U) << name;
    const auto& u = b.at(name);
    EXPECT_EQ(t.type(), u.type()) << name;
    EXPECT_EQ(t.shape(), u.shape()) << name;
    ASSERT_EQ(t.bytes().size(), u.bytes().size()) << name;
    EXPECT_EQ(std::memcmp(t.bytes().data(), u.bytes().data(), t.bytes().size()), 0) << name;
  }
}

// fuzz_config: a number beyond double's range made nlohmann throw json::out_of_range (406),
// which parse_config_json did not catch (it caught only parse_error): the program aborted.
TEST(IoRegressions, ConfigNumberBeyondDoubleIsInvalidInput) {
  expect_invalid(
      [] { (void)mhaviz::io::read_config_file(regression("config_number_overflow.json")); },
      {"config_number_overflow.json", "number out of range", "1e400"});
  expect_invalid([] { (void)mhaviz::io::parse_config_json(R"({"dropout": -2e308})", "c.json"); },
                 {"c.json: JSON number out of range", "-2e308"});
}

// fuzz_safetensors: the same json::out_of_range escaped read_safetensors' header parse.
TEST(IoRegressions, SafetensorsHeaderNumberBeyondDoubleIsInvalidInput) {
  expect_invalid(
      [] {
        (void)mhaviz::io::read_safetensors(regression("safetensors_number_overflow.safetensors"));
      },
      {"safetensors_number_overflow.safetensors", "header is not valid JSON", "221e400"});
}

// Review: a shape dimension that is a deeply nested array was dumped into the message by the
// recursive json::dump(), overflowing the stack. Built in memory: the file would be 600 KB.
TEST(IoRegressions, SafetensorsDeeplyNestedShapeIsInvalidInput) {
  constexpr std::size_t kDepth = 300'000;
  const std::string header = R"({"a":{"dtype":"F32","shape":[)" + std::string(kDepth, '[') +
                             std::string(kDepth, ']') + R"(],"data_offsets":[0,0]}})";
  const auto file = safetensors_with_header(header, 0);
  expect_invalid([&] { (void)mhaviz::io::parse_safetensors(file, "deep.safetensors"); },
                 {"deep.safetensors: \"a\"", "must be a non-negative integer, got an array"});
}

TEST(IoRegressions, SafetensorsLongStringIsShortenedInTheMessage) {
  const std::string header = R"({"a":{"dtype":"F32","shape":[")" + std::string(10000, 'x') +
                             R"("],"data_offsets":[0,4]}})";
  const auto file = safetensors_with_header(header, 4);
  try {
    (void)mhaviz::io::parse_safetensors(file, "long.safetensors");
    ADD_FAILURE() << "no InvalidInput thrown";
  } catch (const InvalidInput& e) {
    EXPECT_LT(std::string(e.what()).size(), 300U) << e.what();
  }
}

// Review (the fuzz_pipeline oracle): embed_dim = 2^62 passes validate_config, and every
// product in the memory estimate wrapped around 2^64 to (nearly) 0, so check_memory accepted
// it and make_problem went on to build (3E, E) parameters. The estimate now saturates.
TEST(IoRegressions, MemoryEstimateOfHugeSizesDoesNotWrap) {
  const mhaviz::Config config = mhaviz::io::read_config_file(regression("config_sizes_wrap.json"));
  EXPECT_NO_THROW(mhaviz::validate_config(config));
  EXPECT_EQ(mhaviz::estimate_memory(config), ~std::uint64_t{0});
  EXPECT_EQ(mhaviz::estimate_result_bytes(config), ~std::uint64_t{0});
  expect_invalid([&] { mhaviz::check_memory(config); },
                 {"this configuration needs", "the limit is"});
  mhaviz::Config wide;
  wide.tgt_len = std::int64_t{1} << 40;
  wide.src_len = std::int64_t{1} << 40;
  expect_invalid([&] { mhaviz::check_memory(wide, std::uint64_t{1} << 62); }, {"needs"});
}

// parse_npz / parse_safetensors (from memory) give exactly what the file readers give.
TEST(IoRegressions, FromMemoryParsersMatchFileReaders) {
  for (const char* name : {"stored.npz", "compressed.npz"}) {
    const auto bytes = mhaviz::io::read_file_bytes(fixture(name));
    expect_same(mhaviz::io::parse_npz(bytes, name), mhaviz::io::read_npz(fixture(name)));
  }
  const auto bytes = mhaviz::io::read_file_bytes(fixture("tensors.safetensors"));
  expect_same(mhaviz::io::parse_safetensors(bytes, "tensors.safetensors"),
              mhaviz::io::read_safetensors(fixture("tensors.safetensors")));
  expect_invalid([&] { (void)mhaviz::io::parse_npz(bytes, "mem.npz"); },
                 {"mem.npz: not a valid .npz (zip) file"});
  expect_invalid([&] { (void)mhaviz::io::parse_safetensors(bytes_of("12345"), "mem.safetensors"); },
                 {"mem.safetensors: truncated safetensors file: 5 bytes"});
}

}  // namespace
