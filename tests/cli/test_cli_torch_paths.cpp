// mhaviz-cli run / stats on PyTorch 2.x's paths (tests/fixtures/torch2/paths, made by PyTorch
// 2.6): run says which path and why, stats --format json carries it, warnings go to stderr,
// and the numbers are the path's (NaN rows of the fast path).

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_process.hpp"
#include "mhaviz/core/io/npz.hpp"

namespace mhaviz::cli::test {
namespace {

std::string pathCase(const std::string& name, const std::string& suffix) {
  // fixture() is tests/fixtures/mha/<name>; the path cases live beside that set.
  return fixture("../torch2/paths/" + name + suffix);
}

/// The case's tensors without "expected.*", written to `dir`/t.npz.
std::string tensorsOf(const ScratchDir& dir, const std::string& name) {
  io::TensorMap inputs;
  for (auto& [key, t] : io::read_npz(pathCase(name, ".npz"))) {
    if (!key.starts_with("expected.")) inputs.emplace(key, t);
  }
  io::write_npz(dir.file("t.npz"), inputs);
  return dir.file("t.npz");
}

TEST(CliTorchPaths, RunSaysTheFastPathAndGivesItsNaNRows) {
  const ScratchDir dir;
  const std::string name = "fast_fully_padded_batch_element";
  const ProcessResult r = runCli({"run", "--config", pathCase(name, ".json"), "--tensors",
                                  tensorsOf(dir, name), "--out", dir.file("r.npz")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("PyTorch would take the fast path: eval, no_grad, self-attention, "
                       "batch_first"),
            std::string::npos)
      << r.out;
  const Tensor got = io::read_npz(dir.file("r.npz")).at("attn_output");
  const Tensor want = io::read_npz(pathCase(name, ".npz")).at("expected.attn_output");
  ASSERT_EQ(got.shape(), want.shape());
  for (std::int64_t i = 0; i < want.numel(); ++i) {
    EXPECT_EQ(std::isnan(got.value(i)), std::isnan(want.value(i))) << i;
  }
}

TEST(CliTorchPaths, WarningsOnStderr) {
  const ScratchDir dir;
  const std::string name = "sdpa_is_causal_non_causal_mask";
  const ProcessResult r = runCli({"run", "--config", pathCase(name, ".json"), "--tensors",
                                  tensorsOf(dir, name), "--out", dir.file("r.npz")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("warning: is_causal=True but attn_mask is not causal"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("warning: PyTorch's SDPA path drops attn_mask"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("PyTorch would take the SDPA path"), std::string::npos) << r.out;
}

TEST(CliTorchPaths, StatsNamesThePath) {
  const ScratchDir dir;
  const std::string name = "not_fast_grad_enabled";
  const ProcessResult r = runCli({"stats", "--config", pathCase(name, ".json"), "--tensors",
                                  tensorsOf(dir, name), "--format", "json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("torch_path").at("path"), "sdpa");
  EXPECT_NE(j.at("torch_path").at("reason").get<std::string>().find("grad enabled"),
            std::string::npos);
  // CSV: a torch_path column, the same on every row (a table stays one table).
  const ProcessResult csv = runCli({"stats", "--config", pathCase(name, ".json"), "--tensors",
                                    tensorsOf(dir, name), "--format", "csv"});
  ASSERT_EQ(csv.exitCode, 0) << csv.err;
  std::istringstream lines(csv.out);
  std::string line;
  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_TRUE(line.ends_with(",sink_head,torch_path")) << line;
  int rows = 0;
  for (; std::getline(lines, line); ++rows) EXPECT_TRUE(line.ends_with(",sdpa")) << line;
  EXPECT_GT(rows, 0);
}

}  // namespace
}  // namespace mhaviz::cli::test
