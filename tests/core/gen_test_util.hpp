#pragma once
// Helpers shared by the generator tests (test_gen_*.cpp).

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "test_util.hpp"

namespace mhaviz::test {

/// tests/fixtures/masks/<name>.npz.
inline io::TensorMap mask_fixture(const std::string& name) {
  return io::read_npz(std::string(MHAVIZ_FIXTURE_DIR) + "/masks/" + name + ".npz");
}

/// Same type, shape and values; NaN equals NaN, infinities must match exactly.
inline ::testing::AssertionResult same_tensor(const Tensor& actual, const Tensor& expected,
                                              double tolerance = 0.0) {
  if (actual.type() != expected.type()) {
    return ::testing::AssertionFailure()
           << "type " << to_string(actual.type()) << " vs " << to_string(expected.type());
  }
  if (actual.shape() != expected.shape()) {
    return ::testing::AssertionFailure()
           << "shape " << shape_str(actual.shape()) << " vs " << shape_str(expected.shape());
  }
  for (std::int64_t k = 0; k < actual.numel(); ++k) {
    const double a = actual.value(k);
    const double e = expected.value(k);
    if (std::isnan(a) && std::isnan(e)) continue;
    if (std::isinf(e) || std::isinf(a) ? a != e : std::abs(a - e) > tolerance) {
      return ::testing::AssertionFailure() << "element " << k << ": " << a << " vs " << e;
    }
  }
  return ::testing::AssertionSuccess();
}

/// A small batched config: E=8, H=2, N=2, L=4, S=6.
inline Config small_config() {
  Config c;
  c.embed_dim = 8;
  c.num_heads = 2;
  c.batch_size = 2;
  c.tgt_len = 4;
  c.src_len = 6;
  return c;
}

}  // namespace mhaviz::test
