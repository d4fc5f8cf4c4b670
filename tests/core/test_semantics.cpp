// The configuration key "semantics": PyTorch 1.13's behaviour where it differs from 2.x,
// against tests/fixtures/semantics (made with PyTorch 1.13 by make_semantics_fixtures.py).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "fixture_case.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "mhaviz/core/spec/semantics.hpp"
#include "test_util.hpp"

namespace mhaviz::test {
namespace {

std::filesystem::path semantics_dir() { return fixture_dir().parent_path() / "semantics"; }

/// Elements that differ (NaN only equals NaN), with float32 tolerance.
std::int64_t differing(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) return -1;
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < a.numel(); ++i) {
    const double x = a.value(i), y = b.value(i);
    const bool same_value =
        (std::isnan(x) && std::isnan(y)) || std::abs(x - y) <= 1e-5 + 1e-4 * std::abs(y);
    if (!same_value) ++bad;
  }
  return bad;
}

class SemanticsFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(SemanticsFixture, Matches113AndDiffersFrom2x) {
  const FixtureCase fixture = load_case(semantics_dir(), GetParam());
  ASSERT_EQ(fixture.config.semantics, Semantics::v1_13);
  const Problem problem = make_case_problem(fixture);
  const ForwardResult r = forward(problem.config, problem.params, problem.inputs);
  EXPECT_EQ(differing(r.attn_output, fixture.expected.at("attn_output")), 0) << GetParam();
  if (auto it = fixture.expected.find("attn_output_weights"); it != fixture.expected.end()) {
    ASSERT_TRUE(r.attn_output_weights.has_value());
    EXPECT_EQ(differing(*r.attn_output_weights, it->second), 0) << GetParam();
  }
  // Under 2.x every case computes something else (or is refused: uint8 masks).
  Config v2 = problem.config;
  v2.semantics = Semantics::v2;
  if (GetParam() == "uint8_attn_mask") {
    expect_invalid([&] { (void)forward(v2, problem.params, problem.inputs); },
                   {"only bool and floating types of attn_mask"});
    EXPECT_NE(semantics_warning(problem.config, problem.inputs).find("Byte tensor for attn_mask"),
              std::string::npos);
    EXPECT_EQ(semantics_warning(v2, problem.inputs), "");
  } else {
    const ForwardResult r2 = forward(v2, problem.params, problem.inputs);
    EXPECT_GT(differing(r2.attn_output, fixture.expected.at("attn_output")), 0) << GetParam();
  }
}

INSTANTIATE_TEST_SUITE_P(Torch113, SemanticsFixture,
                         ::testing::ValuesIn(list_cases(semantics_dir())));

TEST(Semantics, EveryDocumentedCaseHasAFixture) {
  const auto cases = list_cases(semantics_dir());
  for (const char* name :
       {"need_weights_false_fully_masked", "bool_attn_float_padding", "uint8_attn_mask"}) {
    EXPECT_NE(std::find(cases.begin(), cases.end(), name), cases.end()) << name;
  }
}

TEST(Semantics, IsCausalDoesNotExistIn113) {
  Config c;
  c.semantics = Semantics::v1_13;
  c.is_causal = true;
  c.attn_mask_spec.kind = gen::MaskKind::causal;
  const Problem p = make_problem(c);
  expect_invalid([&] { (void)forward(p.config, p.params, p.inputs); },
                 {"is_causal does not exist in PyTorch 1.13", "semantics", "2.x"});
  c.semantics = Semantics::v2;
  const Problem p2 = make_problem(c);
  EXPECT_NO_THROW((void)forward(p2.config, p2.params, p2.inputs));
}

TEST(Semantics, TwoFloatMasksAreRefusedBy113) {
  Config c;
  c.semantics = Semantics::v1_13;
  c.batch_size = 1;
  c.tgt_len = 2;
  c.src_len = 2;
  Problem p = make_problem(c);
  p.inputs.attn_mask = Tensor::from<float>({2, 2}, {0, -1, 0, 0});
  p.inputs.key_padding_mask = Tensor::from<float>({1, 2}, {0, -2});
  expect_invalid([&] { (void)forward(p.config, p.params, p.inputs); },
                 {"float attn_mask with a float key_padding_mask", "semantics"});
  p.config.semantics = Semantics::v2;
  EXPECT_NO_THROW((void)forward(p.config, p.params, p.inputs));
}

TEST(Semantics, ConfigKeyReadWriteAndUnknownValue) {
  const Config c = io::parse_config_json(R"({"semantics": "1.13"})", "c.json");
  EXPECT_EQ(c.semantics, Semantics::v1_13);
  EXPECT_EQ(io::parse_config_json("{}", "c.json").semantics, Semantics::v2);
  EXPECT_NE(io::config_to_json(c).find(R"("semantics": "1.13")"), std::string::npos);
  expect_invalid([] { (void)io::parse_config_json(R"({"semantics": "2.1"})", "c.json"); },
                 {"c.json", "\"semantics\"", "\"2.x\" or \"1.13\"", "2.1"});
}

}  // namespace
}  // namespace mhaviz::test
