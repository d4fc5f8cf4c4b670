// mhaviz-cli run / shapes / --help / --version against PyTorch-made fixtures.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "cli_process.hpp"
#include "mhaviz/core/io/npz.hpp"

namespace mhaviz::cli::test {
namespace {

/// |a - b| <= 1e-5 + 1e-4 |b| everywhere, NaN and infinities in the same places.
void expectClose(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  for (std::int64_t i = 0; i < want.numel(); ++i) {
    const double a = got.value(i), b = want.value(i);
    if (std::isnan(b)) {
      EXPECT_TRUE(std::isnan(a)) << what << " [" << i << "]";
    } else if (std::isinf(b)) {
      EXPECT_EQ(a, b) << what << " [" << i << "]";  // masked: -inf in mask and scores
    } else {
      ASSERT_LE(std::abs(a - b), 1e-5 + 1e-4 * std::abs(b)) << what << " [" << i << "]";
    }
  }
}

class RunFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(RunFixture, OutputsEqualPyTorch) {
  const std::string name = GetParam();
  const ScratchDir dir;
  io::write_npz(dir.file("t.npz"), fixtureInputs(name));
  const ProcessResult r = runCli({"run", "--config", fixture(name + ".json"), "--tensors",
                                  dir.file("t.npz"), "--out", dir.file("r.npz")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;

  const io::TensorMap out = io::read_npz(dir.file("r.npz"));
  const io::TensorMap expected = io::read_npz(fixture(name + ".npz"));
  // Our name -> the fixture's expected.<name>.
  const std::map<std::string, std::string> names = {{"attn_output", "attn_output"},
                                                    {"attn_output_weights", "attn_output_weights"},
                                                    {"q", "q"},
                                                    {"k", "k"},
                                                    {"v", "v"},
                                                    {"raw_scores", "raw_scores"},
                                                    {"mask", "mask"},
                                                    {"scores", "scores"},
                                                    {"weights_per_head", "weights"},
                                                    {"head_output", "head_output"},
                                                    {"merged", "merged"},
                                                    {"output", "output"}};
  for (const auto& [ours, theirs] : names) {
    ASSERT_TRUE(out.count(ours)) << "run wrote no " << ours;
    const auto it = expected.find("expected." + theirs);
    ASSERT_NE(it, expected.end()) << theirs;
    expectClose(out.at(ours), it->second, name + ": " + ours);
  }
  EXPECT_FALSE(out.count("weights_before_dropout")) << "no dropout was applied";
}

INSTANTIATE_TEST_SUITE_P(Fixtures, RunFixture,
                         ::testing::Values("bias_kv_and_zero_attn", "unbatched", "batch_first",
                                           "static_k_static_v", "fully_masked_row"));

TEST(Run, WritesWeightsBeforeDropoutOnlyWithDropout) {
  const ScratchDir dir;
  std::ofstream(dir.file("c.json")) << R"({"embed_dim": 8, "num_heads": 2, "dropout": 0.5,
                                          "training": true, "need_weights": false})";
  const ProcessResult r =
      runCli({"run", "--config", dir.file("c.json"), "--out", dir.file("r.npz")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const io::TensorMap out = io::read_npz(dir.file("r.npz"));
  EXPECT_TRUE(out.count("weights_before_dropout"));
  EXPECT_FALSE(out.count("attn_output_weights")) << "need_weights is false";
  EXPECT_EQ(out.at("weights_per_head").shape(), (Shape{1, 2, 8, 8}));
}

TEST(Shapes, PrintsAlignedTableWithAppendedColumns) {
  const ProcessResult r = runCli({"shapes", "--config", fixture("bias_kv_and_zero_attn.json")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::istringstream in(r.out);
  std::string header, first;
  std::getline(in, header);
  std::getline(in, first);
  ASSERT_EQ(header.rfind("step", 0), 0U) << r.out;
  const std::size_t tensorColumn = header.find("tensor");
  const std::size_t concreteColumn = header.find("concrete shape");
  ASSERT_NE(tensorColumn, std::string::npos);
  EXPECT_EQ(first.find("query"), tensorColumn) << "columns are aligned:\n" << r.out;
  EXPECT_EQ(first.find("(4, 2, 8)"), concreteColumn) << r.out;
  // S = 5: bias_k makes S+1 = 6, the zero key S+2 = 7.
  EXPECT_NE(r.out.find("(S+1, N, E)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(N*H, S+2, hd)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(4, 7, 4)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(N, L, S+2)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(2, 4, 7)"), std::string::npos) << r.out;
}

TEST(Shapes, ChecksTensorsAgainstTheConfig) {
  const ScratchDir dir;
  io::write_npz(dir.file("t.npz"), fixtureInputs("unbatched"));
  const ProcessResult r = runCli({"shapes", "--config", fixture("bias_kv_and_zero_attn.json"),
                                  "--tensors", dir.file("t.npz")});
  EXPECT_EQ(r.exitCode, 1);
  ASSERT_EQ(r.errorLines().size(), 1U) << r.err;
  EXPECT_NE(r.err.find("has shape"), std::string::npos) << r.err;
}

TEST(Cli, VersionAndHelp) {
  ProcessResult r = runCli({"--version"});
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.out, std::string("mhaviz-cli ") + MHAVIZ_VERSION + "\n");
  r = runCli({"--help"});
  EXPECT_EQ(r.exitCode, 0);
  for (const char* command : {"run", "export", "shapes", "torch"}) {
    EXPECT_NE(r.out.find(std::string("  ") + command + " "), std::string::npos) << r.out;
  }
  r = runCli({"export", "--help"});
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.out.find("Usage: mhaviz-cli export"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--per-head-scale"), std::string::npos) << r.out;
  r = runCli({"help", "torch"});
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.out.find("repro.py"), std::string::npos) << r.out;
}

// Issue 15 item 14: from a plain shell (no XDG_RUNTIME_DIR) every command printed Qt's
// "QStandardPaths: XDG_RUNTIME_DIR not set" warning on stderr. A successful command writes
// nothing there.
TEST(Cli, NothingOnStderrWithoutXdgRuntimeDir) {
  const ScratchDir dir;
  io::write_npz(dir.file("t.npz"), fixtureInputs("bias_kv_and_zero_attn"));
  const std::string config = fixture("bias_kv_and_zero_attn.json");
  const std::vector<std::vector<std::string>> commands = {
      {"--version"},
      {"shapes", "--config", config},
      {"run", "--config", config, "--tensors", dir.file("t.npz"), "--out", dir.file("r.npz")},
      {"export", "--config", config, "--tensors", dir.file("t.npz"), "--image", dir.file("a.png")},
      {"torch", "--config", config, "--out", dir.file("repro.py")},
  };
  for (const auto& command : commands) {
    std::vector<std::string> args = {"-u", "XDG_RUNTIME_DIR", MHAVIZ_CLI_EXE};
    args.insert(args.end(), command.begin(), command.end());
    const ProcessResult r = runProcess("/usr/bin/env", args);
    EXPECT_EQ(r.exitCode, 0) << command.front() << ": " << r.err;
    EXPECT_EQ(r.err, "") << command.front();
  }
}

}  // namespace
}  // namespace mhaviz::cli::test
