#pragma once
// Runs the built mhaviz-cli (or /usr/bin/python3) in a child process and captures what it
// printed, plus per-test scratch directories and fixture helpers.

#include <filesystem>
#include <string>
#include <vector>

#include "mhaviz/core/base/tensor_map.hpp"

namespace mhaviz::cli::test {

struct ProcessResult {
  int exitCode = -1;
  std::string out;  // stdout
  std::string err;  // stderr
  /// Lines of stderr starting with "error: ".
  [[nodiscard]] std::vector<std::string> errorLines() const;
};

/// Runs `program args...` (arguments are shell-quoted) with QT_QPA_PLATFORM=offscreen.
ProcessResult runProcess(const std::string& program, const std::vector<std::string>& args);

/// runProcess(MHAVIZ_CLI_EXE, args).
ProcessResult runCli(const std::vector<std::string>& args);

/// True when /usr/bin/python3 can import torch and numpy.
/// The python of the PyTorch bridge tests: /usr/bin/python3, or the program named by
/// MHAVIZ_BRIDGE_PYTHON (ctest cli-pytorch2: PyTorch 2.x in a chroot, chroot_python.sh).
const std::string& bridgePython();
bool pythonHasTorch();

/// True when /usr/bin/python3 can import numpy.
bool pythonHasNumpy();

/// A fresh empty directory for one test, removed by the destructor.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  [[nodiscard]] std::string file(const std::string& name) const { return (dir_ / name).string(); }

 private:
  std::filesystem::path dir_;
};

/// tests/fixtures/mha/<name>.
std::string fixture(const std::string& name);

/// The fixture's tensors without its "expected.*" entries (what a user's tensors file holds).
io::TensorMap fixtureInputs(const std::string& caseName);

std::string readText(const std::string& path);

}  // namespace mhaviz::cli::test
