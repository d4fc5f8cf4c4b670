#pragma once
// Helpers shared by the core tests.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "mhaviz/core/errors.hpp"

namespace mhaviz::test {

/// Runs fn and expects an InvalidInput whose message contains every part.
inline void expect_invalid(const std::function<void()>& fn, const std::vector<std::string>& parts) {
  try {
    fn();
    ADD_FAILURE() << "no InvalidInput thrown; expected a message with \"" << parts.front() << "\"";
  } catch (const InvalidInput& e) {
    const std::string message = e.what();
    for (const auto& p : parts) {
      EXPECT_NE(message.find(p), std::string::npos) << "message: " << message << "\nmissing: " << p;
    }
  }
}

/// A fixture with an empty folder of its own (dir_) for each test, removed afterwards.
class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("mhaviz-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name() + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

}  // namespace mhaviz::test
