// mhaviz-cli compare: the difference file equals the difference of two `run`s, keys line up by
// meaning, the picture is written, and mismatches and usage errors say why.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "cli_process.hpp"
#include "mhaviz/core/io/npz.hpp"

namespace mhaviz::cli::test {
namespace {

class Compare : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ofstream(dir.file("a.json")) << R"({"embed_dim": 8, "num_heads": 2, "tgt_len": 4,
        "src_len": 5, "batch_size": 2, "seed": 4, "add_bias_kv": true})";
    std::ofstream(dir.file("b.json")) << R"({"embed_dim": 8, "num_heads": 2, "tgt_len": 4,
        "src_len": 5, "batch_size": 2, "seed": 4, "add_zero_attn": true,
        "attn_mask": {"kind": "causal"}})";
  }
  io::TensorMap run(const std::string& config) {
    const ProcessResult r =
        runCli({"run", "--config", dir.file(config), "--out", dir.file(config + ".npz")});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return io::read_npz(dir.file(config + ".npz"));
  }
  ScratchDir dir;
};

// B - A of one (n, h, i, j) cell of tensors shaped (N, H, L, cols), -inf - -inf counting 0.
double expectedDiff(const Tensor& a, const Tensor& b, std::int64_t flatA, std::int64_t flatB) {
  const double x = a.value(flatA), y = b.value(flatB);
  return x == y ? 0.0 : y - x;
}

TEST_F(Compare, DifferenceFileIsTheDifferenceOfTwoRunsLinedUpByKey) {
  const io::TensorMap a = run("a.json");
  const io::TensorMap b = run("b.json");
  const ProcessResult r = runCli({"compare", "--config", dir.file("a.json"), "--config-b",
                                  dir.file("b.json"), "--out", dir.file("d.npz")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("bias_k key is only in A"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("zero key (add_zero_attn) is only in B"), std::string::npos) << r.err;
  const io::TensorMap d = io::read_npz(dir.file("d.npz"));
  // Key-indexed stages: A has S+1 columns (bias_k last), B has S+1 (zero last); the
  // difference keeps the S source keys, column j of A against column j of B.
  for (const char* name : {"weights_per_head", "scores", "raw_scores", "mask"}) {
    SCOPED_TRACE(name);
    const Tensor& ta = a.at(name);
    const Tensor& tb = b.at(name);
    const Tensor& td = d.at(name);
    ASSERT_EQ(td.shape(), (Shape{2, 2, 4, 5}));
    for (std::int64_t row = 0; row < 2 * 2 * 4; ++row) {
      for (std::int64_t j = 0; j < 5; ++j) {
        const double want = expectedDiff(ta, tb, row * 6 + j, row * 6 + j);
        const double got = td.value(row * 5 + j);
        if (std::isinf(want)) {
          ASSERT_EQ(got, want);
        } else {
          ASSERT_NEAR(got, want, 1e-6) << row << "," << j;
        }
      }
    }
  }
  // k and v: rows are keys (bias_k / zero rows dropped); q, outputs: cell for cell.
  const Tensor& dk = d.at("k");
  ASSERT_EQ(dk.shape(), (Shape{2, 2, 5, 4}));
  for (std::int64_t nh = 0; nh < 4; ++nh) {
    for (std::int64_t i = 0; i < 5 * 4; ++i) {
      ASSERT_NEAR(dk.value(nh * 20 + i),
                  b.at("k").value(nh * 24 + i) - a.at("k").value(nh * 24 + i), 1e-6);
    }
  }
  for (const char* name : {"q", "head_output", "merged", "output"}) {
    SCOPED_TRACE(name);
    const Tensor& td = d.at(name);
    ASSERT_EQ(td.shape(), a.at(name).shape());
    double largest = 0;
    for (std::int64_t i = 0; i < td.numel(); ++i) {
      ASSERT_NEAR(td.value(i), b.at(name).value(i) - a.at(name).value(i), 1e-6);
      largest = std::max(largest, std::abs(td.value(i)));
    }
    if (std::string(name) != "q") {
      EXPECT_GT(largest, 0.0);  // the mask changed the outputs
    }
  }
}

TEST_F(Compare, ImageOfTheDifference) {
  const ProcessResult r = runCli({"compare", "--config", dir.file("a.json"), "--config-b",
                                  dir.file("b.json"), "--image", dir.file("d.svg"), "--stage",
                                  "scores"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string svg = readText(dir.file("d.svg"));
  for (const char* text : {"B \u2212 A", "head 0", "range symmetric about 0"}) {
    EXPECT_NE(svg.find(text), std::string::npos) << text;
  }
}

TEST_F(Compare, MismatchesAndUsageErrors) {
  std::ofstream(dir.file("c.json")) << R"({"embed_dim": 8, "num_heads": 2, "tgt_len": 6,
      "src_len": 5, "batch_size": 2})";
  ProcessResult r = runCli({"compare", "--config", dir.file("a.json"), "--config-b",
                            dir.file("c.json"), "--image", dir.file("d.png")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("cannot compare weights: A has 4 queries, B has 6"), std::string::npos)
      << r.err;
  r = runCli({"compare", "--config", dir.file("a.json"), "--config-b", dir.file("c.json"),
              "--out", dir.file("d.npz"), "--stage", "output"});
  EXPECT_EQ(r.exitCode, 1) << r.err;
  // With every stage: the ones that line up (k, v) are written, the others named.
  r = runCli({"compare", "--config", dir.file("a.json"), "--config-b", dir.file("c.json"),
              "--out", dir.file("d.npz")});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("not compared: weights: A has 4 queries, B has 6"), std::string::npos);
  EXPECT_EQ(io::read_npz(dir.file("d.npz")).count("k"), 1U);
  std::ofstream(dir.file("h.json")) << R"({"embed_dim": 8, "num_heads": 4})";
  r = runCli({"compare", "--config", dir.file("a.json"), "--config-b", dir.file("h.json"),
              "--out", dir.file("e.npz")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("no stage of A and B lines up"), std::string::npos) << r.err;
  r = runCli({"compare", "--config", dir.file("a.json"), "--config-b", dir.file("gone.json"),
              "--out", dir.file("e.npz")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("gone.json: file not found"), std::string::npos) << r.err;
  r = runCli({"compare", "--config", dir.file("a.json"), "--out", dir.file("e.npz")});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("missing required option --config-b"), std::string::npos) << r.err;
  r = runCli({"compare", "--config", dir.file("a.json"), "--config-b", dir.file("b.json"),
              "--out", dir.file("e.npz"), "--image", dir.file("e.png")});
  EXPECT_EQ(r.exitCode, 2);
  r = runCli({"compare", "--config", dir.file("a.json"), "--config-b", dir.file("b.json"),
              "--out", dir.file("e.npz"), "--stage", "wieghts"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--stage \"wieghts\" is not one of"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace mhaviz::cli::test
