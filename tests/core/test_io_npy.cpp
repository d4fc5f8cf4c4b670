// .npy reading and writing: numpy-made fixtures, round trips, malformed files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/npy.hpp"
#include "mhaviz/core/io/npy_header.hpp"
#include "test_util.hpp"

namespace fs = std::filesystem;
using mhaviz::ElemType;
using mhaviz::InvalidInput;
using mhaviz::Shape;
using mhaviz::Tensor;

using mhaviz::test::expect_invalid;

namespace {

fs::path fixture(const std::string& name) { return fs::path(MHAVIZ_FIXTURE_DIR) / "io" / name; }

/// A fresh directory per test, removed afterwards.
using NpyFiles = mhaviz::test::TempDirTest;

/// Runs `fn`, expects InvalidInput, and checks that each of `parts` occurs in its message.
std::vector<std::byte> fixture_bytes(const std::string& name) {
  return mhaviz::io::read_file_bytes(fixture(name));
}

std::vector<std::byte> with_text_replaced(std::vector<std::byte> bytes, const std::string& from,
                                          const std::string& to) {
  std::string s(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  s.replace(at, from.size(), to);
  std::vector<std::byte> out(s.size());
  std::memcpy(out.data(), s.data(), s.size());
  return out;
}

/// f4.npy with another shape in its header; the header keeps its length (padding absorbs it).
std::vector<std::byte> f4_with_shape(const std::string& shape) {
  const std::string old_shape = "(2, 3)";
  const std::string from = old_shape + ", }" + std::string(shape.size() - old_shape.size(), ' ');
  return with_text_replaced(fixture_bytes("f4.npy"), from, shape + ", }");
}

}  // namespace

TEST(NpyRead, Float32FromNumpy) {
  const Tensor t = mhaviz::io::read_npy(fixture("f4.npy"));
  EXPECT_EQ(t.type(), ElemType::f32);
  EXPECT_EQ(t.shape(), (Shape{2, 3}));
  for (std::int64_t i = 0; i < 6; ++i) EXPECT_EQ(t.value(i), static_cast<double>(i) * 0.5 - 1.0);
}

TEST(NpyRead, Float64FromNumpyAllVersions) {
  for (const char* name : {"f8.npy", "f8_v2.npy", "f8_v3.npy"}) {
    SCOPED_TRACE(name);
    const Tensor t = mhaviz::io::read_npy(fixture(name));
    EXPECT_EQ(t.type(), ElemType::f64);
    EXPECT_EQ(t.shape(), (Shape{2, 3, 4}));
    for (std::int64_t i = 0; i < 24; ++i) EXPECT_EQ(t.value(i), static_cast<double>(i) / 7.0);
  }
}

TEST(NpyRead, BoolAndUint8FromNumpy) {
  const Tensor b = mhaviz::io::read_npy(fixture("b1.npy"));
  EXPECT_EQ(b.type(), ElemType::boolean);
  EXPECT_EQ(b.shape(), (Shape{3, 4}));
  for (std::int64_t i = 0; i < 12; ++i) EXPECT_EQ(b.value(i), i % 3 == 0 ? 1.0 : 0.0);

  const Tensor u = mhaviz::io::read_npy(fixture("u1.npy"));
  EXPECT_EQ(u.type(), ElemType::u8);
  EXPECT_EQ(u.shape(), (Shape{5}));
  const std::vector<std::uint8_t> expected = {0, 1, 127, 128, 255};
  const auto data = u.data<std::uint8_t>();
  EXPECT_EQ(std::vector<std::uint8_t>(data.begin(), data.end()), expected);
}

TEST(NpyRead, ScalarAndEmpty) {
  const Tensor s = mhaviz::io::read_npy(fixture("scalar_f8.npy"));
  EXPECT_EQ(s.shape(), Shape{});
  EXPECT_EQ(s.value(0), 3.25);
  const Tensor e = mhaviz::io::read_npy(fixture("empty_f4.npy"));
  EXPECT_EQ(e.shape(), (Shape{0, 3}));
  EXPECT_EQ(e.numel(), 0);
}

TEST(NpyRead, FortranOrderBecomesCOrder) {
  // numpy stored np.asfortranarray(np.arange(24).reshape(2, 3, 4)): element (i, j, k) must
  // read back as i*12 + j*4 + k at C-order flat index i*12 + j*4 + k.
  const Tensor t = mhaviz::io::read_npy(fixture("fortran_f4.npy"));
  EXPECT_EQ(t.shape(), (Shape{2, 3, 4}));
  for (std::int64_t i = 0; i < 24; ++i) EXPECT_EQ(t.value(i), static_cast<double>(i));
  const Tensor t2 = mhaviz::io::read_npy(fixture("fortran_f8.npy"));
  EXPECT_EQ(t2.shape(), (Shape{2, 3}));
  for (std::int64_t i = 0; i < 6; ++i) EXPECT_EQ(t2.value(i), static_cast<double>(i));
}

TEST_F(NpyFiles, RoundTripEveryDtype) {
  const std::vector<Tensor> tensors = {
      Tensor::from<float>({2, 2}, {1.5F, -0.0F, 3.4028235e38F, 1e-45F}),
      Tensor::from<double>({3}, {0.1, -1e300, 4.9e-324}),
      Tensor::from_bools({2, 1, 2}, {1, 0, 0, 1}),
      Tensor::from<std::uint8_t>({4}, {0, 9, 200, 255}),
      Tensor::from<double>({}, {42.0}),
      Tensor(ElemType::f32, {0, 5}),
  };
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    SCOPED_TRACE(i);
    const fs::path p = dir_ / ("t" + std::to_string(i) + ".npy");
    mhaviz::io::write_npy(p, tensors[i]);
    const Tensor back = mhaviz::io::read_npy(p);
    EXPECT_EQ(back.type(), tensors[i].type());
    EXPECT_EQ(back.shape(), tensors[i].shape());
    const auto a = back.bytes();
    const auto b = tensors[i].bytes();
    EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end()));
  }
}

TEST(NpyWrite, MatchesNumpyBytesExactly) {
  // Our writer produces the very bytes np.save produced for the same arrays.
  for (const char* name : {"f4.npy", "f8.npy", "b1.npy", "u1.npy", "scalar_f8.npy"}) {
    SCOPED_TRACE(name);
    const auto original = fixture_bytes(name);
    const auto ours = mhaviz::io::serialize_npy(mhaviz::io::read_npy(fixture(name)));
    EXPECT_EQ(ours, original);
  }
}

TEST_F(NpyFiles, WriteReplacesAtomicallyAndLeavesNoTemporaryFile) {
  const fs::path p = dir_ / "x.npy";
  mhaviz::io::write_npy(p, Tensor::from<float>({1}, {1.0F}));
  mhaviz::io::write_npy(p, Tensor::from<float>({2}, {2.0F, 3.0F}));
  EXPECT_EQ(mhaviz::io::read_npy(p).shape(), (Shape{2}));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
  expect_invalid([&] { mhaviz::io::write_npy(dir_ / "missing-dir" / "y.npy", Tensor()); },
                 {"y.npy", "cannot create"});
}

TEST(NpyErrors, MissingFile) {
  expect_invalid([] { mhaviz::io::read_npy(fixture("nope.npy")); }, {"nope.npy", "file not found"});
}

TEST(NpyErrors, UnsupportedDtypesFromNumpy) {
  expect_invalid([] { mhaviz::io::read_npy(fixture("i8.npy")); },
                 {"i8.npy", "unsupported dtype '<i8'", "'<f4' (float32)", "astype"});
  expect_invalid([] { mhaviz::io::read_npy(fixture("be_f4.npy")); },
                 {"be_f4.npy", "unsupported dtype '>f4'", "big-endian"});
}

TEST(NpyErrors, BadMagic) {
  auto bytes = fixture_bytes("f4.npy");
  bytes[1] = std::byte{'X'};
  expect_invalid([&] { mhaviz::io::parse_npy(bytes, "bad.npy"); }, {"bad.npy", "not a .npy file"});
  expect_invalid([] { mhaviz::io::parse_npy({}, "empty.npy"); }, {"empty.npy", "not a .npy file"});
}

TEST(NpyErrors, UnknownVersion) {
  auto bytes = fixture_bytes("f4.npy");
  bytes[6] = std::byte{4};
  expect_invalid([&] { mhaviz::io::parse_npy(bytes, "v4.npy"); },
                 {"v4.npy", "unsupported .npy format version 4.0"});
}

TEST(NpyErrors, TruncatedEverywhere) {
  const auto bytes = fixture_bytes("f4.npy");
  // Every prefix of a valid file is an error, never a crash or an allocation.
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    SCOPED_TRACE(n);
    const std::span<const std::byte> prefix(bytes.data(), n);
    EXPECT_THROW(mhaviz::io::parse_npy(prefix, "cut.npy"), InvalidInput);
  }
  const std::span<const std::byte> cut(bytes.data(), bytes.size() - 4);
  expect_invalid([&] { mhaviz::io::parse_npy(cut, "cut.npy"); },
                 {"cut.npy", "truncated", "(2, 3) float32 = 24 bytes", "only 20 bytes"});
}

TEST(NpyErrors, LyingHeaderLength) {
  auto bytes = fixture_bytes("f4.npy");
  bytes[8] = std::byte{0xFF};
  bytes[9] = std::byte{0xFF};
  expect_invalid([&] { mhaviz::io::parse_npy(bytes, "liar.npy"); },
                 {"liar.npy", "header claims 65535 bytes"});
}

TEST(NpyErrors, ShapeLargerThanData) {
  // A header declaring 10^12 elements must be refused by arithmetic, not by allocating.
  expect_invalid([] { mhaviz::io::parse_npy(f4_with_shape("(1000000, 1000000)"), "big.npy"); },
                 {"big.npy", "truncated", "(1000000, 1000000)", "only 24 bytes"});
  expect_invalid(
      [] { mhaviz::io::parse_npy(f4_with_shape("(99999999999999999, 999999)"), "overflow.npy"); },
      {"overflow.npy", "impossibly large"});
}

TEST(NpyErrors, DataLongerThanShape) {
  auto bytes = fixture_bytes("f4.npy");
  bytes.resize(bytes.size() + 8);
  expect_invalid([&] { mhaviz::io::parse_npy(bytes, "long.npy"); },
                 {"long.npy", "corrupt", "32 bytes follow"});
}

TEST(NpyHeader, ParsesNumpyVariants) {
  using mhaviz::io::parse_npy_header;
  const auto h = parse_npy_header("{'descr': '|b1', 'fortran_order': True, 'shape': (5,), }", "x");
  EXPECT_EQ(h.descr, "|b1");
  EXPECT_TRUE(h.fortran_order);
  EXPECT_EQ(h.shape, (Shape{5}));
  const auto h2 = parse_npy_header(
      "{\"shape\": (3L, 4L), \"descr\": \"<f8\", \"fortran_order\": False}\n", "x");
  EXPECT_EQ(h2.shape, (Shape{3, 4}));
  expect_invalid([] { parse_npy_header("{'descr': '<f4', 'fortran_order': False}", "h.npy"); },
                 {"h.npy", "missing key 'shape'"});
  expect_invalid(
      [] { parse_npy_header("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}", "h.npy"); },
      {"h.npy", "negative dimension"});
  expect_invalid(
      [] {
        parse_npy_header("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': ()}", "h.npy");
      },
      {"h.npy", "structured"});
  expect_invalid([] { parse_npy_header("{'descr': '<f4', 'fortran_order': 0, 'shape': ()}", "h"); },
                 {"expected True or False"});
}

TEST(NpyErrors, RandomCorruptionGivesInvalidInputOrAValidTensor) {
  // Deterministic byte flips anywhere in real numpy files: the reader either returns a tensor
  // (a flipped data byte is still a valid file) or throws InvalidInput naming the file, nothing
  // else. A returned tensor is written and read back unchanged; when only data bytes changed,
  // it has the original's type and shape, and (C order, floats) exactly the file's data bytes.
  int returned = 0, refused = 0;
  std::uint32_t state = 12345;
  const auto next = [&state] {
    state = state * 1664525U + 1013904223U;
    return state >> 8;
  };
  for (const char* name : {"f4.npy", "fortran_f4.npy", "f8_v2.npy", "b1.npy"}) {
    const auto original = fixture_bytes(name);
    const Tensor clean = mhaviz::io::parse_npy(original, name);
    const std::size_t data_start = original.size() - clean.bytes().size();
    const bool raw_data = std::string(name) == "f4.npy" || std::string(name) == "f8_v2.npy";
    for (int trial = 0; trial < 300; ++trial) {
      auto bytes = original;
      const int flips = 1 + static_cast<int>(next() % 4);
      std::size_t first = bytes.size();
      for (int f = 0; f < flips; ++f) {
        // Mostly the preamble and header, where the sizes live.
        const std::size_t limit =
            next() % 4 == 0 ? bytes.size() : std::min<std::size_t>(bytes.size(), 128);
        const std::size_t at = next() % limit;
        bytes[at] = static_cast<std::byte>(next() & 0xFF);
        first = std::min(first, at);
      }
      const bool data_only = first >= data_start;
      const bool ok = mhaviz::test::returned_or_refused(
          [&] { return mhaviz::io::parse_npy(bytes, name); },
          [&](const Tensor& t) {
            EXPECT_TRUE(mhaviz::test::same(
                mhaviz::io::parse_npy(mhaviz::io::serialize_npy(t), "again.npy"), t))
                << name << " trial " << trial;
            if (!data_only) return;
            EXPECT_EQ(t.type(), clean.type()) << name << " trial " << trial;
            EXPECT_EQ(t.shape(), clean.shape()) << name << " trial " << trial;
            if (raw_data) {
              const auto got = t.bytes();
              EXPECT_TRUE(
                  std::equal(got.begin(), got.end(), bytes.begin() + data_start, bytes.end()))
                  << name << " trial " << trial;
            }
          },
          name);
      EXPECT_TRUE(ok || !data_only) << name << " trial " << trial << ": only data bytes changed";
      ++(ok ? returned : refused);
    }
  }
  // Both outcomes occurred: the flips reach the header and the data.
  EXPECT_GT(returned, 0);
  EXPECT_GT(refused, 0);
  RecordProperty("returned", returned);
  RecordProperty("refused", refused);
}
