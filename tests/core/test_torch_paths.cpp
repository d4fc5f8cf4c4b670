// The three paths of PyTorch 2.x's MultiheadAttention (docs/semantics.md, "The three paths of
// PyTorch 2.x") against tests/fixtures/torch2/paths, written by real PyTorch 2.6
// (tests/fixtures/make_torch2_fixtures.sh): for every case, the path mhaviz decides is the one
// PyTorch took (index.json) and the returned values are PyTorch's: NaN at the same places,
// PyTorch's exact zeros exactly 0, the rest within rounding.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fixture_case.hpp"
#include "mhaviz/core/analysis/block_sparsity.hpp"
#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "mhaviz/core/spec/torch_path.hpp"
#include "test_util.hpp"

namespace mhaviz::test {
namespace {

std::filesystem::path paths_dir() { return fixture_dir().parent_path() / "torch2" / "paths"; }

/// index.json: case name -> {"path": ..., "shows": ...}.
const std::map<std::string, nlohmann::json>& index_entries() {
  static const std::map<std::string, nlohmann::json> entries = [] {
    std::map<std::string, nlohmann::json> out;
    std::ifstream f(paths_dir() / "index.json");
    const nlohmann::json index = nlohmann::json::parse(f);
    for (const auto& e : index.at("cases")) {
      out[e.at("name").get<std::string>()] = e;
    }
    return out;
  }();
  return entries;
}

struct Diff {
  std::int64_t bad = 0;
  std::string first;
  double max_abs = 0;  ///< largest |mhaviz - PyTorch| over elements both give finite
};

/// NaN only where PyTorch has NaN, PyTorch's exact zeros exactly +0, the rest within the
/// fixtures' tolerance.
Diff compare(const Tensor& actual, const Tensor& expected, DType dtype) {
  Diff d;
  if (actual.shape() != expected.shape()) {
    d.bad = 1;
    d.first = "shape " + shape_str(actual.shape()) + ", PyTorch's " + shape_str(expected.shape());
    return d;
  }
  const double abs_tol = dtype == DType::float64 ? 1e-12 : 1e-5;
  const double rel_tol = dtype == DType::float64 ? 1e-10 : 1e-4;
  for (std::int64_t i = 0; i < expected.numel(); ++i) {
    const double a = actual.value(i), e = expected.value(i);
    bool ok = false;
    if (std::isnan(e) || std::isnan(a)) {
      ok = std::isnan(e) && std::isnan(a);
    } else if (e == 0.0 && !std::signbit(e)) {
      ok = a == 0.0 && !std::signbit(a);
    } else {
      d.max_abs = std::max(d.max_abs, std::abs(a - e));
      ok = std::abs(a - e) <= abs_tol + rel_tol * std::abs(e);
    }
    if (!ok && d.bad++ == 0) {
      std::ostringstream s;
      s.precision(17);
      s << "element " << i << ": mhaviz " << a << ", PyTorch " << e;
      d.first = s.str();
    }
  }
  return d;
}

class TorchPathFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(TorchPathFixture, PathAndValuesArePyTorchs) {
  const FixtureCase fixture = load_case(paths_dir(), GetParam());
  const nlohmann::json& entry = index_entries().at(GetParam());
  const Problem problem = make_case_problem(fixture);
  const PathDecision decision = torch_path(problem.config, problem.inputs);
  EXPECT_EQ(to_string(decision.path), entry.at("path").get<std::string>())
      << GetParam() << ": " << decision.reason << " (" << entry.at("shows").get<std::string>()
      << ")";
  const ForwardResult r = forward(problem.config, problem.params, problem.inputs);
  EXPECT_EQ(r.path.path, decision.path) << GetParam();
  const Diff out = compare(r.attn_output, fixture.expected.at("attn_output"), problem.config.dtype);
  EXPECT_EQ(out.bad, 0) << GetParam() << " / attn_output: " << out.first << " ("
                        << entry.at("shows").get<std::string>() << ")";
  const auto w = fixture.expected.find("attn_output_weights");
  ASSERT_EQ(r.attn_output_weights.has_value(), w != fixture.expected.end()) << GetParam();
  if (w != fixture.expected.end()) {
    const Diff dw = compare(*r.attn_output_weights, w->second, problem.config.dtype);
    EXPECT_EQ(dw.bad, 0) << GetParam() << " / attn_output_weights: " << dw.first;
  }
}

INSTANTIATE_TEST_SUITE_P(PyTorch2, TorchPathFixture, ::testing::ValuesIn(list_cases(paths_dir())),
                         [](const auto& test_case) { return test_case.param; });

TEST(TorchPaths, EveryDocumentedRuleHasAFixture) {
  // docs/semantics.md, "The three paths of PyTorch 2.x": one case per rule.
  const auto cases = list_cases(paths_dir());
  for (const char* name : {"sdpa_is_causal_drops_mask_bias_kv",
                           "sdpa_is_causal_drops_mask_zero_attn",
                           "sdpa_is_causal_cross_top_left",
                           "sdpa_is_causal_wrong_shape_mask",
                           "sdpa_is_causal_non_causal_mask",
                           "general_is_causal_non_causal_mask",
                           "sdpa_is_causal_with_padding_keeps_mask",
                           "sdpa_fully_masked_row",
                           "sdpa_fully_padded_batch_element",
                           "fast_fully_padded_batch_element",
                           "fast_fully_masked_row",
                           "fast_fully_masked_row_weights",
                           "fast_per_head_weights",
                           "fast_inference_mode",
                           "fast_is_causal_ignored",
                           "fast_is_causal_without_mask",
                           "not_fast_float_mask",
                           "not_fast_odd_heads",
                           "not_fast_bias_false",
                           "not_fast_grad_enabled",
                           "not_fast_batch_first_false",
                           "not_fast_bias_kv"}) {
    EXPECT_NE(std::find(cases.begin(), cases.end(), name), cases.end()) << name;
    EXPECT_TRUE(index_entries().contains(name)) << name;
  }
}

Problem path_problem(const std::string& name) {
  return make_case_problem(load_case(paths_dir(), name));
}

bool any_contains(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

TEST(TorchPaths, ReasonsNameTheConditions) {
  const Problem fast = path_problem("fast_fully_padded_batch_element");
  EXPECT_EQ(torch_path(fast.config, fast.inputs).reason,
            "PyTorch would take the fast path: eval, no_grad, self-attention, batch_first");
  const Problem inference = path_problem("fast_inference_mode");
  EXPECT_EQ(torch_path(inference.config, inference.inputs).reason,
            "PyTorch would take the fast path: eval, inference_mode, self-attention, batch_first");
  const Problem grad = path_problem("not_fast_grad_enabled");
  const std::string why = torch_path(grad.config, grad.inputs).reason;
  EXPECT_NE(why.find("SDPA"), std::string::npos) << why;
  EXPECT_NE(why.find("need_weights=False"), std::string::npos) << why;
  EXPECT_NE(why.find("grad enabled"), std::string::npos) << why;
  const Problem odd = path_problem("not_fast_odd_heads");
  EXPECT_NE(torch_path(odd.config, odd.inputs).reason.find("num_heads is odd"), std::string::npos);
  Config v113 = fast.config;
  v113.semantics = Semantics::v1_13;
  EXPECT_EQ(torch_path(v113, fast.inputs).path, TorchPath::general);
}

TEST(TorchPaths, WarnWhereTheResultIsUndefinedOrPathDependent) {
  // is_causal with a mask that is not causal: every path, since the hint is wrong.
  for (const char* name : {"sdpa_is_causal_non_causal_mask", "general_is_causal_non_causal_mask",
                           "fast_is_causal_ignored"}) {
    const Problem p = path_problem(name);
    EXPECT_TRUE(any_contains(torch_path(p.config, p.inputs).warnings, "not causal")) << name;
  }
  // The SDPA path dropping the given mask.
  const Problem dropped = path_problem("sdpa_is_causal_drops_mask_bias_kv");
  const PathDecision d = torch_path(dropped.config, dropped.inputs);
  EXPECT_TRUE(d.attn_mask_dropped);
  EXPECT_TRUE(any_contains(d.warnings, "drops attn_mask")) << ::testing::PrintToString(d.warnings);
  // A causal mask with is_causal on the general path: nothing to warn about.
  Config general = dropped.config;
  general.need_weights = true;
  EXPECT_TRUE(torch_path(general, dropped.inputs).warnings.empty());
  const Problem kept = path_problem("sdpa_is_causal_with_padding_keeps_mask");
  EXPECT_FALSE(torch_path(kept.config, kept.inputs).attn_mask_dropped);
}

// The analyses read the mask the path applied: where the SDPA path drops attn_mask for its own
// causal mask over all S' columns, query i of an (L=5, S'=6) map sees keys 0..i — the appended
// bias_k column included only from query 5 on, which L=5 never reaches.
TEST(TorchPaths, AnalysesReadTheMaskThePathApplied) {
  const Problem p = path_problem("sdpa_is_causal_drops_mask_bias_kv");
  ASSERT_TRUE(torch_path(p.config, p.inputs).attn_mask_dropped);
  const ForwardResult r = forward(p.config, p.params, p.inputs);
  const HeadMeasures m = head_measures(r, p.inputs);
  ASSERT_EQ(m.open_keys.size(), static_cast<std::size_t>(r.N * r.H * r.L));
  for (std::size_t row = 0; row < m.open_keys.size(); ++row) {
    const auto i = static_cast<std::int64_t>(row) % r.L;
    EXPECT_EQ(m.open_keys[row], i + 1) << "row " << row;
  }
  // Blocks of 1: the masked cells, j > i over Sx = 6 columns, 15 per map; from the inputs
  // alone (no pass) and from the result alike.
  const auto maps = r.N * r.H;
  EXPECT_EQ(block_sparsity(p.config, p.params, p.inputs, 1).fully_masked, 15 * maps);
  EXPECT_EQ(block_sparsity(r, 1).fully_masked, 15 * maps);
  // The wrongly shaped (2, 2) mask PyTorch accepts on this path is no error for the measures.
  const Problem wrong = path_problem("sdpa_is_causal_wrong_shape_mask");
  const ForwardResult rw = forward(wrong.config, wrong.params, wrong.inputs);
  EXPECT_NO_THROW((void)head_measures(rw, wrong.inputs));
  EXPECT_NO_THROW((void)block_sparsity(wrong.config, wrong.params, wrong.inputs, 1));
}

// A captured call records the path PyTorch took ("torch_path"); where the configuration leads
// elsewhere (its context edited, or another PyTorch), mhaviz says so and model --check fails.
TEST(TorchPaths, ARecordedPathIsCheckedAgainstTheDecision) {
  Problem p = path_problem("fast_no_mask");
  const PathDecision fast = torch_path(p.config, p.inputs);
  ASSERT_EQ(fast.path, TorchPath::fast);
  p.config.recorded_path = TorchPath::fast;
  EXPECT_FALSE(torch_path(p.config, p.inputs).differs_from_recorded);
  EXPECT_TRUE(torch_path(p.config, p.inputs).warnings.empty());
  p.config.grad_mode = GradMode::enabled;  // the context edited after the capture
  const PathDecision edited = torch_path(p.config, p.inputs);
  EXPECT_TRUE(edited.differs_from_recorded);
  EXPECT_TRUE(any_contains(edited.warnings, "the capture recorded PyTorch's fast path, but this "
                                            "configuration leads to the sdpa path"))
      << ::testing::PrintToString(edited.warnings);
  p.config.semantics = Semantics::v1_13;  // 1.13: the general path only, nothing to compare
  EXPECT_FALSE(torch_path(p.config, p.inputs).differs_from_recorded);
}

TEST(TorchPaths, ContextConfigKeys) {
  const Config d = io::parse_config_json("{}", "c.json");
  EXPECT_TRUE(d.training);  // a fresh module in a script
  EXPECT_EQ(d.grad_mode, GradMode::enabled);
  const Config c =
      io::parse_config_json(R"({"training": false, "grad_mode": "inference_mode"})", "c.json");
  EXPECT_FALSE(c.training);
  EXPECT_EQ(c.grad_mode, GradMode::inference_mode);
  EXPECT_NE(io::config_to_json(c).find(R"("grad_mode": "inference_mode")"), std::string::npos);
  expect_invalid([] { (void)io::parse_config_json(R"({"grad_mode": "off"})", "c.json"); },
                 {"c.json", "\"grad_mode\"", "no_grad", "off"});
  // "torch_path": what a capture saw; written only when recorded.
  EXPECT_FALSE(d.recorded_path.has_value());
  EXPECT_EQ(io::config_to_json(d).find("torch_path"), std::string::npos);
  const Config r = io::parse_config_json(R"({"torch_path": "sdpa"})", "c.json");
  EXPECT_EQ(r.recorded_path, TorchPath::sdpa);
  EXPECT_NE(io::config_to_json(r).find(R"("torch_path": "sdpa")"), std::string::npos);
  expect_invalid([] { (void)io::parse_config_json(R"({"torch_path": "flash"})", "c.json"); },
                 {"c.json", "\"torch_path\"", "fast", "flash"});
}

/// The largest difference from PyTorch 2.6 over every 2.x fixture, by dtype (the report's
/// number; the per-case tests above and test_forward_fixtures.cpp hold the tolerances).
TEST(TorchPaths, LargestDifferenceFromPyTorch2) {
  std::map<DType, double> largest;
  const auto add = [&](const std::filesystem::path& dir, bool intermediates) {
    for (const std::string& name : list_cases(dir)) {
      const FixtureCase fixture = load_case(dir, name);
      const Problem p = make_case_problem(fixture);
      const ForwardResult r = forward(p.config, p.params, p.inputs);
      std::vector<std::pair<std::string, const Tensor*>> pairs = {{"attn_output", &r.attn_output}};
      if (r.attn_output_weights) pairs.emplace_back("attn_output_weights", &*r.attn_output_weights);
      if (intermediates) pairs.emplace_back("weights", &r.weights);
      for (const auto& [key, t] : pairs) {
        const auto it = fixture.expected.find(key);
        if (it == fixture.expected.end()) continue;
        double& m = largest[p.config.dtype];
        m = std::max(m, compare(*t, it->second, p.config.dtype).max_abs);
      }
    }
  };
  add(paths_dir(), false);
  add(paths_dir().parent_path() / "mha", true);
  EXPECT_LT(largest[DType::float32], 1e-4);
  EXPECT_LT(largest[DType::float64], 1e-11);
  std::cout << "largest |mhaviz - PyTorch 2.6|: float32 " << largest[DType::float32] << ", float64 "
            << largest[DType::float64] << "\n";
}

}  // namespace
}  // namespace mhaviz::test
