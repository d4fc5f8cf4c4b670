// .safetensors reading and writing, and reading/writing by file extension.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/safetensors.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "test_util.hpp"

namespace fs = std::filesystem;
using mhaviz::ElemType;
using mhaviz::InvalidInput;
using mhaviz::Shape;
using mhaviz::Tensor;
using mhaviz::io::TensorMap;

using mhaviz::test::expect_invalid;

namespace {

fs::path fixture(const std::string& name) { return fs::path(MHAVIZ_FIXTURE_DIR) / "io" / name; }

class SafetensorsFiles : public mhaviz::test::TempDirTest {
 protected:
  /// Writes an 8-byte length, `header` padded to a multiple of 8, and `data` bytes.
  fs::path write_raw(const std::string& name, std::string header, std::size_t data_bytes,
                     std::uint64_t declared_len = 0) {
    header.append((8 - header.size() % 8) % 8, ' ');
    const std::uint64_t n = declared_len != 0 ? declared_len : header.size();
    std::vector<std::byte> out;
    for (std::size_t i = 0; i < 8; ++i)
      out.push_back(static_cast<std::byte>((n >> (8 * i)) & 0xFF));
    for (const char c : header) out.push_back(static_cast<std::byte>(c));
    out.resize(out.size() + data_bytes, std::byte{0});
    const fs::path p = dir_ / name;
    mhaviz::io::write_file_atomic(p, out);
    return p;
  }
};

using mhaviz::test::same;

TensorMap sample() {
  TensorMap m;
  m.emplace("in_proj_weight", Tensor::from<float>({3, 1}, {1.0F, -2.5F, 3.25F}));
  m.emplace("out_proj.bias", Tensor::from<double>({2}, {0.1, -1e-300}));
  m.emplace("attn_mask", Tensor::from_bools({1, 3}, {0, 1, 1}));
  m.emplace("ids", Tensor::from<std::uint8_t>({2, 2}, {0, 1, 254, 255}));
  m.emplace("empty", Tensor(ElemType::f32, {0}));
  return m;
}

}  // namespace

TEST(SafetensorsRead, HandWrittenPerSpec) {
  const TensorMap m = mhaviz::io::read_safetensors(fixture("tensors.safetensors"));
  ASSERT_EQ(m.size(), 4U);  // __metadata__ is not a tensor
  const Tensor& w = m.at("in_proj_weight");
  EXPECT_EQ(w.type(), ElemType::f32);
  EXPECT_EQ(w.shape(), (Shape{2, 3}));
  for (std::int64_t i = 0; i < 6; ++i) EXPECT_EQ(w.value(i), static_cast<double>(i) * 0.5 - 1.0);
  const Tensor& b = m.at("out_proj.bias");
  EXPECT_EQ(b.type(), ElemType::f64);
  EXPECT_EQ(b.shape(), (Shape{2, 3, 4}));
  for (std::int64_t i = 0; i < 24; ++i) EXPECT_EQ(b.value(i), static_cast<double>(i) / 7.0);
  const Tensor& mask = m.at("attn_mask");
  EXPECT_EQ(mask.type(), ElemType::boolean);
  for (std::int64_t i = 0; i < 12; ++i) EXPECT_EQ(mask.value(i), i % 3 == 0 ? 1.0 : 0.0);
  EXPECT_EQ(m.at("ids").type(), ElemType::u8);
  EXPECT_EQ(m.at("ids").value(3), 128.0);
}

TEST_F(SafetensorsFiles, RoundTripEveryDtypeWithAlignedHeader) {
  const fs::path p = dir_ / "m.safetensors";
  mhaviz::io::write_safetensors(p, sample());
  const auto bytes = mhaviz::io::read_file_bytes(p);
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < 8; ++i) n |= std::to_integer<std::uint64_t>(bytes[i]) << (8 * i);
  EXPECT_EQ(n % 8, 0U);
  EXPECT_EQ(static_cast<char>(bytes[8]), '{');
  const TensorMap back = mhaviz::io::read_safetensors(p);
  ASSERT_EQ(back.size(), sample().size());
  for (const auto& [name, t] : sample()) EXPECT_TRUE(same(back.at(name), t)) << name;
}

TEST_F(SafetensorsFiles, StreamedWriteIsHeaderThenEachTensorsBytesInNameOrder) {
  // A tensor larger than any stream buffer, between small ones and an empty one.
  TensorMap m = sample();
  Tensor big(ElemType::f64, {1024, 513});
  auto values = big.data<double>();
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i) * 0.25 - 7.0;
  m.emplace("big", big);
  const fs::path p = dir_ / "s.safetensors";
  mhaviz::io::write_safetensors(p, m);
  const auto bytes = mhaviz::io::read_file_bytes(p);
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < 8; ++i) n |= std::to_integer<std::uint64_t>(bytes[i]) << (8 * i);
  std::vector<std::byte> expected_data;
  for (const auto& [name, t] : m) {
    expected_data.insert(expected_data.end(), t.bytes().begin(), t.bytes().end());
  }
  ASSERT_EQ(bytes.size(), 8 + n + expected_data.size());
  EXPECT_TRUE(std::equal(expected_data.begin(), expected_data.end(),
                         bytes.begin() + static_cast<std::ptrdiff_t>(8 + n)));
  const TensorMap back = mhaviz::io::read_safetensors(p);
  ASSERT_EQ(back.size(), m.size());
  for (const auto& [name, t] : m) EXPECT_TRUE(same(back.at(name), t)) << name;
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 1)
      << "no temporary file is left";
}

TEST(SafetensorsErrors, OverlappingOffsets) {
  expect_invalid([] { mhaviz::io::read_safetensors(fixture("overlap.safetensors")); },
                 {"overlap.safetensors", "\"b\"", "overlap", "\"a\""});
}

TEST(SafetensorsErrors, UnsupportedDtype) {
  expect_invalid([] { mhaviz::io::read_safetensors(fixture("f16.safetensors")); },
                 {"f16.safetensors", "\"w\"", "unsupported dtype F16", "F32, F64, BOOL, U8"});
}

TEST_F(SafetensorsFiles, Truncated) {
  const auto bytes = mhaviz::io::read_file_bytes(fixture("tensors.safetensors"));
  const fs::path p = dir_ / "cut.safetensors";
  mhaviz::io::write_file_atomic(p, std::span<const std::byte>(bytes.data(), bytes.size() - 1));
  expect_invalid([&] { mhaviz::io::read_safetensors(p); },
                 {"cut.safetensors", "\"ids\"", "run past the end"});
  mhaviz::io::write_file_atomic(p, std::span<const std::byte>(bytes.data(), 5));
  expect_invalid([&] { mhaviz::io::read_safetensors(p); }, {"cut.safetensors", "too short"});
  mhaviz::io::write_file_atomic(p, std::span<const std::byte>(bytes.data(), 100));
  expect_invalid([&] { mhaviz::io::read_safetensors(p); },
                 {"cut.safetensors", "header length 304 exceeds the 92 bytes"});
}

TEST_F(SafetensorsFiles, HugeDeclaredHeaderAndShape) {
  const fs::path p1 = write_raw("hdr.safetensors", "{}", 0, 1ULL << 62);
  expect_invalid([&] { mhaviz::io::read_safetensors(p1); },
                 {"hdr.safetensors", "header length 4611686018427387904 exceeds"});
  const fs::path p2 =
      write_raw("shape.safetensors",
                R"({"x":{"dtype":"F64","shape":[100000,100000,100000],"data_offsets":[0,8]}})", 8);
  expect_invalid([&] { mhaviz::io::read_safetensors(p2); },
                 {"shape.safetensors", "\"x\"", "span 8 bytes", "(100000, 100000, 100000)"});
  const fs::path p3 =
      write_raw("overflow.safetensors",
                R"({"x":{"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,8]}})", 8);
  expect_invalid([&] { mhaviz::io::read_safetensors(p3); }, {"\"x\"", "impossibly large"});
}

TEST_F(SafetensorsFiles, MalformedHeaders) {
  expect_invalid([&] { mhaviz::io::read_safetensors(write_raw("a.safetensors", "{nope", 0)); },
                 {"a.safetensors", "not valid JSON"});
  expect_invalid([&] { mhaviz::io::read_safetensors(write_raw("b.safetensors", "[1]", 0)); },
                 {"b.safetensors", "must be a JSON object"});
  expect_invalid(
      [&] {
        mhaviz::io::read_safetensors(
            write_raw("c.safetensors", R"({"x":{"dtype":"F32","shape":[1]}})", 4));
      },
      {"c.safetensors", "\"x\"", "no \"data_offsets\""});
  expect_invalid(
      [&] {
        mhaviz::io::read_safetensors(write_raw(
            "d.safetensors", R"({"x":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", 4));
      },
      {"\"x\"", "non-negative integer"});
  expect_invalid(
      [&] {
        mhaviz::io::read_safetensors(write_raw(
            "e.safetensors", R"({"x":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", 8));
      },
      {"e.safetensors", "bytes 0 to 4", "belong to no tensor"});
  expect_invalid(
      [&] {
        mhaviz::io::read_safetensors(write_raw(
            "f.safetensors", R"({"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", 12));
      },
      {"f.safetensors", "8 bytes after the last tensor"});
}

TEST_F(SafetensorsFiles, TensorFileDispatchesOnExtension) {
  const TensorMap m = sample();
  for (const char* name : {"t.npz", "t.safetensors", "T.SAFETENSORS"}) {
    SCOPED_TRACE(name);
    mhaviz::io::write_tensor_file(dir_ / name, m);
    const TensorMap back = mhaviz::io::read_tensor_file(dir_ / name);
    ASSERT_EQ(back.size(), m.size());
    for (const auto& [key, t] : m) EXPECT_TRUE(same(back.at(key), t)) << key;
  }
  TensorMap one;
  one.emplace("ignored", Tensor::from<float>({2}, {1.0F, 2.0F}));
  mhaviz::io::write_tensor_file(dir_ / "query.npy", one);
  const TensorMap q = mhaviz::io::read_tensor_file(dir_ / "query.npy");
  ASSERT_EQ(q.count("query"), 1U);
  EXPECT_TRUE(same(q.at("query"), one.at("ignored")));
  expect_invalid([&] { mhaviz::io::write_tensor_file(dir_ / "two.npy", m); },
                 {"two.npy", "exactly one tensor"});
  expect_invalid([&] { mhaviz::io::read_tensor_file(dir_ / "w.pt"); },
                 {"w.pt", "unknown tensor file type \".pt\"", ".npz, .safetensors or .npy"});
  expect_invalid([&] { mhaviz::io::read_tensor_file(dir_ / "noext"); }, {"(no extension)"});
}

TEST_F(SafetensorsFiles, RandomCorruptionGivesInvalidInputOrTensors) {
  const auto original = mhaviz::io::read_file_bytes(fixture("tensors.safetensors"));
  std::uint32_t state = 777;
  const auto next = [&state] {
    state = state * 1664525U + 1013904223U;
    return state >> 8;
  };
  const fs::path p = dir_ / "fuzz.safetensors";
  int returned = 0, refused = 0;
  for (int trial = 0; trial < 300; ++trial) {
    auto bytes = original;
    const int flips = 1 + static_cast<int>(next() % 3);
    for (int f = 0; f < flips; ++f) {
      // Mostly the length field and the JSON header, where the sizes and offsets live.
      const std::size_t limit = next() % 4 == 0 ? bytes.size() : 8 + 304;
      const std::size_t at = next() % limit;
      bytes[at] = at < 8 || next() % 2 == 0 ? static_cast<std::byte>(next() & 0xFF)
                                            : static_cast<std::byte>('0' + next() % 10);
    }
    mhaviz::io::write_file_atomic(p, bytes);
    // Tensors or InvalidInput naming the file; tensors are written and read back unchanged.
    const bool ok = mhaviz::test::returned_or_refused(
        [&] { return mhaviz::io::read_safetensors(p); },
        [&](const TensorMap& m) {
          mhaviz::io::write_safetensors(dir_ / "again.safetensors", m);
          EXPECT_TRUE(same(mhaviz::io::read_safetensors(dir_ / "again.safetensors"), m))
              << "trial " << trial;
        },
        "fuzz.safetensors");
    ++(ok ? returned : refused);
  }
  EXPECT_GT(returned, 0);
  EXPECT_GT(refused, 0);
  RecordProperty("returned", returned);
  RecordProperty("refused", refused);
}

TEST_F(SafetensorsFiles, WriteErrorIsReportedAndLeavesTheOldFile) {
  // A file size limit makes the writes past 1 MiB fail (EFBIG) in the writer thread of
  // write_parts_atomic: the error names the file and the reason, the old file stays and the
  // temporary one is removed.
  const fs::path p = dir_ / "kept.safetensors";
  TensorMap small_map;
  small_map.emplace("a", Tensor(ElemType::f32, Shape{2, 3}));
  mhaviz::io::write_safetensors(p, small_map);
  const auto before = mhaviz::io::read_file_bytes(p);
  TensorMap big;
  big.emplace("big", Tensor(ElemType::f32, Shape{1024, 1024}));
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit limited = old;
  limited.rlim_cur = 1 << 20;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limited), 0);
  std::string message;
  try {
    mhaviz::io::write_safetensors(p, big);
  } catch (const InvalidInput& e) {
    message = e.what();
  }
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_NE(message.find(p.string()), std::string::npos) << message;
  EXPECT_NE(message.find("too large"), std::string::npos) << message;
  EXPECT_EQ(mhaviz::io::read_file_bytes(p), before);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 1);
}
