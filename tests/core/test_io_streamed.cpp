// Tensors made in pieces while the file is written (streamed_tensors.hpp, result_stream): the
// .npz (stored and deflated), .safetensors and .npy files hold what the whole tensors give,
// member by member, whatever the piece size; a piece that fails, pieces that do not add up and
// a write that fails give a clear error, keep the old file, leave no temporary file and do not
// hang.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <zip.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "gen_test_util.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/io/result_tensors.hpp"
#include "mhaviz/core/io/safetensors.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/plan/problem.hpp"
#include "test_util.hpp"

namespace fs = std::filesystem;
using mhaviz::Config;
using mhaviz::ElemType;
using mhaviz::ForwardResult;
using mhaviz::InvalidInput;
using mhaviz::Shape;
using mhaviz::Tensor;
using mhaviz::gen::MaskKind;
using mhaviz::gen::MaskShape;
using mhaviz::gen::PaddingKind;
using mhaviz::io::PiecedTensor;
using mhaviz::io::StreamedTensors;
using mhaviz::io::TensorMap;
using mhaviz::test::expect_invalid;
using mhaviz::test::same;

namespace {

using StreamedFiles = mhaviz::test::TempDirTest;

/// N = 2, L = 150 (several of the pass's query tiles), S = 70 (S' = 72 with the bias and zero
/// rows), a 3-D random mask and key padding, dropout in training mode.
ForwardResult busy_result(bool soft_cap) {
  Config c = mhaviz::test::small_config();
  c.tgt_len = 150;
  c.src_len = 70;
  c.add_bias_kv = true;
  c.add_zero_attn = true;
  c.dropout = 0.2;
  c.training = true;
  c.attn_mask_spec.kind = MaskKind::random;
  c.attn_mask_spec.shape = MaskShape::three_d;
  c.key_padding_spec.kind = PaddingKind::lengths;
  c.key_padding_spec.valid_lengths = {70, 41};
  if (soft_cap) c.attn_logit_softcapping = 0.5;
  const mhaviz::Problem p = mhaviz::make_problem(c, {});
  return mhaviz::forward(p.config, p.params, p.inputs);
}

/// CRC-32, sizes and method of every member, in the archive's order, by libzip.
std::vector<std::string> member_records(const fs::path& p) {
  int error = 0;
  zip_t* archive = zip_open(p.c_str(), ZIP_RDONLY, &error);
  if (archive == nullptr) {
    ADD_FAILURE() << p << ": libzip cannot open it (error " << error << ")";
    return {};
  }
  std::vector<std::string> out;
  for (zip_int64_t i = 0; i < zip_get_num_entries(archive, 0); ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    EXPECT_EQ(zip_stat_index(archive, static_cast<zip_uint64_t>(i), 0, &st), 0);
    out.push_back(std::string(st.name) + " crc " + std::to_string(st.crc) + " size " +
                  std::to_string(st.size) + " stored as " + std::to_string(st.comp_size) +
                  " method " + std::to_string(st.comp_method));
  }
  zip_discard(archive);
  return out;
}

/// Whole files in a folder (a temporary file left behind would show here).
std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// A pieced f32 tensor of `rows` x `cols` whose element k is k, in pieces of `piece_rows` rows;
/// `bad` runs on each piece index first (to throw, or to change the piece).
PiecedTensor counting(std::int64_t rows, std::int64_t cols, std::int64_t piece_rows,
                      std::function<void(std::int64_t, Tensor&)> bad = {}) {
  PiecedTensor t;
  t.type = ElemType::f32;
  t.shape = {rows, cols};
  t.pieces = (rows + piece_rows - 1) / piece_rows;
  t.piece = [=](std::int64_t k) {
    const std::int64_t r0 = k * piece_rows, n = std::min(piece_rows, rows - r0);
    Tensor piece = Tensor::uninitialized(ElemType::f32, {n, cols});
    auto v = piece.data<float>();
    for (std::int64_t i = 0; i < n * cols; ++i) v[i] = static_cast<float>(r0 * cols + i);
    if (bad) bad(k, piece);
    return piece;
  };
  return t;
}

Tensor counted(std::int64_t rows, std::int64_t cols) {
  Tensor t(ElemType::f32, {rows, cols});
  auto v = t.data<float>();
  for (std::int64_t i = 0; i < rows * cols; ++i) v[i] = static_cast<float>(i);
  return t;
}

}  // namespace

TEST_F(StreamedFiles, ResultFilesEqualTheWholeTensorsWhateverThePieceSize) {
  for (const bool soft_cap : {false, true}) {
    const ForwardResult r = busy_result(soft_cap);
    const TensorMap whole = mhaviz::io::result_tensors(r);
    ASSERT_EQ(whole.count("capped_scores"), soft_cap ? 1U : 0U);
    ASSERT_EQ(whole.count("weights_before_dropout"), 1U) << "dropout applied";
    const fs::path npz = dir_ / "whole.npz", npzc = dir_ / "whole_c.npz";
    const fs::path st = dir_ / "whole.safetensors";
    mhaviz::io::write_npz(npz, whole, false);
    mhaviz::io::write_npz(npzc, whole, true);
    mhaviz::io::write_safetensors(st, whole);
    const Shape map_shape{r.N, r.H, r.L, r.Sx};
    // 7 rows (150 = 21 x 7 + 3), 100 rows (64 + 64 + 22 by the pass's tiles), one row,
    // and the default (a whole head per piece here).
    const std::size_t row_bytes = static_cast<std::size_t>(r.Sx) * 4;
    for (const std::size_t piece_bytes :
         {7 * row_bytes, 100 * row_bytes, row_bytes - 1, std::size_t{1} << 20}) {
      SCOPED_TRACE("soft cap " + std::to_string(soft_cap) + ", piece bytes " +
                   std::to_string(piece_bytes));
      const StreamedTensors streamed = mhaviz::io::result_stream(r, piece_bytes);
      ASSERT_EQ(streamed.size(), whole.size());
      for (const char* name : {"raw_scores", "mask", "scores"}) {
        ASSERT_TRUE(std::holds_alternative<PiecedTensor>(streamed.at(name))) << name;
        EXPECT_EQ(mhaviz::io::shape_of(streamed.at(name)), map_shape) << name;
      }
      mhaviz::io::write_tensor_file_streamed(dir_ / "s.npz", streamed);
      mhaviz::io::write_tensor_file_streamed(dir_ / "c.npz", streamed, true);
      mhaviz::io::write_tensor_file_streamed(dir_ / "s.safetensors", streamed);
      EXPECT_TRUE(same(mhaviz::io::read_npz(dir_ / "s.npz"), whole));
      EXPECT_TRUE(same(mhaviz::io::read_npz(dir_ / "c.npz"), whole));
      EXPECT_TRUE(same(mhaviz::io::read_safetensors(dir_ / "s.safetensors"), whole));
      // The same archives: every member's CRC-32, sizes and method; the same safetensors bytes.
      EXPECT_EQ(member_records(dir_ / "s.npz"), member_records(npz));
      EXPECT_EQ(member_records(dir_ / "c.npz"), member_records(npzc));
      EXPECT_EQ(fs::file_size(dir_ / "s.npz"), fs::file_size(npz));
      EXPECT_EQ(mhaviz::io::read_file_bytes(dir_ / "s.safetensors"),
                mhaviz::io::read_file_bytes(st));
    }
  }
}

TEST_F(StreamedFiles, NpyOfAPiecedTensorJoinsItsPieces) {
  StreamedTensors one;
  one.emplace("t", counting(10, 3, 4));
  mhaviz::io::write_tensor_file_streamed(dir_ / "t.npy", one);
  EXPECT_TRUE(same(mhaviz::io::read_tensor_file(dir_ / "t.npy").at("t"), counted(10, 3)));
}

TEST_F(StreamedFiles, PiecesAreMadeInOrderOnAnotherThread) {
  // The writer takes the pieces from a thread of their own, which makes them in order.
  std::atomic<int> made{0};
  std::atomic<bool> other_thread{true};
  const auto writer = std::this_thread::get_id();
  StreamedTensors m;
  m.emplace("t", counting(64, 5, 1, [&](std::int64_t k, Tensor&) {
              EXPECT_EQ(k, made.load());
              ++made;
              if (std::this_thread::get_id() == writer) other_thread = false;
            }));
  for (const char* name : {"t.npz", "t.safetensors"}) {
    made = 0;
    mhaviz::io::write_tensor_file_streamed(dir_ / name, m);
    EXPECT_EQ(made.load(), 64) << name;
    EXPECT_TRUE(other_thread.load()) << name;
    EXPECT_TRUE(same(mhaviz::io::read_tensor_file(dir_ / name).at("t"), counted(64, 5))) << name;
  }
}

TEST_F(StreamedFiles, AFailingPieceIsReportedAndKeepsTheOldFile) {
  for (const char* name : {"kept.npz", "kept.safetensors"}) {
    SCOPED_TRACE(name);
    const fs::path p = dir_ / name;
    TensorMap old;
    old.emplace("old", counted(2, 2));
    mhaviz::io::write_tensor_file(p, old);
    const auto before = mhaviz::io::read_file_bytes(p);
    StreamedTensors m;
    m.emplace("a_held", counted(3, 3));
    // Thrown at piece 37 of 100 (of 8 KiB each: libzip has read several by then).
    m.emplace("b_pieced", counting(200, 1024, 2, [](std::int64_t k, Tensor&) {
                if (k == 37) throw InvalidInput("the derived map cannot be made (test)");
              }));
    m.emplace("c_held", counted(4, 4));
    for (const bool compress : {false, true}) {
      expect_invalid([&] { mhaviz::io::write_tensor_file_streamed(p, m, compress); },
                     {p.string(), "cannot be made (test)"});
      EXPECT_EQ(mhaviz::io::read_file_bytes(p), before);
      EXPECT_EQ(files_in(dir_), std::vector<std::string>{name});
    }
    fs::remove(p);
  }
}

TEST_F(StreamedFiles, PiecesThatDoNotAddUpAreRefused) {
  const auto short_last = [](std::int64_t k, Tensor& piece) {
    if (k == 2) piece = Tensor(ElemType::f32, {1, 3});  // 1 row where 2 are due
  };
  const auto long_last = [](std::int64_t k, Tensor& piece) {
    if (k == 2) piece = Tensor(ElemType::f32, {5, 3});
  };
  const auto wrong_type = [](std::int64_t k, Tensor& piece) {
    if (k == 1) piece = Tensor(ElemType::f64, {4, 3});
  };
  const std::vector<std::pair<std::function<void(std::int64_t, Tensor&)>, std::string>> cases = {
      {short_last, "pieces hold 108 bytes of the tensor's 120"},
      {long_last, "piece 2 of 3 is past the end"},
      {wrong_type, "piece 1 of 3 is not of the tensor's element type"}};
  for (const auto& [bad, message] : cases) {
    StreamedTensors m;
    m.emplace("t", counting(10, 3, 4, bad));
    for (const char* name : {"t.npz", "t.safetensors", "t.npy"}) {
      expect_invalid([&] { mhaviz::io::write_tensor_file_streamed(dir_ / name, m); },
                     {"\"t\"", message, "a bug in mhaviz"});
    }
    EXPECT_TRUE(files_in(dir_).empty());
  }
}

TEST_F(StreamedFiles, UnwritablePathIsReportedWithoutMakingPieces) {
  std::atomic<int> made{0};
  StreamedTensors m;
  m.emplace("t", counting(64, 64, 1, [&](std::int64_t, Tensor&) { ++made; }));
  mhaviz::io::write_file_atomic(dir_ / "file", std::vector<std::byte>(3));
  for (const char* name : {"r.npz", "r.safetensors"}) {
    const fs::path p = dir_ / "file" / name;  // a folder that is a file
    expect_invalid([&] { mhaviz::io::write_tensor_file_streamed(p, m); },
                   {p.string(), "cannot create"});
  }
  EXPECT_EQ(made.load(), 0);
  EXPECT_EQ(files_in(dir_), std::vector<std::string>{"file"});
}

TEST_F(StreamedFiles, AWriteThatFailsMidWayStopsTheProducer) {
  // A file size limit makes the writes past 1 MiB fail (EFBIG) while pieces are still being
  // made: the error names the file and the reason, the producer is stopped (no hang), the old
  // file is kept and no temporary file is left.
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  for (const char* name : {"kept.npz", "kept.safetensors"}) {
    SCOPED_TRACE(name);
    const fs::path p = dir_ / name;
    TensorMap small;
    small.emplace("old", counted(2, 2));
    mhaviz::io::write_tensor_file(p, small);
    const auto before = mhaviz::io::read_file_bytes(p);
    StreamedTensors m;
    m.emplace("big", counting(1024, 2048, 16));  // 8 MiB in 128 KiB pieces
    rlimit limited = old;
    limited.rlim_cur = 1 << 20;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limited), 0);
    std::string message;
    try {
      mhaviz::io::write_tensor_file_streamed(p, m);
    } catch (const InvalidInput& e) {
      message = e.what();
    }
    setrlimit(RLIMIT_FSIZE, &old);
    EXPECT_NE(message.find(p.string()), std::string::npos) << message;
    EXPECT_NE(message.find("too large"), std::string::npos) << message;
    EXPECT_EQ(mhaviz::io::read_file_bytes(p), before);
    EXPECT_EQ(files_in(dir_), std::vector<std::string>{name});
    fs::remove(p);
  }
  std::signal(SIGXFSZ, old_handler);
}
