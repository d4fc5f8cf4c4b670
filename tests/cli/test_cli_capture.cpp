// The tools/mhaviz_capture package under /usr/bin/python3 with torch (the PyTorch bridge's other
// half, beside test_cli_python.cpp): calls captured with hooks, under torch.no_grad() in eval
// mode, whole models and a vision transformer, run by mhaviz-cli and compared with PyTorch; its
// show(). Skipped or failed without torch as test_cli_python.cpp's (torch_bridge.hpp).

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_process.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "torch_bridge.hpp"

namespace mhaviz::cli::test {
namespace {

/// `python3 -m mhaviz_capture ARGS...` with the source tree's package on PYTHONPATH.
ProcessResult runCaptureModule(const std::vector<std::string>& args) {
  std::vector<std::string> all = {std::string("PYTHONPATH=") + MHAVIZ_CAPTURE_DIR, kPython, "-m",
                                  "mhaviz_capture"};
  all.insert(all.end(), args.begin(), args.end());
  return runProcess("/usr/bin/env", all);
}

/// Builds layers in PyTorch, saves calls with the helper, and PyTorch's results beside them.
constexpr const char* kCaptureSnippet = R"PY(
import sys
import numpy as np
import torch
tools, prefix = sys.argv[1], sys.argv[2]
sys.path.insert(0, tools)
import mhaviz_capture

torch.manual_seed(3)
mha = torch.nn.MultiheadAttention(12, 3, add_bias_kv=True, batch_first=True).eval()
with torch.no_grad():
    mha.in_proj_bias.uniform_(-0.5, 0.5)
    mha.out_proj.bias.uniform_(-0.5, 0.5)
q, k = torch.randn(2, 5, 12), torch.randn(2, 6, 12)
kpm = torch.zeros(2, 6, dtype=torch.bool)
kpm[1, 3:] = True
with mhaviz_capture.capture(mha, prefix + "hook") as cap:
    out, w = mha(q, k, k, key_padding_mask=kpm, average_attn_weights=False)
    mha(q, q, q)  # only the first call is saved
assert cap.saved
assert "forward" not in mha.__dict__, "capture() left forward wrapped"
np.savez(prefix + "hook_expected.npz", attn_output=out.detach().numpy(),
         attn_output_weights=w.detach().numpy())

# Unbatched call with a float mask and separate kdim/vdim, saved directly.
mha2 = torch.nn.MultiheadAttention(8, 2, kdim=5, vdim=3, add_zero_attn=True).eval()
q2, k2, v2 = torch.randn(4, 8), torch.randn(7, 5), torch.randn(7, 3)
mask = torch.randn(4, 7)
out2, w2 = mha2(q2, k2, v2, attn_mask=mask)
mhaviz_capture.save_mha(mha2, q2, k2, v2, prefix + "direct", attn_mask=mask, outputs=(out2, w2))
np.savez(prefix + "direct_expected.npz", attn_output=out2.detach().numpy(),
         attn_output_weights=w2.detach().numpy())
)PY";

void expectCloseTensors(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  for (std::int64_t i = 0; i < want.numel(); ++i) {
    ASSERT_LE(std::abs(got.value(i) - want.value(i)), 1e-5 + 1e-4 * std::abs(want.value(i)))
        << what << " [" << i << "]";
  }
}

TEST(CaptureHelper, SavedLayerRunsInMhavizAndMatchesPyTorch) {
  REQUIRE_TORCH();
  const ScratchDir dir;
  std::ofstream(dir.file("snippet.py")) << kCaptureSnippet;
  const ProcessResult py =
      runProcess(kPython, {dir.file("snippet.py"), MHAVIZ_CAPTURE_DIR, dir.file("")});
  ASSERT_EQ(py.exitCode, 0) << py.out << py.err;

  for (const std::string prefix : {"hook", "direct"}) {
    const ProcessResult r =
        runCli({"run", "--config", dir.file(prefix + ".json"), "--tensors",
                dir.file(prefix + ".npz"), "--out", dir.file(prefix + "_mhaviz.npz")});
    ASSERT_EQ(r.exitCode, 0) << prefix << ": " << r.err;
    const io::TensorMap got = io::read_npz(dir.file(prefix + "_mhaviz.npz"));
    const io::TensorMap want = io::read_npz(dir.file(prefix + "_expected.npz"));
    for (const char* name : {"attn_output", "attn_output_weights"}) {
      expectCloseTensors(got.at(name), want.at(name), prefix + ": " + name);
    }
    // The helper's own comparison of <prefix>.torch.npz with mhaviz's output agrees.
    const ProcessResult cmp = runCaptureModule(
        {"compare", dir.file(prefix + ".torch.npz"), dir.file(prefix + "_mhaviz.npz")});
    EXPECT_EQ(cmp.exitCode, 0) << cmp.out << cmp.err;
    EXPECT_NE(cmp.out.find("OK: matches mhaviz"), std::string::npos) << cmp.out;
  }
  // The hooked call: batch_first, add_bias_kv, per-head weights (N, H, L, S+1).
  EXPECT_EQ(io::read_npz(dir.file("hook_mhaviz.npz")).at("attn_output_weights").shape(),
            (Shape{2, 3, 5, 7}));
}

/// Captures one attention module of a model in eval mode under torch.no_grad(), where
/// PyTorch's fast path runs: nn.MultiheadAttention computes in _native_multi_head_attention,
/// and TransformerEncoderLayer in one fused kernel that never calls its self_attn (with
/// src_key_padding_mask, nn.TransformerEncoder also packs the batch into nested tensors).
/// Argument: the case. The model's output must not change by a bit while capturing, and the
/// call recovered from the fused kernel must reproduce the layer's output (the helper warns
/// otherwise; warnings are errors here).
constexpr const char* kNoGradCaptureSnippet = R"PY(
import sys
import warnings
import torch
tools, prefix, case = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, tools)
import mhaviz_capture
warnings.filterwarnings("error", message="mhaviz_capture")
kernel = torch._transformer_encoder_layer_fwd

torch.manual_seed(5)
E, H = 8, 2
x = torch.randn(3, 6, E)
kpm = torch.zeros(3, 6, dtype=torch.bool)
kpm[1, 4:] = True
kpm[2, 2:] = True
memory = torch.randn(3, 7, E)
memory_kpm = torch.zeros(3, 7, dtype=torch.bool)
memory_kpm[0, 5:] = True
if case == "mha":
    model = torch.nn.MultiheadAttention(E, H, batch_first=True)
    target, run = model, lambda: model(x, x, x, key_padding_mask=kpm)[0]
elif case == "encoder_layer":
    model = torch.nn.TransformerEncoderLayer(E, H, 16, batch_first=True)
    target, run = model.self_attn, lambda: model(x, src_key_padding_mask=kpm)
elif case == "encoder_stack":
    model = torch.nn.TransformerEncoder(
        torch.nn.TransformerEncoderLayer(E, H, 16, batch_first=True), 3)
    target, run = model.layers[1].self_attn, lambda: model(x, src_key_padding_mask=kpm)
elif case in ("decoder_layer_cross", "decoder_layer_self"):
    model = torch.nn.TransformerDecoderLayer(E, H, 16, batch_first=True)
    target = model.multihead_attn if case == "decoder_layer_cross" else model.self_attn
    run = lambda: model(x, memory, tgt_key_padding_mask=kpm, memory_key_padding_mask=memory_kpm)
else:
    sys.exit("unknown case " + case)
model.eval()
with torch.no_grad():
    before = run()
    with mhaviz_capture.capture(target, prefix) as cap:
        during = run()
    after = run()
assert cap.saved, "capture() saved nothing under torch.no_grad() in eval mode"
if case.startswith("encoder"):
    assert cap.fused, "the layer did not run PyTorch's fused kernel: the test misses its point"
assert torch.equal(during, before) and torch.equal(after, before), "capturing changed the output"
assert torch._transformer_encoder_layer_fwd is kernel, "the fused kernel was not put back"
assert "forward" not in target.__dict__, "capture() left forward wrapped"
print("captured", case, "torch", torch.__version__)
)PY";

class CaptureUnderNoGrad : public ::testing::TestWithParam<std::string> {};

TEST_P(CaptureUnderNoGrad, SavesTheCallAndMhavizMatchesPyTorch) {
  REQUIRE_TORCH();
  const std::string name = GetParam();
  const ScratchDir dir;
  std::ofstream(dir.file("snippet.py")) << kNoGradCaptureSnippet;
  const ProcessResult py =
      runProcess(kPython, {dir.file("snippet.py"), MHAVIZ_CAPTURE_DIR, dir.file("layer"), name});
  ASSERT_EQ(py.exitCode, 0) << py.out << py.err;
  ASSERT_TRUE(std::filesystem::exists(dir.file("layer.torch.npz"))) << py.out << py.err;
  // Under 2.x the configuration records the path PyTorch took (a fused encoder layer's call is
  // rebuilt, not taken: none); 1.13's own fast path is not modelled, so nothing is recorded.
  const std::string config = readText(dir.file("layer.json"));
  if (py.out.find("torch 2.") != std::string::npos && name == "mha") {
    EXPECT_NE(config.find(R"("torch_path": "fast")"), std::string::npos) << config;
  } else if (py.out.find("torch 1.") != std::string::npos || name.starts_with("encoder")) {
    EXPECT_EQ(config.find("torch_path"), std::string::npos) << config;
  }

  const ProcessResult r = runCli({"run", "--config", dir.file("layer.json"), "--tensors",
                                  dir.file("layer.npz"), "--out", dir.file("mhaviz.npz")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const ProcessResult cmp =
      runCaptureModule({"compare", dir.file("layer.torch.npz"), dir.file("mhaviz.npz")});
  EXPECT_EQ(cmp.exitCode, 0) << cmp.out << cmp.err;
  EXPECT_NE(cmp.out.find("OK: matches mhaviz"), std::string::npos) << cmp.out;
  // The attention output as the model's batch_first call has it: (N, L, E).
  EXPECT_EQ(io::read_npz(dir.file("layer.torch.npz")).at("attn_output").shape(), (Shape{3, 6, 8}));
}

INSTANTIATE_TEST_SUITE_P(EvalMode, CaptureUnderNoGrad,
                         ::testing::Values("mha", "encoder_layer", "encoder_stack",
                                           "decoder_layer_cross", "decoder_layer_self"));

/// A capture that never sees its module called says so when the block ends.
constexpr const char* kNoCallSnippet = R"PY(
import copy
import sys
import torch
tools, prefix = sys.argv[1], sys.argv[2]
sys.path.insert(0, tools)
import mhaviz_capture
kernel = torch._transformer_encoder_layer_fwd
layer = torch.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True).eval()
other = copy.deepcopy(layer)
try:
    with torch.no_grad(), mhaviz_capture.capture(other.self_attn, prefix) as cap:
        layer(torch.randn(2, 5, 8))
except RuntimeError as e:
    print(e)
else:
    sys.exit("no error although nothing was saved")
assert not cap.saved
assert torch._transformer_encoder_layer_fwd is kernel, "the fused kernel was not put back"
)PY";

TEST(CaptureHelper, SaysSoWhenNoCallWasSeen) {
  REQUIRE_TORCH();
  const ScratchDir dir;
  std::ofstream(dir.file("snippet.py")) << kNoCallSnippet;
  const ProcessResult py =
      runProcess(kPython, {dir.file("snippet.py"), MHAVIZ_CAPTURE_DIR, dir.file("none")});
  ASSERT_EQ(py.exitCode, 0) << py.out << py.err;
  EXPECT_NE(py.out.find("no call of MultiheadAttention(embed_dim=8, num_heads=2) was seen"),
            std::string::npos)
      << py.out;
  EXPECT_NE(py.out.find("the fix is"), std::string::npos) << py.out;
  EXPECT_FALSE(std::filesystem::exists(dir.file("none.json")));
}

/// capture_model() on a model that mixes a fused TransformerEncoder (padding, nested tensors)
/// and one nn.MultiheadAttention called twice, in eval mode under torch.no_grad(): every call is
/// recorded in call order under its module name, the fast path's modules are restored, and
/// mhaviz-cli model --check finds every layer equal to PyTorch.
constexpr const char* kModelCaptureSnippet = R"PY(
import json, sys
sys.path.insert(0, sys.argv[1])
prefix = sys.argv[2]
import torch
import mhaviz_capture
torch.manual_seed(0)

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        layer = torch.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
        self.encoder = torch.nn.TransformerEncoder(layer, 2)
        self.pool = torch.nn.MultiheadAttention(8, 2, batch_first=True)
    def forward(self, x, pad):
        h = self.encoder(x, src_key_padding_mask=pad)
        h = h + self.pool(h, h, h, key_padding_mask=pad)[0]
        return self.pool(h[:, :1], h, h, key_padding_mask=pad)[0]

net = Net().eval()
x = torch.randn(2, 5, 8)
pad = torch.zeros(2, 5, dtype=torch.bool)
pad[1, 3:] = True
kernel = torch._transformer_encoder_layer_fwd
with torch.no_grad(), mhaviz_capture.capture_model(net, prefix, tokens=list("abcde")) as cap:
    want = net(x, pad)
assert torch._transformer_encoder_layer_fwd is kernel, "the fused kernel was not put back"
assert "forward" not in net.pool.__dict__, "capture_model() left forward wrapped"
index = json.load(open(prefix + ".json"))
print(" ".join(f"{l['name']}#{l['call']}" for l in index["layers"]))
print("self", [l["self_attention"] for l in index["layers"]])
)PY";

TEST(CaptureHelper, ModelCaptureRecordsEveryCallAndMhavizMatches) {
  REQUIRE_TORCH();
  const ScratchDir dir;
  std::ofstream(dir.file("snippet.py")) << kModelCaptureSnippet;
  const ProcessResult py =
      runProcess(kPython, {dir.file("snippet.py"), MHAVIZ_CAPTURE_DIR, dir.file("net")});
  ASSERT_EQ(py.exitCode, 0) << py.out << py.err;
  EXPECT_NE(py.out.find("encoder.layers.0.self_attn#0 encoder.layers.1.self_attn#0 pool#0 pool#1"),
            std::string::npos)
      << py.out;
  EXPECT_NE(py.out.find("self [True, True, True, False]"), std::string::npos) << py.out;
  const ProcessResult r = runCli({"model", "--model", dir.file("net.json"), "--check"});
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("all 4 layers match PyTorch"), std::string::npos) << r.out;
}

/// A torchvision VisionTransformer captured as a new user would (eval, no_grad, image=...): the
/// grid and the class token recognised without arguments; the capture's refusals of bad images.
constexpr const char* kVisionSnippet = R"PY(
import sys
sys.path.insert(0, sys.argv[1])
d = sys.argv[2]
import torch
try:
    from torchvision.models import VisionTransformer
except ImportError:
    print("NO TORCHVISION")
    sys.exit(0)
import mhaviz_capture
torch.manual_seed(1)
vit = VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=2, hidden_dim=16,
                        mlp_dim=32, num_classes=3).eval()
x = torch.randn(3, 3, 32, 32)
with torch.no_grad(), mhaviz_capture.capture_model(vit, d + "/vit", image=x):
    vit(x)
for name, call in [("size", lambda: mhaviz_capture.capture_model(vit, d + "/bad", image=torch.randn(1, 3, 30, 32))),
                   ("patch", lambda: mhaviz_capture.capture_model(torch.nn.Sequential(vit), d + "/bad", image=x)),
                   ("one", lambda: mhaviz_capture.capture_model(vit, d + "/bad", image=x[:, :, :8, :8], patch_size=8))]:
    try:
        call()
        print(name, "accepted")
    except ValueError as e:
        print(name, "refused:", e)
try:
    with torch.no_grad(), mhaviz_capture.capture_model(vit, d + "/bad", image=x, prefix_tokens=["[CLS]", "reg0"]):
        vit(x)
except ValueError as e:
    print("tokens refused:", e)
)PY";

TEST(CaptureHelper, VisionTransformerCaptureOpensInTheImageViewAndMatches) {
  REQUIRE_TORCH();
  const ScratchDir dir;
  std::ofstream(dir.file("snippet.py")) << kVisionSnippet;
  const ProcessResult py =
      runProcess(kPython, {dir.file("snippet.py"), MHAVIZ_CAPTURE_DIR, dir.file(".")});
  ASSERT_EQ(py.exitCode, 0) << py.out << py.err;
  if (py.out.find("NO TORCHVISION") != std::string::npos) {
    if (ciRequiresTorch()) {
      FAIL() << "CI=true and " << kPython << " has no torchvision: install python3-torchvision "
             << "(scripts/install-deps; in the PyTorch 2.x chroot, "
             << "tests/fixtures/make_torch2_fixtures.sh --bootstrap-only)";
    }
    GTEST_SKIP() << kPython << " has no torchvision; install python3-torchvision";
  }
  EXPECT_NE(py.out.find("size refused: capture_model: the image is 30x32 pixels, which 8x8 patches "
                        "do not tile"),
            std::string::npos)
      << py.out;
  EXPECT_NE(py.out.find("patch refused: capture_model: Sequential is not torchvision's "
                        "VisionTransformer; say how its tokens are patches with patch_size="),
            std::string::npos)
      << py.out;
  EXPECT_NE(py.out.find("one refused: capture_model: the image is one patch"), std::string::npos)
      << py.out;
  EXPECT_NE(py.out.find("tokens refused: capture_model: layer 0 (encoder.layers.encoder_layer_0."
                        "self_attention) has 17 tokens, but the image gives 2 prefix + 4x4 "
                        "patches = 18"),
            std::string::npos)
      << py.out;
  const ProcessResult check = runCli({"model", "--model", dir.file("vit.json"), "--check"});
  EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("all 2 layers match PyTorch"), std::string::npos) << check.out;
  const ProcessResult view = runCli({"model", "--model", dir.file("vit.json"), "--view", "image",
                                     "--batch", "2", "--image", dir.file("view.png")});
  EXPECT_EQ(view.exitCode, 0) << view.out << view.err;
  EXPECT_NE(view.out.find("query [CLS] \xc2\xb7 image 2"), std::string::npos) << view.out;
}

/// mhaviz_capture.show() starts `mhaviz` from PATH on what a capture wrote (a fake mhaviz here
/// records its arguments), and without one says how to install it.
constexpr const char* kShowSnippet = R"PY(
import json, os, sys
sys.path.insert(0, sys.argv[1])
d = sys.argv[2]
import mhaviz_capture
mhaviz_capture.main(["example", d + "/demo"])
with open(d + "/model.json", "w") as f:
    json.dump({"format": "mhaviz-model", "version": 1}, f)
with open(d + "/mhaviz", "w") as f:
    f.write("#!/bin/sh\necho \"$@\" >> " + d + "/args\n")
os.chmod(d + "/mhaviz", 0o755)
os.environ["PATH"] = d
mhaviz_capture.show(d + "/demo").wait()
mhaviz_capture.show(d + "/model.json").wait()
os.environ["PATH"] = d + "/nowhere"
try:
    mhaviz_capture.show(d + "/demo")
except FileNotFoundError as e:
    print(e)
)PY";

TEST(CaptureHelper, ShowStartsMhavizOrSaysHowToInstallIt) {
  REQUIRE_TORCH();
  const ScratchDir dir;
  std::ofstream(dir.file("snippet.py")) << kShowSnippet;
  const std::string d = std::filesystem::path(dir.file("")).parent_path().string();
  const ProcessResult py = runProcess(kPython, {dir.file("snippet.py"), MHAVIZ_CAPTURE_DIR, d});
  ASSERT_EQ(py.exitCode, 0) << py.out << py.err;
  EXPECT_EQ(readText(dir.file("args")),
            "--config " + d + "/demo.json --tensors " + d + "/demo.npz\n" + d + "/model.json\n");
  EXPECT_NE(py.out.find("the mhaviz program is not on PATH"), std::string::npos) << py.out;
  EXPECT_NE(py.out.find("apt install ./mhaviz_*.deb"), std::string::npos) << py.out;
}

}  // namespace
}  // namespace mhaviz::cli::test
