#pragma once
// Helpers shared by the core tests.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/base/tensor_map.hpp"

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

/// Same element type, shape and bytes.
inline bool same(const Tensor& a, const Tensor& b) {
  const auto x = a.bytes();
  const auto y = b.bytes();
  return a.type() == b.type() && a.shape() == b.shape() &&
         std::equal(x.begin(), x.end(), y.begin(), y.end());
}

/// The same names, each with the same tensor.
inline bool same(const io::TensorMap& a, const io::TensorMap& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.first == y.first && same(x.second, y.second);
  });
}

/// For the tests that corrupt files at random, where a reader may either return (a flipped byte
/// can leave a valid file) or refuse: runs `read`; an InvalidInput must name `file`; what it
/// returned goes to `check`, outside the try (so that check's own failures count as such).
/// Returns whether `read` returned.
template <typename Read, typename Check>
bool returned_or_refused(Read read, Check check, const std::string& file) {
  std::optional<decltype(read())> got;
  try {
    got.emplace(read());
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
    return false;
  }
  check(*got);
  return true;
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
