// .npz reading and writing: np.savez / np.savez_compressed fixtures, round trips, bad archives.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zip.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/npz.hpp"
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

using NpzFiles = mhaviz::test::TempDirTest;

using mhaviz::test::same;

void expect_numpy_contents(const TensorMap& m) {
  ASSERT_EQ(m.size(), 4U);
  const Tensor& q = m.at("query");
  EXPECT_EQ(q.type(), ElemType::f32);
  EXPECT_EQ(q.shape(), (Shape{2, 3}));
  for (std::int64_t i = 0; i < 6; ++i) EXPECT_EQ(q.value(i), static_cast<double>(i) * 0.5 - 1.0);
  const Tensor& w = m.at("out_proj.weight");
  EXPECT_EQ(w.type(), ElemType::f64);
  EXPECT_EQ(w.shape(), (Shape{2, 3, 4}));
  for (std::int64_t i = 0; i < 24; ++i) EXPECT_EQ(w.value(i), static_cast<double>(i) / 7.0);
  const Tensor& mask = m.at("attn_mask");
  EXPECT_EQ(mask.type(), ElemType::boolean);
  for (std::int64_t i = 0; i < 12; ++i) EXPECT_EQ(mask.value(i), i % 3 == 0 ? 1.0 : 0.0);
  const Tensor& ids = m.at("ids");
  EXPECT_EQ(ids.type(), ElemType::u8);
  EXPECT_EQ(ids.value(4), 255.0);
}

/// The zip compression method of every member, read from the central directory by libzip.
std::vector<std::int32_t> member_methods(const fs::path& p) {
  int error = 0;
  zip_t* archive = zip_open(p.c_str(), ZIP_RDONLY, &error);
  if (archive == nullptr) {
    ADD_FAILURE() << p << ": libzip cannot open it (error " << error << ")";
    return {};
  }
  std::vector<std::int32_t> methods;
  for (zip_int64_t i = 0; i < zip_get_num_entries(archive, 0); ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    EXPECT_EQ(zip_stat_index(archive, static_cast<zip_uint64_t>(i), 0, &st), 0);
    methods.push_back(st.comp_method);
  }
  zip_discard(archive);
  return methods;
}

TensorMap sample() {
  TensorMap m;
  m.emplace("query", Tensor::from<float>({2, 1, 2}, {1.0F, -2.5F, 3.25F, 1e-30F}));
  m.emplace("out_proj.weight", Tensor::from<double>({2, 2}, {0.1, 0.2, -0.3, 1e300}));
  m.emplace("attn_mask", Tensor::from_bools({2, 2}, {0, 1, 1, 0}));
  m.emplace("ids", Tensor::from<std::uint8_t>({3}, {0, 128, 255}));
  m.emplace("scalar", Tensor::from<double>({}, {7.0}));
  return m;
}

}  // namespace

TEST(NpzRead, StoredFromNumpy) {
  expect_numpy_contents(mhaviz::io::read_npz(fixture("stored.npz")));
}

TEST(NpzRead, CompressedFromNumpy) {
  expect_numpy_contents(mhaviz::io::read_npz(fixture("compressed.npz")));
}

TEST_F(NpzFiles, RoundTripStoredAndCompressed) {
  const TensorMap m = sample();
  for (const bool compressed : {false, true}) {
    SCOPED_TRACE(compressed);
    const fs::path p = dir_ / (compressed ? "c.npz" : "s.npz");
    mhaviz::io::write_npz(p, m, compressed);
    EXPECT_EQ(member_methods(p),
              std::vector<std::int32_t>(m.size(), compressed ? ZIP_CM_DEFLATE : ZIP_CM_STORE));
    const TensorMap back = mhaviz::io::read_npz(p);
    ASSERT_EQ(back.size(), m.size());
    for (const auto& [name, t] : m) EXPECT_TRUE(same(back.at(name), t)) << name;
  }
  // A big, regular tensor actually shrinks when compressed.
  TensorMap zeros;
  zeros.emplace("z", Tensor(ElemType::f64, {64, 64}));
  mhaviz::io::write_npz(dir_ / "zs.npz", zeros, false);
  mhaviz::io::write_npz(dir_ / "zc.npz", zeros, true);
  EXPECT_LT(fs::file_size(dir_ / "zc.npz") * 10, fs::file_size(dir_ / "zs.npz"));
  EXPECT_TRUE(same(mhaviz::io::read_npz(dir_ / "zc.npz").at("z"), zeros.at("z")));
}

TEST_F(NpzFiles, TensorFileStoresLikeSavezUnlessCompressed) {
  // write_tensor_file, as mhaviz-cli run uses it (the round trips are tested above).
  const std::size_t count = sample().size();
  mhaviz::io::write_tensor_file(dir_ / "s.npz", sample());
  mhaviz::io::write_tensor_file(dir_ / "c.npz", sample(), true);
  EXPECT_EQ(member_methods(dir_ / "s.npz"), std::vector<std::int32_t>(count, ZIP_CM_STORE));
  EXPECT_EQ(member_methods(dir_ / "c.npz"), std::vector<std::int32_t>(count, ZIP_CM_DEFLATE));
}

TEST_F(NpzFiles, EmptyArchiveRoundTrips) {
  mhaviz::io::write_npz(dir_ / "e.npz", {});
  EXPECT_TRUE(mhaviz::io::read_npz(dir_ / "e.npz").empty());
}

TEST_F(NpzFiles, OverwriteLeavesNoTemporaryFile) {
  const fs::path p = dir_ / "t.npz";
  mhaviz::io::write_npz(p, sample());
  TensorMap one;
  one.emplace("only", Tensor::from<float>({1}, {5.0F}));
  mhaviz::io::write_npz(p, one);
  EXPECT_EQ(mhaviz::io::read_npz(p).size(), 1U);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST(NpzErrors, UnsupportedMemberDtypeNamesMember) {
  expect_invalid([] { mhaviz::io::read_npz(fixture("bad_dtype.npz")); },
                 {"bad_dtype.npz", "\"key\"", "unsupported dtype '<i8'"});
}

TEST(NpzErrors, MemberHeaderClaimsMoreThanItHolds) {
  expect_invalid([] { mhaviz::io::read_npz(fixture("lying_member.npz")); },
                 {"lying_member.npz", "\"query\"", "truncated", "(200, 3)", "only 24 bytes"});
}

TEST(NpzErrors, HugeDeclaredMemberSizeRefusedBeforeReading) {
  expect_invalid([] { mhaviz::io::read_npz(fixture("huge_member.npz")); },
                 {"huge_member.npz", "\"query\"", "4294967040 bytes"});
}

TEST(NpzErrors, NotAZip) {
  expect_invalid([] { mhaviz::io::read_npz(fixture("f4.npy")); },
                 {"f4.npy", "not a valid .npz (zip) file"});
}

TEST_F(NpzFiles, TruncatedArchive) {
  auto bytes = mhaviz::io::read_file_bytes(fixture("compressed.npz"));
  for (const std::size_t keep : {bytes.size() / 2, bytes.size() - 30, std::size_t{10}}) {
    SCOPED_TRACE(keep);
    const fs::path p = dir_ / "cut.npz";
    mhaviz::io::write_file_atomic(p, std::span<const std::byte>(bytes.data(), keep));
    expect_invalid([&] { mhaviz::io::read_npz(p); }, {"cut.npz"});
  }
}

TEST_F(NpzFiles, CorruptDeflateDataIsAnError) {
  auto bytes = mhaviz::io::read_file_bytes(fixture("compressed.npz"));
  // Flip bytes inside the first member's deflate stream (after its 30-byte local header and
  // 9-byte name "query.npy"): the CRC or the inflater must catch it.
  for (std::size_t i = 45; i < 60; ++i) bytes[i] ^= std::byte{0x5A};
  const fs::path p = dir_ / "flipped.npz";
  mhaviz::io::write_file_atomic(p, bytes);
  expect_invalid([&] { mhaviz::io::read_npz(p); }, {"flipped.npz"});
}

TEST(NpzErrors, MissingFile) {
  expect_invalid([] { mhaviz::io::read_npz(fixture("absent.npz")); }, {"absent.npz", "not found"});
}

TEST_F(NpzFiles, RandomCorruptionGivesInvalidInputOrTensors) {
  std::uint32_t state = 99;
  const auto next = [&state] {
    state = state * 1664525U + 1013904223U;
    return state >> 8;
  };
  // The reader returns tensors or throws InvalidInput naming the file; what it returns is
  // written and read back unchanged.
  const fs::path p = dir_ / "fuzz.npz";
  int returned = 0, refused = 0;
  for (const char* name : {"stored.npz", "compressed.npz"}) {
    const auto original = mhaviz::io::read_file_bytes(fixture(name));
    for (int trial = 0; trial < 150; ++trial) {
      auto bytes = original;
      const int flips = 1 + static_cast<int>(next() % 3);
      for (int f = 0; f < flips; ++f) {
        bytes[next() % bytes.size()] = static_cast<std::byte>(next() & 0xFF);
      }
      mhaviz::io::write_file_atomic(p, bytes);
      const bool ok = mhaviz::test::returned_or_refused(
          [&] { return mhaviz::io::read_npz(p); },
          [&](const TensorMap& m) {
            mhaviz::io::write_npz(dir_ / "again.npz", m);
            EXPECT_TRUE(same(mhaviz::io::read_npz(dir_ / "again.npz"), m))
                << name << " trial " << trial;
          },
          "fuzz.npz");
      ++(ok ? returned : refused);
    }
  }
  EXPECT_GT(returned, 0);
  EXPECT_GT(refused, 0);
  RecordProperty("returned", returned);
  RecordProperty("refused", refused);
}

TEST_F(NpzFiles, FailedWriteLeavesTheOldFileAndNoTemporary) {
  const fs::path p = dir_ / "kept.npz";
  TensorMap first;
  first.emplace("a", Tensor(ElemType::f32, Shape{2, 3}));
  mhaviz::io::write_npz(p, first);
  const auto before = mhaviz::io::read_file_bytes(p);
  // A writer that fails half-way: the temporary it wrote to is removed, the file untouched.
  EXPECT_THROW(mhaviz::io::replace_file_atomic(p,
                                               [](const fs::path& tmp) {
                                                 mhaviz::io::write_file_atomic(
                                                     tmp, std::vector<std::byte>(7));
                                                 throw InvalidInput("disk full");
                                               }),
               InvalidInput);
  EXPECT_EQ(mhaviz::io::read_file_bytes(p), before);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 1);
}

TEST_F(NpzFiles, LargeStoredArchiveRoundTrips) {
  // 64 MiB of float32, stored: the writer streams each member from the tensor itself.
  TensorMap big;
  Tensor t(ElemType::f32, Shape{4096, 4096});
  auto data = t.data<float>();
  for (std::size_t i = 0; i < data.size(); i += 4099) data[i] = static_cast<float>(i);
  big.emplace("weights", t);
  const fs::path p = dir_ / "big.npz";
  mhaviz::io::write_npz(p, big, false);
  const TensorMap back = mhaviz::io::read_npz(p);
  ASSERT_EQ(back.count("weights"), 1U);
  EXPECT_EQ(back.at("weights").shape(), (Shape{4096, 4096}));
  const auto got = back.at("weights").data<float>();
  for (std::size_t i = 0; i < got.size(); i += 4099) ASSERT_EQ(got[i], static_cast<float>(i));
}

TEST_F(NpzFiles, MembersOverAMiBAreReadStraightIntoTheirTensors) {
  // A member's first MiB (the .npy header and the data's start) is read apart from the rest,
  // which goes straight into the tensor: every value on both sides of the seam, stored and
  // deflated, beside a small member and a bool one (read whole, then parsed).
  Tensor t(ElemType::f32, Shape{3, 500, 700});
  auto data = t.data<float>();
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i % 65521) * 0.5F;
  Tensor flags(ElemType::boolean, Shape{2, 3});
  flags.data<std::uint8_t>()[4] = 1;
  TensorMap m;
  m.emplace("big", t);
  m.emplace("small", Tensor::from({2}, std::vector<float>{1.0F, -2.0F}));
  m.emplace("flags", flags);
  for (const bool compressed : {false, true}) {
    SCOPED_TRACE(compressed);
    const fs::path p = dir_ / (compressed ? "c.npz" : "s.npz");
    mhaviz::io::write_npz(p, m, compressed);
    const TensorMap back = mhaviz::io::read_npz(p);
    ASSERT_EQ(back.size(), m.size());
    for (const auto& [name, want] : m) EXPECT_TRUE(same(back.at(name), want)) << name;
  }
}

TEST_F(NpzFiles, ChangedStoredByteFailsTheCrcCheck) {
  // libzip takes each member's CRC-32 as it writes; reading checks it, so a byte changed on
  // disk in a stored member is found.
  TensorMap m;
  Tensor t(ElemType::f32, Shape{64, 64});
  auto data = t.data<float>();
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i);
  m.emplace("t", t);
  const fs::path p = dir_ / "s.npz";
  mhaviz::io::write_npz(p, m, false);
  std::vector<std::byte> bytes = mhaviz::io::read_file_bytes(p);
  const auto tensor_bytes = t.bytes();
  const auto at = std::search(bytes.begin(), bytes.end(), tensor_bytes.begin(), tensor_bytes.end());
  ASSERT_NE(at, bytes.end());
  at[1000] ^= std::byte{1};
  mhaviz::io::write_file_atomic(p, bytes);
  expect_invalid([&] { mhaviz::io::read_npz(p); }, {"\"t\"", "CRC"});
}

TEST_F(NpzFiles, WriteErrorIsReportedAndLeavesTheOldFile) {
  // A file size limit makes the writes past 1 MiB fail (EFBIG) in the sink's writer thread:
  // write_npz throws, naming the file and the reason, keeps the old file and removes the
  // temporary one.
  const fs::path p = dir_ / "kept.npz";
  mhaviz::io::write_npz(p, sample(), false);
  const auto before = mhaviz::io::read_file_bytes(p);
  TensorMap big;
  big.emplace("big", Tensor(ElemType::f32, Shape{1024, 1024}));
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old;
  small.rlim_cur = 1 << 20;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string message;
  try {
    mhaviz::io::write_npz(p, big, false);
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
