#include "cli_process.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "mhaviz/core/io/npz.hpp"

namespace mhaviz::cli::test {

namespace {

std::string quote(const std::string& s) {
  std::string out = "'";
  for (const char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

bool pythonCanImport(const std::string& modules) {
  if (!std::filesystem::exists(bridgePython())) return false;
  const std::string command =
      "'" + bridgePython() + "' -c 'import " + modules + "' >/dev/null 2>&1";
  return std::system(command.c_str()) == 0;
}

}  // namespace

std::vector<std::string> ProcessResult::errorLines() const {
  std::vector<std::string> lines;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("error: ", 0) == 0) lines.push_back(line);
  }
  return lines;
}

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

ProcessResult runProcess(const std::string& program, const std::vector<std::string>& args) {
  const ScratchDir io;
  // Appended piece by piece: GCC 12 gives a false -Wrestrict on `"literal" + std::string&&`.
  std::string command = "QT_QPA_PLATFORM=offscreen ";
  command += quote(program);
  for (const std::string& a : args) {
    command += ' ';
    command += quote(a);
  }
  command += " >";
  command += quote(io.file("out"));
  command += " 2>";
  command += quote(io.file("err"));
  command += " </dev/null";
  const int status = std::system(command.c_str());
  ProcessResult r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = readText(io.file("out"));
  r.err = readText(io.file("err"));
  return r;
}

ProcessResult runCli(const std::vector<std::string>& args) {
  return runProcess(MHAVIZ_CLI_EXE, args);
}

const std::string& bridgePython() {
  static const std::string python = [] {
    const char* chosen = std::getenv("MHAVIZ_BRIDGE_PYTHON");
    return std::string(chosen != nullptr && *chosen != 0 ? chosen : "/usr/bin/python3");
  }();
  return python;
}

bool pythonHasTorch() {
  static const bool has = pythonCanImport("torch, numpy");
  return has;
}

bool pythonHasNumpy() {
  static const bool has = pythonCanImport("numpy");
  return has;
}

ScratchDir::ScratchDir() {
  static std::atomic<int> counter{0};
  dir_ = std::filesystem::temp_directory_path() /
         ("mhaviz-cli-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(dir_);
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

std::string fixture(const std::string& name) {
  return std::string(MHAVIZ_FIXTURE_DIR) + "/mha/" + name;
}

io::TensorMap fixtureInputs(const std::string& caseName) {
  io::TensorMap all = io::read_npz(fixture(caseName + ".npz"));
  std::erase_if(all, [](const auto& entry) { return entry.first.rfind("expected.", 0) == 0; });
  return all;
}

}  // namespace mhaviz::cli::test
