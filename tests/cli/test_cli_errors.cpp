// Exit codes 1 (invalid input) and 2 (usage), each with one `error: ...` line naming the problem.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli_process.hpp"
#include "mhaviz/core/io/npz.hpp"

namespace mhaviz::cli::test {
namespace {

/// Expects `exitCode` and exactly one error line containing every one of `needles`.
void expectError(const ProcessResult& r, int exitCode, const std::vector<std::string>& needles) {
  EXPECT_EQ(r.exitCode, exitCode) << r.err;
  const std::vector<std::string> lines = r.errorLines();
  ASSERT_EQ(lines.size(), 1U) << "stderr:\n" << r.err;
  for (const std::string& n : needles) EXPECT_NE(lines[0].find(n), std::string::npos) << lines[0];
}

class CliErrors : public ::testing::Test {
 protected:
  ScratchDir dir;
  std::string config = fixture("unbatched.json");
};

TEST_F(CliErrors, BadJson) {
  std::ofstream(dir.file("bad.json")) << "{\"embed_dim\": 8,\n";
  expectError(runCli({"run", "--config", dir.file("bad.json"), "--out", dir.file("r.npz")}), 1,
              {"bad.json", "JSON syntax error", "line 2"});
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.npz")));
}

TEST_F(CliErrors, UnknownKey) {
  std::ofstream(dir.file("c.json")) << R"({"embed_dim": 8, "num_head": 2})";
  expectError(runCli({"run", "--config", dir.file("c.json"), "--out", dir.file("r.npz")}), 1,
              {"unknown key \"num_head\"", "did you mean \"num_heads\""});
}

TEST_F(CliErrors, MissingTensorsFile) {
  expectError(runCli({"run", "--config", config, "--tensors", dir.file("nope.npz"), "--out",
                      dir.file("r.npz")}),
              1, {"nope.npz", "not found"});
}

TEST_F(CliErrors, WrongTensorShape) {
  io::TensorMap t = fixtureInputs("unbatched");
  t["query"] = Tensor(ElemType::f32, {5, 8});  // tgt_len is 4
  io::write_npz(dir.file("t.npz"), t);
  expectError(runCli({"run", "--config", config, "--tensors", dir.file("t.npz"), "--out",
                      dir.file("r.npz")}),
              1, {"\"query\"", "(5, 8)", "(4, 8)"});
}

TEST_F(CliErrors, MemoryOverLimit) {
  expectError(
      runCli({"run", "--config", config, "--max-memory", "1KiB", "--out", dir.file("r.npz")}), 1,
      {"limit is 1.0 KiB", "--max-memory"});
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.npz")));
  // The same configuration within a limit given in plain bytes runs.
  EXPECT_EQ(
      runCli({"run", "--config", config, "--max-memory", "10000000", "--out", dir.file("r.npz")})
          .exitCode,
      0);
}

TEST_F(CliErrors, InvalidConfigValue) {
  std::ofstream(dir.file("c.json")) << R"({"embed_dim": 10, "num_heads": 3})";
  expectError(runCli({"shapes", "--config", dir.file("c.json")}), 1,
              {"embed_dim must be divisible by num_heads"});
}

TEST_F(CliErrors, ExportHeadOrBatchOutOfRange) {
  expectError(runCli({"export", "--config", config, "--image", dir.file("a.png"), "--heads", "2"}),
              1, {"--heads 2", "num_heads=2"});
  expectError(runCli({"export", "--config", config, "--image", dir.file("a.png"), "--batch", "1"}),
              1, {"--batch 1"});
  expectError(runCli({"export", "--config", config, "--image", dir.file("a.png"), "--stage",
                      "weights_before_dropout"}),
              1, {"dropout was not applied"});
}

TEST_F(CliErrors, UsageErrors) {
  ProcessResult r = runCli({"frobnicate"});
  expectError(r, 2, {"unknown command \"frobnicate\"", "run, export, compare, shapes, torch"});
  EXPECT_NE(r.err.find("--help"), std::string::npos) << "a usage hint follows";
  expectError(runCli({"rnu"}), 2, {"did you mean \"run\""});
  expectError(runCli({}), 2, {"no command"});
  expectError(runCli({"run", "--out", dir.file("r.npz")}), 2, {"missing required option --config"});
  expectError(runCli({"run", "--config", config}), 2, {"missing required option --out"});
  expectError(runCli({"run", "--config", config, "--out", dir.file("r.npz"), "--colour", "x"}), 2,
              {"colour"});
  expectError(runCli({"run", "--config", config, "--out", dir.file("r.txt")}), 2, {".npz"});
  expectError(runCli({"run", "--config", config, "--out", dir.file("r.safetensors"), "--compress"}),
              2, {"--compress applies to .npz only"});
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.safetensors"))) << "nothing is written";
  expectError(
      runCli({"run", "--config", config, "--out", dir.file("r.npz"), "--max-memory", "lots"}), 2,
      {"--max-memory \"lots\""});
  expectError(
      runCli({"export", "--config", config, "--image", dir.file("a.png"), "--stage", "softmax"}), 2,
      {"--stage \"softmax\"", "weights"});
  expectError(runCli({"export", "--config", config, "--image", dir.file("a.gif")}), 2,
              {".png or .svg or .pdf"});
  expectError(runCli({"shapes", "--config", config, "extra"}), 2, {"unexpected argument"});
}

}  // namespace
}  // namespace mhaviz::cli::test
