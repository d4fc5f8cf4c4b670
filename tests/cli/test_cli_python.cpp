// The bridge to and from PyTorch, run under /usr/bin/python3 with torch: the script
// `mhaviz-cli torch` writes (the tools/mhaviz_capture package: test_cli_capture.cpp, the same
// way). scripts/install-deps installs Debian's python3-torch and python3-numpy for them. Without
// torch they fail when the environment says CI=true, and are skipped with the reason elsewhere.
// At the end the binary prints how many ran ("PyTorch bridge: N tests ran ..."), which
// scripts/test copies into its summary; ctest runs them as the entry cli-pytorch
// (tests/cli/CMakeLists.txt).
// RunFilesInNumpy checks that numpy reads what `mhaviz-cli run` writes (in the cli entry).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli_process.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "torch_bridge.hpp"

namespace mhaviz::cli::test {
namespace {

/// Skips without numpy, saying why; under CI=true a missing numpy is a failure instead.
#define SKIP_WITHOUT_NUMPY()                                                                \
  if (!pythonHasNumpy()) {                                                                  \
    const char* ci = std::getenv("CI");                                                     \
    if (ci != nullptr && std::string(ci) == "true") {                                       \
      FAIL() << "CI=true but /usr/bin/python3 cannot import numpy; scripts/install-deps "   \
                "installs python3-numpy";                                                   \
    }                                                                                       \
    GTEST_SKIP() << "/usr/bin/python3 cannot import numpy; install Debian's python3-numpy " \
                    "to run this test";                                                     \
  }

/// Reads each file given as LABEL=PATH with numpy (np.load for .npz, the format's own layout
/// for .safetensors) and prints, per tensor, "LABEL NAME DTYPE SHAPE HEX-OF-BYTES", and per
/// .npz, "LABEL methods M,M,..." (the zip compression method of each member) and "LABEL crc
/// FIRST-BAD-MEMBER" from zipfile's testzip, which checks every member's CRC-32 ("None" when all
/// are right). A LABEL starting with "corrupt" only gets the crc line.
constexpr const char* kNumpyDump = R"PY(
import json, sys, zipfile
import numpy as np

def line(label, name, a):
    shape = ",".join(str(d) for d in a.shape) or "-"
    print(label, name, a.dtype.str, shape, np.ascontiguousarray(a).tobytes().hex())

for arg in sys.argv[1:]:
    label, path = arg.split("=", 1)
    if path.endswith(".npz"):
        with zipfile.ZipFile(path) as z:
            print(label, "crc", z.testzip())
            if label.startswith("corrupt"):
                continue
            print(label, "methods", ",".join(str(i.compress_type) for i in z.infolist()))
        with np.load(path, allow_pickle=False) as f:
            for name in f.files:
                line(label, name, f[name])
    else:
        dtypes = {"F32": "<f4", "F64": "<f8", "BOOL": "|b1", "U8": "|u1"}
        with open(path, "rb") as f:
            data = f.read()
        n = int.from_bytes(data[:8], "little")
        header = json.loads(data[8:8 + n])
        header.pop("__metadata__", None)
        for name, info in header.items():
            begin, end = info["data_offsets"]
            a = np.frombuffer(data[8 + n + begin:8 + n + end], dtype=dtypes[info["dtype"]])
            line(label, name, a.reshape(info["shape"]))
)PY";

/// The lines kNumpyDump prints for `tensors`, from mhaviz's own reading of the file.
std::set<std::string> expectedDump(const std::string& label, const io::TensorMap& tensors) {
  std::set<std::string> lines;
  for (const auto& [name, t] : tensors) {
    const std::string dtype = t.type() == ElemType::f32       ? "<f4"
                              : t.type() == ElemType::f64     ? "<f8"
                              : t.type() == ElemType::boolean ? "|b1"
                                                              : "|u1";
    std::string shape;
    for (const std::int64_t d : t.shape()) {
      if (!shape.empty()) shape += ',';
      shape += std::to_string(d);  // appended apart: GCC 12 warns falsely on "," + to_string
    }
    std::string hex;
    for (const std::byte b : t.bytes()) {
      char two[3];
      std::snprintf(two, sizeof two, "%02x", std::to_integer<unsigned>(b));
      hex += two;
    }
    lines.insert(label + " " + name + " " + dtype + " " + (shape.empty() ? "-" : shape) + " " +
                 hex);
  }
  return lines;
}

TEST(RunFilesInNumpy, StoredCompressedAndSafetensorsReadBackBitExact) {
  SKIP_WITHOUT_NUMPY();
  const std::string name = "fully_masked_row";  // NaN and -inf in the results
  const ScratchDir dir;
  io::write_npz(dir.file("t.npz"), fixtureInputs(name));
  // label -> --out and options.
  const std::map<std::string, std::vector<std::string>> runs = {
      {"stored", {dir.file("r.npz")}},
      {"compressed", {dir.file("rc.npz"), "--compress"}},
      {"safetensors", {dir.file("r.safetensors")}}};
  std::vector<std::string> dumpArgs = {dir.file("dump.py")};
  for (const auto& [label, out] : runs) {
    std::vector<std::string> args = {"run",       "--config",        fixture(name + ".json"),
                                     "--tensors", dir.file("t.npz"), "--out"};
    args.insert(args.end(), out.begin(), out.end());
    const ProcessResult r = runCli(args);
    ASSERT_EQ(r.exitCode, 0) << label << ": " << r.err;
    dumpArgs.push_back(label + "=" + out.front());
  }
  // The same file with one byte of the member "output" changed: zipfile's CRC check finds it
  // (so the CRCs above are really checked), and so does mhaviz's reader.
  {
    std::vector<std::byte> bytes = io::read_file_bytes(dir.file("r.npz"));
    const io::TensorMap written = io::read_npz(dir.file("r.npz"));
    const auto output = written.at("output").bytes();
    const auto at = std::search(bytes.begin(), bytes.end(), output.begin(), output.end());
    ASSERT_NE(at, bytes.end());
    at[static_cast<std::ptrdiff_t>(output.size() / 2)] ^= std::byte{0x40};
    io::write_file_atomic(dir.file("corrupt.npz"), bytes);
    EXPECT_THROW(io::read_npz(dir.file("corrupt.npz")), InvalidInput);
  }
  dumpArgs.push_back("corrupt=" + dir.file("corrupt.npz"));
  std::ofstream(dir.file("dump.py")) << kNumpyDump;
  const ProcessResult py = runProcess(kPython, dumpArgs);
  ASSERT_EQ(py.exitCode, 0) << py.out << py.err;
  std::set<std::string> got;
  std::istringstream lines(py.out);
  for (std::string l; std::getline(lines, l);) got.insert(l);

  const io::TensorMap reference = io::read_npz(dir.file("r.npz"));
  EXPECT_EQ(reference.size(), 12U);
  std::set<std::string> want;
  for (const auto& [label, out] : runs) {
    // numpy reads every file as mhaviz reads the stored one, and so does mhaviz.
    const std::set<std::string> mine = expectedDump(label, reference);
    EXPECT_EQ(expectedDump(label, io::read_tensor_file(out.front())), mine) << label;
    want.insert(mine.begin(), mine.end());
  }
  // Every member stored (zip method 0) by default, deflated (8) with --compress.
  for (const auto& [label, method] : {std::pair{"stored", "0"}, std::pair{"compressed", "8"}}) {
    std::string methods = method;
    for (std::size_t i = 1; i < reference.size(); ++i) methods += std::string(",") + method;
    want.insert(std::string(label) + " methods " + methods);
    want.insert(std::string(label) + " crc None");
  }
  want.insert("corrupt crc output.npy");
  EXPECT_EQ(got, want) << py.err;
}

class TorchScript : public ::testing::TestWithParam<std::string> {};

TEST_P(TorchScript, RunsAndMatches) {
  REQUIRE_TORCH();
  const std::string name = GetParam();
  const ScratchDir dir;
  io::write_npz(dir.file("t.npz"), fixtureInputs(name));
  const ProcessResult gen = runCli({"torch", "--config", fixture(name + ".json"), "--tensors",
                                    dir.file("t.npz"), "--out", dir.file("repro.py")});
  ASSERT_EQ(gen.exitCode, 0) << gen.err;
  ASSERT_TRUE(std::filesystem::exists(dir.file("repro.npz")));
  const ProcessResult py = runProcess(kPython, {dir.file("repro.py")});
  EXPECT_EQ(py.exitCode, 0) << py.out << py.err;
  EXPECT_NE(py.out.find("OK: matches mhaviz"), std::string::npos) << py.out << py.err;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, TorchScript,
                         ::testing::Values("bias_kv_and_zero_attn", "unbatched", "batch_first",
                                           "static_k_static_v", "separate_kdim_vdim",
                                           "packed_basic_f64", "fully_masked_row",
                                           "need_weights_false", "is_causal_hint",
                                           "per_head_weights", "training_dropout_zero"));

TEST(TorchScriptChecks, DetectsADifferenceAndRandomDropout) {
  REQUIRE_TORCH();
  const ScratchDir dir;
  ASSERT_EQ(
      runCli({"torch", "--config", fixture("packed_basic.json"), "--out", dir.file("repro.py")})
          .exitCode,
      0);
  // Generated inputs (no --tensors) also reproduce.
  ProcessResult py = runProcess(kPython, {dir.file("repro.py")});
  ASSERT_EQ(py.exitCode, 0) << py.out << py.err;
  // Change one of mhaviz's values: the script must notice.
  io::TensorMap data = io::read_npz(dir.file("repro.npz"));
  Tensor& out = data.at("mhaviz.attn_output");
  out.data<float>()[3] += 1e-2F;
  io::write_npz(dir.file("repro.npz"), data);
  py = runProcess(kPython, {dir.file("repro.py")});
  EXPECT_EQ(py.exitCode, 1) << py.out;
  EXPECT_NE(py.out.find("FAIL: attn_output: 1 of"), std::string::npos) << py.out;

  std::ofstream(dir.file("drop.json")) << R"({"embed_dim": 8, "num_heads": 2, "dropout": 0.4,
                                             "training": true})";
  ASSERT_EQ(
      runCli({"torch", "--config", dir.file("drop.json"), "--out", dir.file("drop.py")}).exitCode,
      0);
  py = runProcess(kPython, {dir.file("drop.py")});
  EXPECT_EQ(py.exitCode, 0) << py.out << py.err;
  EXPECT_NE(py.out.find("only shapes are compared"), std::string::npos) << py.out;
  EXPECT_EQ(py.out.find("OK: matches mhaviz"), std::string::npos) << py.out;
}

// need_weights=False with a fully masked query: mhaviz gives PyTorch 2.5+'s row (0 attention,
// so out_proj.bias), 1.13 gives NaN; the script accepts exactly that difference and says so.
TEST(TorchScriptChecks, FullyMaskedQueryWithoutWeights) {
  REQUIRE_TORCH();
  const ScratchDir dir;
  io::TensorMap tensors = fixtureInputs("need_weights_false");  // causal attn_mask, L=4, S=5
  // Batch element 1 pads key 0, the only key its query 0 may see.
  tensors.at("key_padding_mask") = Tensor::from_bools({2, 5}, {0, 0, 0, 0, 0, 1, 0, 0, 0, 0});
  io::write_npz(dir.file("t.npz"), tensors);
  ASSERT_EQ(runCli({"torch", "--config", fixture("need_weights_false.json"), "--tensors",
                    dir.file("t.npz"), "--out", dir.file("repro.py")})
                .exitCode,
            0);
  const ProcessResult py = runProcess(kPython, {dir.file("repro.py")});
  EXPECT_EQ(py.exitCode, 0) << py.out << py.err;
  EXPECT_NE(py.out.find("OK: matches mhaviz"), std::string::npos) << py.out << py.err;
  if (py.out.find("PyTorch 1.") != std::string::npos) {
    EXPECT_NE(py.out.find("note: attn_output: 8 values are NaN in PyTorch 1."), std::string::npos)
        << py.out;
  }
}

// The patterns of current practice (their masks travel in the data file) and the soft-cap,
// which the script applies in its written-out forward pass (run_capped): each configuration
// must reproduce, and a wrong cap must be noticed.
TEST(TorchScriptChecks, SoftCapAndPatternKinds) {
  REQUIRE_TORCH();
  const ScratchDir dir;
  const std::vector<std::string> configs = {
      R"({"embed_dim": 12, "num_heads": 3, "tgt_len": 6, "src_len": 6, "batch_size": 2,
          "batch_first": true, "add_bias_kv": true, "average_attn_weights": false,
          "attn_logit_softcapping": 1.5, "inputs": {"scale": 3},
          "attn_mask": {"kind": "sink", "sink_tokens": 1, "width": 2},
          "key_padding_mask": {"kind": "lengths", "valid_lengths": [6, 4]}})",
      R"({"embed_dim": 8, "num_heads": 2, "tgt_len": 7, "src_len": 7, "batch_size": null,
          "add_zero_attn": true, "need_weights": false, "dtype": "float64",
          "attn_logit_softcapping": 0.8, "inputs": {"scale": 4},
          "attn_mask": {"kind": "document", "document_lengths": [3, 4], "causal": true,
                        "dtype": "float", "shape": "3d"}})",
      R"({"embed_dim": 8, "num_heads": 2, "tgt_len": 5, "src_len": 9, "kdim": 4, "vdim": 6,
          "attn_logit_softcapping": 2.0, "inputs": {"scale": 3},
          "attn_mask": {"kind": "dilated", "width": 2, "dilation": 3}})",
      R"({"embed_dim": 8, "num_heads": 2, "tgt_len": 5, "src_len": 6,
          "attn_mask": {"kind": "prefix_lm", "prefix_length": 3, "dtype": "float"}})"};
  for (std::size_t k = 0; k < configs.size(); ++k) {
    const std::string name = "c" + std::to_string(k);
    std::ofstream(dir.file(name + ".json")) << configs[k];
    const ProcessResult gen =
        runCli({"torch", "--config", dir.file(name + ".json"), "--out", dir.file(name + ".py")});
    ASSERT_EQ(gen.exitCode, 0) << gen.err;
    const ProcessResult py = runProcess(kPython, {dir.file(name + ".py")});
    EXPECT_EQ(py.exitCode, 0) << configs[k] << py.out << py.err;
    EXPECT_NE(py.out.find("OK: matches mhaviz"), std::string::npos) << py.out << py.err;
    const bool capped = configs[k].find("softcapping") != std::string::npos;
    EXPECT_EQ(py.out.find("note: attn_logit_softcapping=") != std::string::npos, capped) << py.out;
  }
  // A script whose cap differs from the one mhaviz used finds the difference.
  std::ifstream in(dir.file("c0.py"));
  std::stringstream text;
  text << in.rdbuf();
  std::string script = text.str();
  const std::string cap = "SOFTCAP = 1.5";
  ASSERT_NE(script.find(cap), std::string::npos);
  script.replace(script.find(cap), cap.size(), "SOFTCAP = 3.0");
  std::ofstream(dir.file("c0.py")) << script;
  const ProcessResult py = runProcess(kPython, {dir.file("c0.py")});
  EXPECT_EQ(py.exitCode, 1) << py.out << py.err;
  EXPECT_NE(py.out.find("FAIL: attn_output"), std::string::npos) << py.out;
}

// "semantics": "1.13": the generated script knows the key; under PyTorch 1.13 the NaN rows,
// the OR-ed masks and the uint8 mask all match mhaviz without any note; under 2.x (ctest
// cli-pytorch2) the script notes the version and finds the difference.
TEST(TorchScriptChecks, Semantics113Cases) {
  REQUIRE_TORCH();
  for (const std::string name :
       {"need_weights_false_fully_masked", "bool_attn_float_padding", "uint8_attn_mask"}) {
    SCOPED_TRACE(name);
    const ScratchDir dir;
    const std::string base = std::string(MHAVIZ_FIXTURE_DIR) + "/semantics/" + name;
    io::TensorMap tensors = io::read_npz(base + ".npz");
    std::erase_if(tensors, [](const auto& e) { return e.first.rfind("expected.", 0) == 0; });
    io::write_npz(dir.file("t.npz"), tensors);
    const ProcessResult gen = runCli({"torch", "--config", base + ".json", "--tensors",
                                      dir.file("t.npz"), "--out", dir.file("repro.py")});
    ASSERT_EQ(gen.exitCode, 0) << gen.err;
    EXPECT_NE(readText(dir.file("repro.py")).find("SEMANTICS = \"1.13\""), std::string::npos);
    const ProcessResult py = runProcess(kPython, {dir.file("repro.py")});
    if (py.out.find("note: mhaviz computed with PyTorch 1.13's semantics") != std::string::npos) {
      // PyTorch 2.x (ctest cli-pytorch2): these cases are where the versions differ; the
      // script says so and finds the difference instead of claiming a match.
      EXPECT_NE(py.exitCode, 0) << py.out << py.err;
      EXPECT_EQ(py.out.find("OK: matches mhaviz"), std::string::npos) << py.out;
      continue;
    }
    EXPECT_EQ(py.exitCode, 0) << py.out << py.err;
    EXPECT_NE(py.out.find("OK: matches mhaviz"), std::string::npos) << py.out << py.err;
    if (py.out.find("PyTorch 1.13") != std::string::npos) {
      EXPECT_EQ(py.out.find("values are NaN in PyTorch"), std::string::npos) << py.out;
    }
  }
}

}  // namespace
}  // namespace mhaviz::cli::test
