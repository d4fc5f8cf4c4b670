// mhaviz-cli run --head / --queries / --batch: the part written equals the same slice of a full
// run's weights_per_head, and a configuration too large for a full run is refused with a
// message naming these options.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "cli_process.hpp"
#include "mhaviz/core/io/npz.hpp"

namespace mhaviz::cli::test {
namespace {

/// weights_per_head[n, h0:h0+heads, a:b, :] of a full run against a part.
void expectSlice(const Tensor& full, const Tensor& part, std::int64_t n, std::int64_t h0,
                 std::int64_t a) {
  const std::int64_t H = full.size(1), L = full.size(2), Sx = full.size(3);
  const std::int64_t heads = part.size(1), rows = part.size(2);
  ASSERT_EQ(part.size(0), 1);
  ASSERT_EQ(part.size(3), Sx);
  for (std::int64_t h = 0; h < heads; ++h) {
    for (std::int64_t i = 0; i < rows; ++i) {
      for (std::int64_t j = 0; j < Sx; ++j) {
        const double want = full.value(((n * H + h0 + h) * L + a + i) * Sx + j);
        const double got = part.value((h * rows + i) * Sx + j);
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(got));
        } else {
          ASSERT_NEAR(got, want, 1e-6) << "head " << h0 + h << " query " << a + i << " key " << j;
        }
      }
    }
  }
}

TEST(RunPart, HeadAndQueriesEqualTheSliceOfAFullRun) {
  const ScratchDir dir;
  std::ofstream(dir.file("c.json")) << R"({"embed_dim": 16, "num_heads": 4, "batch_size": 2,
      "tgt_len": 90, "src_len": 70, "add_bias_kv": true, "attn_mask": {"kind": "causal"},
      "key_padding_mask": {"kind": "lengths", "valid_lengths": [70, 41]}})";
  ProcessResult r = runCli({"run", "--config", dir.file("c.json"), "--out", dir.file("full.npz")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Tensor full = io::read_npz(dir.file("full.npz")).at("weights_per_head");

  r = runCli({"run", "--config", dir.file("c.json"), "--head", "2", "--queries", "30:77", "--batch",
              "1", "--out", dir.file("part.npz")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "wrote weights_per_head[1, 2, 30:77, :] (1, 1, 47, 71) to " +
                       dir.file("part.npz") + "\n");
  io::TensorMap part = io::read_npz(dir.file("part.npz"));
  EXPECT_EQ(part.size(), 1U);
  expectSlice(full, part.at("weights_per_head"), 1, 2, 30);

  // --queries alone: every head; --head alone: every query.
  r = runCli(
      {"run", "--config", dir.file("c.json"), "--queries", "0:5", "--out", dir.file("q.npz")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectSlice(full, io::read_npz(dir.file("q.npz")).at("weights_per_head"), 0, 0, 0);
  r = runCli({"run", "--config", dir.file("c.json"), "--head", "3", "--out", dir.file("h.npz")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectSlice(full, io::read_npz(dir.file("h.npz")).at("weights_per_head"), 0, 3, 0);
}

TEST(RunPart, TooLargeForAFullRunNamesTheOptions) {
  const ScratchDir dir;
  std::ofstream(dir.file("c.json")) << R"({"embed_dim": 512, "num_heads": 8, "tgt_len": 32768,
      "src_len": 32768, "attn_mask": {"kind": "causal"}})";
  ProcessResult r = runCli({"run", "--config", dir.file("c.json"), "--out", dir.file("r.npz")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("this configuration needs 105 GiB; the limit is 4.0 GiB"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--head H and/or --queries A:B"), std::string::npos) << r.err;
  // A part too large for the limit says how many query rows fit (checked before computing).
  r = runCli(
      {"run", "--config", dir.file("c.json"), "--queries", "0:30000", "--out", dir.file("r.npz")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("Ask for at most 3669 query rows (e.g. --queries 0:3669)"),
            std::string::npos)
      << r.err;
}

TEST(ExportReduced, MapsOverTheLimitAreDrawnReduced) {
  const ScratchDir dir;
  std::ofstream(dir.file("c.json")) << R"({"embed_dim": 16, "num_heads": 2, "tgt_len": 2000,
      "src_len": 2000, "attn_mask": {"kind": "causal"}})";
  // Every map needs 124 MiB: over a 64 MiB limit, so the picture is folded 4x4 cells a value.
  ProcessResult r = runCli({"export", "--config", dir.file("c.json"), "--max-memory", "64MiB",
                            "--image", dir.file("a.png")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out,
            "wrote " + dir.file("a.png") +
                " (reduced: block mean of 4x4 cells; every map at full size needs 124 MiB)\n");
  EXPECT_TRUE(std::ifstream(dir.file("a.png")).good());
  r = runCli({"export", "--config", dir.file("c.json"), "--max-memory", "64MiB", "--reduce", "max",
              "--heads", "1", "--image", dir.file("b.png")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("reduced: block max of 4x4 cells"), std::string::npos) << r.out;
  // Within the limit the same configuration is drawn in full, as before.
  r = runCli({"export", "--config", dir.file("c.json"), "--image", dir.file("c.png")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "wrote " + dir.file("c.png") + "\n");
}

}  // namespace
}  // namespace mhaviz::cli::test
