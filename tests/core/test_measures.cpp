// mhaviz::head_measures, head_average and value_norms against tests/fixtures/measures, which
// tests/fixtures/make_measure_fixtures.py computes with torch from the PyTorch cases of
// tests/fixtures/mha (one test per case; a new case is picked up automatically).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "fixture_case.hpp"
#include "mhaviz/core/analysis/logit_scale.hpp"
#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/analysis/sink.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/gen/inputs.hpp"
#include "mhaviz/core/gen/weights.hpp"
#include "mhaviz/core/io/npz.hpp"

namespace mhaviz::test {
namespace {

std::filesystem::path measure_dir() {
  return std::filesystem::path(MHAVIZ_FIXTURE_DIR) / "measures";
}

std::vector<std::string> measure_cases() {
  std::vector<std::string> names;
  if (!std::filesystem::exists(measure_dir())) return names;
  for (const auto& e : std::filesystem::directory_iterator(measure_dir())) {
    if (e.path().extension() == ".npz") names.push_back(e.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

struct Tol {
  double abs, rel;
};

::testing::AssertionResult same(const std::string& what, const std::vector<double>& actual,
                                const Tensor& expected, Tol tol) {
  if (static_cast<std::int64_t>(actual.size()) != expected.numel()) {
    return ::testing::AssertionFailure()
           << what << ": " << actual.size() << " values, expected " << expected.numel();
  }
  for (std::size_t k = 0; k < actual.size(); ++k) {
    const double a = actual[k];
    const double e = expected.value(static_cast<std::int64_t>(k));
    const bool ok = std::isnan(e)
                        ? std::isnan(a)
                        : !std::isnan(a) && std::abs(a - e) <= tol.abs + tol.rel * std::abs(e);
    if (!ok) {
      return ::testing::AssertionFailure()
             << what << "[" << k << "] = " << a << ", PyTorch reference " << e;
    }
  }
  return ::testing::AssertionSuccess();
}

std::vector<double> values_of(const Tensor& t) {
  std::vector<double> v(static_cast<std::size_t>(t.numel()));
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = t.value(static_cast<std::int64_t>(k));
  return v;
}

class MeasureFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(MeasureFixture, MatchesTorchDefinitions) {
  const FixtureCase fixture = load_case(fixture_dir(), GetParam());
  const io::TensorMap ref = io::read_npz(measure_dir() / (GetParam() + ".npz"));
  const Problem problem = make_case_problem(fixture);
  const ForwardResult r = forward(problem.config, problem.params, problem.inputs);
  const HeadMeasures m = head_measures(r, problem.inputs);
  const Tol tol = problem.config.dtype == DType::float64 ? Tol{1e-10, 1e-9} : Tol{2e-5, 2e-4};

  std::vector<double> open(m.open_keys.begin(), m.open_keys.end());
  EXPECT_TRUE(same("open_keys", open, ref.at("open_keys"), Tol{0, 0}));
  EXPECT_TRUE(same("entropy", m.entropy, ref.at("entropy"), tol));
  EXPECT_TRUE(same("normalized_entropy", m.normalized_entropy, ref.at("normalized_entropy"), tol));
  EXPECT_TRUE(same("confidence", m.confidence, ref.at("confidence"), tol));
  EXPECT_TRUE(same("first_key", m.first_key, ref.at("first_key"), tol));
  EXPECT_TRUE(same("bias_k", m.bias_k, ref.at("bias_k"), tol));
  EXPECT_TRUE(same("zero", m.zero, ref.at("zero"), tol));
  EXPECT_TRUE(same("ablation", m.ablation, ref.at("ablation"), tol));
  std::vector<double> nothing(m.bias_k.size());
  for (std::size_t k = 0; k < nothing.size(); ++k) nothing[k] = m.bias_k[k] + m.zero[k];
  EXPECT_TRUE(same("nothing (1 - weight on real keys)", nothing, ref.at("nothing"), tol));

  // Head averages: rows 0..N-1 per batch element, row N over all of them.
  std::vector<double> avg[7];
  for (std::int64_t n = 0; n <= m.N; ++n) {
    for (std::int64_t h = 0; h < m.H; ++h) {
      const HeadAverage a = head_average(m, r, n == m.N ? -1 : n, h);
      const double vals[7] = {
          a.entropy, a.normalized_entropy, a.confidence, a.first_key, a.bias_k, a.zero, a.ablation};
      for (int k = 0; k < 7; ++k) avg[k].push_back(vals[k]);
    }
  }
  const char* names[7] = {
      "entropy", "normalized_entropy", "confidence", "first_key", "bias_k", "zero", "ablation"};
  for (int k = 0; k < 7; ++k) {
    const std::string key = std::string("avg.") + names[k];
    EXPECT_TRUE(same(key, avg[k], ref.at(key), tol));
  }

  const ValueNorms vn = value_norms(r);
  EXPECT_EQ(vn.per_head.shape(), ref.at("value_norms.per_head").shape());
  EXPECT_TRUE(
      same("value_norms.per_head", values_of(vn.per_head), ref.at("value_norms.per_head"), tol));
  EXPECT_TRUE(same("value_norms.summed", values_of(vn.summed), ref.at("value_norms.summed"), tol));

  // Logit scale: from the parameters alone, in double (float weights widen exactly).
  const std::vector<double> ls =
      logit_scales(problem.params, problem.config.embed_dim, problem.config.num_heads);
  EXPECT_TRUE(same("logit_scale", ls, ref.at("logit_scale"), Tol{1e-10, 1e-9}));

  // Sink scores (Gu et al. 2024): mean weight per key over the queries with an open key.
  const SinkScores sk = sink_scores(r);
  EXPECT_TRUE(same("sink.score", sk.score, ref.at("sink.score"), tol));
  std::vector<double> queries(sk.queries.begin(), sk.queries.end());
  EXPECT_TRUE(same("sink.queries", queries, ref.at("sink.queries"), Tol{0, 0}));

  // Value zeroing: against torch rerunning the layer with each value vector zeroed.
  const ValueZeroing vz = value_zeroing(r);
  EXPECT_EQ(vz.cosine.shape(), ref.at("value_zeroing.cosine").shape());
  EXPECT_TRUE(
      same("value_zeroing.cosine", values_of(vz.cosine), ref.at("value_zeroing.cosine"), tol));
  EXPECT_TRUE(same("value_zeroing.relative_l2", values_of(vz.relative_l2),
                   ref.at("value_zeroing.relative_l2"), tol));
}

INSTANTIATE_TEST_SUITE_P(Torch, MeasureFixture, ::testing::ValuesIn(measure_cases()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

TEST(Measures, CasesExist) { EXPECT_GE(measure_cases().size(), 30u); }

// The zero column gets weight but contributes nothing; bias_v's column contributes
// f = bias_v W_O^h, so its norm is that of bias_v's head slice times W_O^h.
TEST(Measures, ZeroColumnHasNoValueNormAndBiasVDoes) {
  const FixtureCase fixture = load_case(fixture_dir(), "bias_kv_and_zero_attn");
  const Problem problem = make_case_problem(fixture);
  const ForwardResult r = forward(problem.config, problem.params, problem.inputs);
  const HeadMeasures m = head_measures(r, problem.inputs);
  const ValueNorms vn = value_norms(r);
  ASSERT_TRUE(m.has_zero && m.has_bias_k);
  const std::int64_t jz = r.Sx - 1, jb = r.Sx - 2;
  bool zero_weighted = false;
  for (std::int64_t n = 0; n < r.N; ++n) {
    for (std::int64_t h = 0; h < r.H; ++h) {
      EXPECT_EQ(vn.f_norms.value((n * r.H + h) * r.Sx + jz), 0.0);
      EXPECT_GT(vn.f_norms.value((n * r.H + h) * r.Sx + jb), 0.0);
      for (std::int64_t i = 0; i < r.L; ++i) {
        zero_weighted = zero_weighted || m.zero[m.at(n, h, i)] > 0.3;
        EXPECT_EQ(vn.per_head.value(((n * r.H + h) * r.L + i) * r.Sx + jz), 0.0);
      }
    }
  }
  EXPECT_TRUE(zero_weighted) << "the case should put large weight on the zero column";

  // Value zeroing: zeroing the zero column's value changes nothing, exactly; bias_v's does.
  const ValueZeroing vz = value_zeroing(r);
  bool bias_changes = false;
  for (std::int64_t n = 0; n < r.N; ++n) {
    for (std::int64_t i = 0; i < r.L; ++i) {
      EXPECT_EQ(vz.cosine.value((n * r.L + i) * r.Sx + jz), 0.0);
      EXPECT_EQ(vz.relative_l2.value((n * r.L + i) * r.Sx + jz), 0.0);
      bias_changes = bias_changes || vz.relative_l2.value((n * r.L + i) * r.Sx + jb) > 0.0;
    }
  }
  EXPECT_TRUE(bias_changes);
}

// One open key: entropy 0 and normalised entropy defined as 0; no open key: NaN.
TEST(Measures, OneAndZeroOpenKeys) {
  Config c;
  c.embed_dim = 4;
  c.num_heads = 1;
  c.batch_size = 1;
  c.tgt_len = 2;
  c.src_len = 3;
  const Params p = init_params(c);
  Inputs in = random_inputs(c);
  in.attn_mask = Tensor::from_bools({2, 3}, {0, 1, 1, 1, 1, 1});
  const ForwardResult r = forward(c, p, in);
  const HeadMeasures m = head_measures(r, in);
  EXPECT_EQ(m.open_keys[0], 1);
  EXPECT_EQ(m.entropy[0], 0.0);
  EXPECT_EQ(m.normalized_entropy[0], 0.0);
  EXPECT_EQ(m.confidence[0], 1.0);
  EXPECT_EQ(m.open_keys[1], 0);
  EXPECT_TRUE(std::isnan(m.entropy[1]) && std::isnan(m.normalized_entropy[1]) &&
              std::isnan(m.confidence[1]));
  const HeadAverage a = head_average(m, r, 0, 0);
  EXPECT_EQ(a.queries, 1);
  EXPECT_EQ(a.entropy, 0.0);
}

TEST(Measures, MasksOfAnotherResultAreRejected) {
  Config c;
  c.embed_dim = 4;
  c.num_heads = 2;
  c.batch_size = 1;
  c.tgt_len = 2;
  c.src_len = 3;
  const ForwardResult r = forward(c, init_params(c), random_inputs(c));
  Inputs other = random_inputs(c);
  other.attn_mask = Tensor::from_bools({2, 2}, {0, 1, 0, 0});
  EXPECT_THROW((void)head_measures(r, other), InvalidInput);
}

// Bit for bit: the same bytes (NaN included).
bool identical(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}
bool identical(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool identical(const Tensor& a, const Tensor& b) {
  const auto x = a.bytes(), y = b.bytes();
  return a.shape() == b.shape() && std::equal(x.begin(), x.end(), y.begin(), y.end());
}

// measure_result shares its blocks among threads: the numbers do not depend on how many, bit for
// bit, and equal head_measures / head_average / value_norms called one by one; a cancel flag that
// reads true stops it with Cancelled.
TEST(Measures, ThreadCountChangesNothingAndCancelStops) {
  Config c;
  c.embed_dim = 16;
  c.num_heads = 4;
  c.batch_size = 3;
  c.tgt_len = 37;
  c.src_len = 29;
  c.add_zero_attn = true;
  const Params p = init_params(c);
  Inputs in = random_inputs(c);
  std::vector<std::uint8_t> padding(3 * 29, 0);
  for (int j = 20; j < 29; ++j) padding[static_cast<std::size_t>(29 + j)] = 1;  // element 1
  in.key_padding_mask = Tensor::from_bools({3, 29}, padding);
  const ForwardResult r = forward(c, p, in);
  RunControl one;
  one.threads = 1;
  RunControl four;
  four.threads = 4;
  const ResultMeasures a = measure_result(r, in, one);
  const ResultMeasures b = measure_result(r, in, four);
  const HeadMeasures ref = head_measures(r, in);
  for (const ResultMeasures* m : {&a, &b}) {
    EXPECT_EQ(m->head.open_keys, ref.open_keys);
    EXPECT_TRUE(identical(m->head.entropy, ref.entropy));
    EXPECT_TRUE(identical(m->head.normalized_entropy, ref.normalized_entropy));
    EXPECT_TRUE(identical(m->head.confidence, ref.confidence));
    EXPECT_TRUE(identical(m->head.first_key, ref.first_key));
    EXPECT_TRUE(identical(m->head.zero, ref.zero));
    EXPECT_TRUE(identical(m->head.ablation, ref.ablation));
    ASSERT_EQ(m->averages.size(), static_cast<std::size_t>((r.N + 1) * r.H));
    for (std::int64_t n = -1; n < r.N; ++n) {
      for (std::int64_t h = 0; h < r.H; ++h) {
        const HeadAverage want = head_average(ref, r, n, h);
        const HeadAverage& got = m->average(n, h);
        EXPECT_EQ(got.queries, want.queries);
        EXPECT_TRUE(identical(got.entropy, want.entropy)) << n << " " << h;
        EXPECT_TRUE(identical(got.confidence, want.confidence)) << n << " " << h;
        EXPECT_TRUE(identical(got.ablation, want.ablation)) << n << " " << h;
      }
    }
    ASSERT_TRUE(m->norms.has_value());
    const ValueNorms vn = value_norms(r);
    EXPECT_TRUE(identical(m->norms->per_head, vn.per_head));
    EXPECT_TRUE(identical(m->norms->summed, vn.summed));
    EXPECT_TRUE(identical(m->norms->f_norms, vn.f_norms));
  }
  const std::atomic<bool> stop{true};
  RunControl cancelled;
  cancelled.cancel = &stop;
  cancelled.threads = 2;
  EXPECT_THROW((void)measure_result(r, in, cancelled), Cancelled);
}

// A cancel is seen within a few rows, not at the end of a head: with one head of 1024 queries
// and one thread, a cancel set when the first block of the measures has been done ends
// measure_result before a second block, and that block held a small share of the head's rows.
TEST(Measures, CancelIsSeenWithinAFewRows) {
  Config c;
  c.embed_dim = 16;
  c.num_heads = 1;
  c.batch_size = 1;
  c.tgt_len = 1024;
  c.src_len = 64;
  const Params p = init_params(c);
  const Inputs in = random_inputs(c);
  const ForwardResult r = forward(c, p, in);
  std::atomic<bool> stop{false};
  int calls = 0;
  std::int64_t blocks = 0;
  RunControl control;
  control.threads = 1;
  control.cancel = &stop;
  control.progress = [&](std::int64_t, std::int64_t total) {
    ++calls;
    blocks = total;
    stop = true;
  };
  EXPECT_THROW((void)measure_result(r, in, control), Cancelled);
  EXPECT_EQ(calls, 1);                // no block after the cancel
  EXPECT_GE(blocks, c.tgt_len / 64);  // a block is at most 64 of the head's 1024 rows
}

}  // namespace
}  // namespace mhaviz::test
