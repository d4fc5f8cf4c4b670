#pragma once
// The PyTorch bridge tests' shared parts (test_cli_python.cpp, test_cli_capture.cpp,
// test_cli_generation.cpp): the python they run, the count of those that ran, and REQUIRE_TORCH,
// which skips a test without torch (or fails it when the environment says CI=true). The binary
// prints the count at the end ("PyTorch bridge: N tests ran ..."); ctest runs them as the entry
// cli-pytorch.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "cli_process.hpp"

namespace mhaviz::cli::test {

inline const std::string& kPython = bridgePython();

inline bool ciRequiresTorch() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string_view(ci) == "true";
}

/// Bridge tests that ran PyTorch, and those skipped (or failed, under CI=true) without it.
struct BridgeCount : ::testing::Environment {
  int ran = 0;
  int skipped = 0;
  int missing = 0;
  void TearDown() override {
    if (ran + skipped + missing == 0) return;  // none selected (--gtest_filter)
    std::printf("PyTorch bridge: %d tests ran under %s", ran, kPython.c_str());
    if (skipped > 0) std::printf(", %d skipped: it cannot import torch and numpy", skipped);
    if (missing > 0) std::printf(", %d failed: CI=true and it cannot import torch", missing);
    std::printf("\n");
  }
};
inline BridgeCount* const bridgeCount = [] {
  auto* count = new BridgeCount;
  ::testing::AddGlobalTestEnvironment(count);  // gtest owns it
  return count;
}();

}  // namespace mhaviz::cli::test

#define REQUIRE_TORCH()                                                                        \
  if (!pythonHasTorch()) {                                                                     \
    if (ciRequiresTorch()) {                                                                   \
      ++bridgeCount->missing;                                                                  \
      FAIL() << kPython << " cannot import torch and numpy, and CI=true requires the "         \
                "PyTorch bridge tests: run scripts/install-deps (python3-torch)";              \
    }                                                                                          \
    ++bridgeCount->skipped;                                                                    \
    GTEST_SKIP() << kPython << " cannot import torch and numpy; install Debian's "             \
                    "python3-torch and python3-numpy (scripts/install-deps) to run this test"; \
  }                                                                                            \
  ++bridgeCount->ran
