// mhaviz::forward against real PyTorch: one test per case in tests/fixtures/mha (a new
// fixture is picked up automatically). Every returned value and every intermediate is compared
// with what tests/fixtures/make_fixtures.py recorded from torch.nn.MultiheadAttention.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fixture_case.hpp"
#include "mhaviz/core/forward/derived_maps.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/forward/result.hpp"

using mhaviz::derived_all;
using mhaviz::derived_value;
using mhaviz::DerivedMap;

namespace mhaviz::test {
namespace {

struct Tolerance {
  double abs;
  double rel;
};

Tolerance tolerance_for(DType dtype) {
  return dtype == DType::float64 ? Tolerance{1e-12, 1e-10} : Tolerance{1e-5, 1e-4};
}

ElemType elem_of(DType dtype) { return dtype == DType::float64 ? ElemType::f64 : ElemType::f32; }

std::string index_str(std::int64_t flat, const Shape& shape) {
  std::vector<std::int64_t> idx(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    idx[d] = flat % shape[d];
    flat /= shape[d];
  }
  std::ostringstream s;
  s << "(";
  for (std::size_t d = 0; d < idx.size(); ++d) s << (d ? ", " : "") << idx[d];
  s << ")";
  return s.str();
}

bool close(double actual, double expected, Tolerance tol) {
  if (std::isnan(expected) || std::isnan(actual)) return std::isnan(expected) && std::isnan(actual);
  if (std::isinf(expected) || std::isinf(actual)) return actual == expected;
  return std::abs(actual - expected) <= tol.abs + tol.rel * std::abs(expected);
}

/// Same element type, same shape, NaN at the same places, infinities equal, the rest within
/// `tol`. The message names the case, the tensor, the first bad index and both values.
::testing::AssertionResult matches(const std::string& where, const Tensor& actual,
                                   const Tensor& expected, DType dtype) {
  if (actual.type() != elem_of(dtype)) {
    return ::testing::AssertionFailure() << where << ": element type " << to_string(actual.type())
                                         << ", expected " << to_string(dtype);
  }
  if (actual.shape() != expected.shape()) {
    return ::testing::AssertionFailure() << where << ": shape " << shape_str(actual.shape())
                                         << ", PyTorch's is " << shape_str(expected.shape());
  }
  const Tolerance tol = tolerance_for(dtype);
  std::int64_t bad = 0;
  std::int64_t first = -1;
  for (std::int64_t i = 0; i < expected.numel(); ++i) {
    if (!close(actual.value(i), expected.value(i), tol)) {
      if (first < 0) first = i;
      ++bad;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  std::ostringstream s;
  s.precision(17);
  s << where << ": " << bad << " of " << expected.numel() << " elements differ; first at "
    << index_str(first, expected.shape()) << ": mhaviz " << actual.value(first) << ", PyTorch "
    << expected.value(first);
  return ::testing::AssertionFailure() << s.str();
}

/// The key columns PyTorch builds: the S sources (static_k's rows when given), then bias_k,
/// then the zero row.
std::vector<KeyColumn> expected_columns(const FixtureCase& fixture) {
  const Config& c = fixture.config;
  std::int64_t S = c.src_len;
  if (auto it = fixture.arguments.find("static_k"); it != fixture.arguments.end()) {
    S = it->second.size(1);
  }
  std::vector<KeyColumn> cols;
  for (std::int64_t j = 0; j < S; ++j) cols.push_back({KeyKind::source, j});
  if (c.add_bias_kv) cols.push_back({KeyKind::bias_k, static_cast<std::int64_t>(cols.size())});
  if (c.add_zero_attn) cols.push_back({KeyKind::zero, static_cast<std::int64_t>(cols.size())});
  return cols;
}

std::string describe(const std::vector<KeyColumn>& cols) {
  std::ostringstream s;
  for (const KeyColumn& col : cols) {
    s << (col.kind == KeyKind::source   ? "source"
          : col.kind == KeyKind::bias_k ? "bias_k"
                                        : "zero")
      << "#" << col.index << " ";
  }
  return s.str();
}

/// Every expected.* array the fixture script writes (attn_output_weights only with weights).
const std::vector<std::string> kIntermediates = {"q",      "k",      "v",          "raw_scores",
                                                 "mask",   "scores", "weights",    "head_output",
                                                 "merged", "output", "attn_output"};

/// One case of a fixture set: tests/fixtures/mha (PyTorch 1.13) or tests/fixtures/torch2/mha
/// (the same cases re-made by PyTorch 2.6, tests/fixtures/make_torch2_fixtures.sh).
struct CaseRef {
  std::filesystem::path dir;
  std::string name;
  std::string label;  ///< "<set>/<name>" in messages
};

std::vector<CaseRef> cases_in(const std::filesystem::path& dir, const std::string& set) {
  std::vector<CaseRef> out;
  for (const std::string& name : list_cases(dir)) out.push_back({dir, name, set + "/" + name});
  return out;
}

std::filesystem::path torch2_dir() { return fixture_dir().parent_path() / "torch2" / "mha"; }

class ForwardFixture : public ::testing::TestWithParam<CaseRef> {
 protected:
  [[nodiscard]] std::string case_label() const { return GetParam().label; }
};

TEST_P(ForwardFixture, MatchesPyTorch) {
  const FixtureCase fixture = load_case(GetParam().dir, GetParam().name);
  const Config& c = fixture.config;
  const Problem problem = make_case_problem(fixture);
  const ForwardResult r = forward(problem.config, problem.params, problem.inputs);

  // Sizes.
  const std::int64_t Sx = static_cast<std::int64_t>(expected_columns(fixture).size());
  EXPECT_EQ(r.N, c.batch());
  EXPECT_EQ(r.H, c.num_heads);
  EXPECT_EQ(r.L, c.tgt_len);
  EXPECT_EQ(r.Sx, Sx);
  EXPECT_EQ(r.S, Sx - (c.add_bias_kv ? 1 : 0) - (c.add_zero_attn ? 1 : 0));
  EXPECT_EQ(r.E, c.embed_dim);
  EXPECT_EQ(r.hd, c.head_dim());

  // Key column descriptions.
  const std::vector<KeyColumn> cols = expected_columns(fixture);
  EXPECT_EQ(r.columns, cols) << case_label() << ": columns are " << describe(r.columns)
                             << "; expected " << describe(cols);

  // Every value the fixture recorded.
  for (const std::string& name : kIntermediates) {
    EXPECT_TRUE(fixture.expected.contains(name)) << case_label() << ": fixture lacks " << name;
  }
  // Not stored by the pass: derived on demand, and must be exactly what PyTorch computed.
  const Tensor raw_scores = derived_all(r, DerivedMap::raw_scores);
  const Tensor mask = derived_all(r, DerivedMap::mask);
  const Tensor scores = derived_all(r, DerivedMap::scores);
  const std::vector<std::pair<std::string, const Tensor*>> actual = {
      {"q", &r.q},
      {"k", &r.k},
      {"v", &r.v},
      {"raw_scores", &raw_scores},
      {"mask", &mask},
      {"scores", &scores},
      {"weights", &r.weights},
      {"head_output", &r.head_output},
      {"merged", &r.merged},
      {"output", &r.output},
      {"attn_output", &r.attn_output},
      {"attn_output_weights", r.attn_output_weights ? &*r.attn_output_weights : nullptr},
  };
  std::set<std::string> compared;
  for (const auto& [name, tensor] : actual) {
    const auto it = fixture.expected.find(name);
    if (it == fixture.expected.end()) {
      if (name == "attn_output_weights") {
        EXPECT_EQ(tensor, nullptr) << case_label() << ": need_weights=false must return no weights";
      }
      continue;
    }
    compared.insert(name);
    if (tensor == nullptr) {
      ADD_FAILURE() << case_label() << ": " << name << " missing; PyTorch returned one";
      continue;
    }
    EXPECT_TRUE(matches(case_label() + " / " + name, *tensor, it->second, c.dtype));
  }
  for (const auto& [name, tensor] : fixture.expected) {
    EXPECT_TRUE(compared.contains(name))
        << case_label() << ": expected." << name << " is not compared by this test";
  }

  // No dropout happens in these cases (eval, or training with p = 0): nothing to keep, or the
  // undropped weights themselves.
  if (r.weights_before_dropout) {
    EXPECT_TRUE(matches(case_label() + " / weights_before_dropout", *r.weights_before_dropout,
                        fixture.expected.at("weights"), c.dtype));
  }
}

/// Where PyTorch's weight is exactly 0 (a masked key, a dropped one, an underflow), ours is the
/// same bits: a tolerance would hide a masked key drawn with weight 1e-39.
::testing::AssertionResult zeros_exact(const std::string& where, const Tensor& actual,
                                       const Tensor& expected) {
  if (actual.shape() != expected.shape()) return ::testing::AssertionSuccess();  // said above
  std::int64_t bad = 0;
  std::int64_t first = -1;
  std::int64_t zeros = 0;
  for (std::int64_t i = 0; i < expected.numel(); ++i) {
    if (expected.value(i) != 0.0 || std::signbit(expected.value(i))) continue;
    ++zeros;
    if (actual.value(i) != 0.0 || std::signbit(actual.value(i))) {
      if (first < 0) first = i;
      ++bad;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  std::ostringstream s;
  s.precision(17);
  s << where << ": " << bad << " of PyTorch's " << zeros << " exact zeros are not +0; first at "
    << index_str(first, expected.shape()) << ": mhaviz " << actual.value(first);
  return ::testing::AssertionFailure() << s.str();
}

TEST_P(ForwardFixture, ExactZeroWeightsAreExactlyZero) {
  const FixtureCase fixture = load_case(GetParam().dir, GetParam().name);
  const Problem problem = make_case_problem(fixture);
  const ForwardResult r = forward(problem.config, problem.params, problem.inputs);
  EXPECT_TRUE(zeros_exact(case_label() + " / weights", r.weights, fixture.expected.at("weights")));
  if (r.attn_output_weights && fixture.expected.contains("attn_output_weights")) {
    EXPECT_TRUE(zeros_exact(case_label() + " / attn_output_weights", *r.attn_output_weights,
                            fixture.expected.at("attn_output_weights")));
  }
}

std::string case_name(const ::testing::TestParamInfo<CaseRef>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(PyTorch, ForwardFixture,
                         ::testing::ValuesIn(cases_in(fixture_dir(), "mha")), case_name);
INSTANTIATE_TEST_SUITE_P(PyTorch2, ForwardFixture,
                         ::testing::ValuesIn(cases_in(torch2_dir(), "torch2/mha")), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ForwardFixture);

TEST(ForwardFixtures, EverySpecCaseIsPresent) {
  for (const std::filesystem::path& dir : {fixture_dir(), torch2_dir()}) {
  const std::vector<std::string> found = list_cases(dir);
  ASSERT_FALSE(found.empty()) << "no fixture cases in " << dir;
  // docs/semantics.md, "Cases the reference fixtures cover", by fixture name.
  const std::vector<std::string> required = {"packed_basic",
                                             "separate_kdim_vdim",
                                             "bias_false",
                                             "batch_first",
                                             "unbatched",
                                             "cross_attention_L_ne_S",
                                             "bool_causal_mask",
                                             "float_additive_mask",
                                             "mask3d_per_head",
                                             "kpm_bool_only",
                                             "kpm_bool_with_bool_mask",
                                             "kpm_bool_with_float_mask",
                                             "kpm_float_only",
                                             "fully_masked_row",
                                             "fully_padded_batch_element",
                                             "add_bias_kv_with_masks",
                                             "add_zero_attn_with_masks",
                                             "bias_kv_and_zero_attn",
                                             "static_k_static_v",
                                             "per_head_weights",
                                             "need_weights_false",
                                             "single_head",
                                             "head_dim_one",
                                             "packed_basic_f64",
                                             "bias_kv_and_zero_attn_f64",
                                             "fully_masked_row_f64",
                                             "training_dropout_zero",
                                             "is_causal_hint"};
  for (const std::string& name : required) {
    EXPECT_NE(std::find(found.begin(), found.end(), name), found.end())
        << "missing fixture " << name << " in " << dir;
  }
  }
}

}  // namespace
}  // namespace mhaviz::test
