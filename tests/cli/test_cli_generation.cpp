// Generation captures through the command line: mhaviz-cli model --steps, --step (with --image
// and --out) on tests/fixtures/models/generation*.json (make_model_fixtures.py), and
// mhaviz_capture.capture_generation() under /usr/bin/python3 with torch (a bridge test, in the
// cli-pytorch entry).

#include <gtest/gtest.h>

#include <QImage>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_process.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "torch_bridge.hpp"

namespace mhaviz::cli::test {
namespace {

std::string model(const std::string& name) {
  return (std::filesystem::path(MHAVIZ_FIXTURE_DIR) / "models" / (name + ".json")).string();
}

TEST(ModelSteps, StepsListsEveryStepWithAndWithoutTheCache) {
  for (const std::string name : {"generation", "generation_full"}) {
    const ProcessResult r = runCli({"model", "--model", model(name), "--steps", "--batch", "1"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("generation: 4 steps, batch element 1"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("step 0: 2 calls, query length 4, keys 4; position 3 (b3) -> e4;"),
              std::string::npos)
        << r.out;
    const std::string second = name == "generation" ? "step 1: 2 calls, query length 1, keys 5"
                                                    : "step 1: 2 calls, query length 5, keys 5";
    EXPECT_NE(r.out.find(second), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("step 3: 2 calls"), std::string::npos) << r.out;
  }
}

// --step 2 --out: the newest position's weights of both layers are PyTorch's (its uncached run).
TEST(ModelSteps, OutWritesTheNewestRowsOfAStep) {
  const ScratchDir dir;
  const ProcessResult r = runCli({"model", "--model", model("generation"), "--step", "2", "--out",
                                  dir.file("s.npz"), "--batch", "1"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const io::TensorMap got = io::read_npz(dir.file("s.npz"));
  const io::TensorMap want =
      io::read_npz(std::filesystem::path(MHAVIZ_FIXTURE_DIR) / "models" / "generation.steps.npz");
  for (const auto& [member, layer] : {std::pair{"4/weights", "step2.layer0"},
                                      std::pair{"5/weights", "step2.layer1"}}) {
    const Tensor& g = got.at(member);  // (H, S')
    const Tensor& w = want.at(layer);  // (N, H, S)
    ASSERT_EQ(g.size(0), w.size(1));
    ASSERT_EQ(g.size(1), w.size(2));
    for (std::int64_t i = 0; i < g.numel(); ++i)
      EXPECT_NEAR(g.value(i), w.value(g.numel() + i), 1e-6) << member << ' ' << i;
  }
}

TEST(ModelSteps, StepImageDrawsTheStep) {
  const ScratchDir dir;
  const ProcessResult r = runCli({"model", "--model", model("generation"), "--step", "1",
                                  "--image", dir.file("s.png"), "--width", "700", "--height",
                                  "400"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const QImage image(QString::fromStdString(dir.file("s.png")));
  ASSERT_EQ(image.size(), QSize(700, 400));
}

TEST(ModelSteps, BadStepOptions) {
  ProcessResult r = runCli({"model", "--model", model("generation"), "--step", "9", "--steps"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("--step 9: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("generation.json has 4 generation steps (0 to 3)"), std::string::npos)
      << r.err;
  r = runCli({"model", "--model", model("generation"), "--out", "x.npz"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("give --step k"), std::string::npos) << r.err;
  r = runCli({"model", "--model", model("encoder"), "--steps"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("encoder.json has no generation steps"), std::string::npos) << r.err;
  r = runCli({"model", "--model", model("encoder"), "--step", "0", "--image", "x.png"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("--step 0: "), std::string::npos) << r.err;
}

/// capture_generation() around a loop with a KV cache: one step per call of the model (the
/// prompt, then one new row each), an attention call outside a step left out with a warning,
/// labels from the whole sequence; without a step it raises. mhaviz-cli then matches PyTorch.
constexpr const char* kGenerationSnippet = R"PY(
import json, sys, warnings
sys.path.insert(0, sys.argv[1])
prefix = sys.argv[2]
import torch
import mhaviz_capture
torch.manual_seed(0)

class Decoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(5, 8)
        self.attn = torch.nn.MultiheadAttention(8, 2, batch_first=True)
        self.out = torch.nn.Linear(8, 5)
    def forward(self, tokens, cache=None):
        x = self.embed(tokens)
        past = x if cache is None else torch.cat([cache, x], 1)
        T, S = x.shape[1], past.shape[1]
        mask = torch.ones(T, S, dtype=torch.bool).triu(S - T + 1) if T > 1 else None
        a, _ = self.attn(x, past, past, attn_mask=mask, average_attn_weights=False)
        return self.out(x + a), past

model = Decoder().eval()
sequence = torch.tensor([[1, 2, 3]])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.no_grad(), mhaviz_capture.capture_generation(model, prefix, caption="c") as cap:
        z = torch.zeros(1, 2, 8)
        model.attn(z, z, z)  # outside a step
        logits, cache = model(sequence)
        for _ in range(3):
            token = logits[:, -1:].argmax(-1)
            sequence = torch.cat([sequence, token], 1)
            logits, cache = model(token, cache)
        cap.tokens = [f"t{t}" for t in range(sequence.shape[1])]
print("warned:", [str(w.message) for w in caught])
index = json.load(open(prefix + ".json"))
print("version", index["version"], "steps", index["steps"], "calls", len(index["layers"]))
print("lengths", [(l["step"], l["config"]["tgt_len"], l["config"]["src_len"])
                  for l in index["layers"]])
c = index["layers"][2]["config"]
print("labels", c["query_labels"], c["key_labels"])
assert "forward" not in model.attn.__dict__, "the module was left wrapped"
try:
    with mhaviz_capture.capture_generation(model, prefix + "_none"):
        pass
except RuntimeError as e:
    print("none:", e)
)PY";

TEST(CaptureHelper, GenerationCaptureRecordsStepsAndMhavizMatches) {
  REQUIRE_TORCH();
  const ScratchDir dir;
  std::ofstream(dir.file("snippet.py")) << kGenerationSnippet;
  const ProcessResult py =
      runProcess(kPython, {dir.file("snippet.py"), MHAVIZ_CAPTURE_DIR, dir.file("gen")});
  ASSERT_EQ(py.exitCode, 0) << py.out << py.err;
  EXPECT_NE(py.out.find("1 attention call(s) outside a call of Decoder were not recorded"),
            std::string::npos)
      << py.out;
  EXPECT_NE(py.out.find("version 2 steps 4 calls 4"), std::string::npos) << py.out;
  EXPECT_NE(py.out.find("lengths [(0, 3, 3), (1, 1, 4), (2, 1, 5), (3, 1, 6)]"),
            std::string::npos)
      << py.out;
  EXPECT_NE(py.out.find("labels ['t4'] ['t0', 't1', 't2', 't3', 't4']"), std::string::npos)
      << py.out;
  EXPECT_NE(py.out.find("none: mhaviz_capture: no generation step was recorded"),
            std::string::npos)
      << py.out;
  EXPECT_FALSE(std::filesystem::exists(dir.file("gen_none.json")));
  ProcessResult r = runCli({"model", "--model", dir.file("gen.json"), "--check"});
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("layer 3 (attn, step 3): attn_output"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("attn_output_weights"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("all 4 layers match PyTorch"), std::string::npos) << r.out;
  r = runCli({"model", "--model", dir.file("gen.json"), "--steps"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("step 3: 1 call, query length 1, keys 6; position 5 (t5);"),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace mhaviz::cli::test
