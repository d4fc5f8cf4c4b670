// The long-context view (mhaviz/core/long_context/long_context.hpp): block means and maxima equal
// those of the full weights forward() computes, a region small enough gives the exact cells, every
// mask and key layout is read as forward() reads it, cancellation stops, bad requests are named,
// and the memory estimate switches to the reduced view for L = S = 32768.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "long_context_check.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/long_context/long_context.hpp"
#include "mhaviz/core/plan/memory.hpp"
#include "mhaviz/core/plan/problem.hpp"

namespace mhaviz {
namespace {

using gen::MaskDType;
using gen::MaskKind;
using gen::MaskShape;

Config base(std::int64_t len) {
  Config c;
  c.embed_dim = 16;
  c.num_heads = 2;
  c.batch_size = 1;
  c.tgt_len = len;
  c.src_len = len;
  c.seed = 7;
  c.attn_mask_spec.kind = MaskKind::causal;
  return c;
}

struct FullRun {
  ForwardResult full;
  Problem problem;
};
FullRun full_run(const Config& c) {
  Problem p = make_problem(c);
  ForwardResult r = forward(p.config, p.params, p.inputs);
  return {std::move(r), std::move(p)};
}

TEST(LongContext, BlockMeansAndMaximaEqualTheFullWeights) {
  const FullRun run = full_run(base(300));
  for (const BlockReduce reduce : {BlockReduce::mean, BlockReduce::max}) {
    ReducedRequest req;
    req.max_rows = 37;  // a small screen: 300 rows become 34 blocks of 9 (the last of 3)
    req.max_cols = 20;
    req.reduce = reduce;
    const ReducedWeights got =
        reduced_weights(run.problem.config, run.problem.params, run.problem.inputs, req);
    EXPECT_EQ(got.block_rows, 9);
    EXPECT_EQ(got.block_cols, 15);
    EXPECT_EQ(got.rows, 34);
    EXPECT_EQ(got.cols, 20);
    EXPECT_FALSE(got.exact());
    EXPECT_EQ(got.description(),
              reduce == BlockReduce::mean ? "block mean of 9x15 cells" : "block max of 9x15 cells");
    expect_folds(run.full, got, 1e-6);
  }
}

TEST(LongContext, ZoomedRegionGivesTheExactCells) {
  const FullRun run = full_run(base(300));
  ReducedRequest req;
  req.query_begin = 120, req.query_end = 181;
  req.key_begin = 90, req.key_end = 150;
  req.max_rows = 64;
  req.max_cols = 64;
  const ReducedWeights got =
      reduced_weights(run.problem.config, run.problem.params, run.problem.inputs, req);
  ASSERT_TRUE(got.exact());
  EXPECT_EQ(got.description(), "exact cells");
  EXPECT_EQ(got.rows, 61);
  EXPECT_EQ(got.cols, 60);
  expect_folds(run.full, got, 1e-6);
  // Causal: key 149 of query 120 is masked, key 149 of query 150 is not.
  EXPECT_LT(got.maps.value((1 * got.rows + 0) * got.cols + 59), 1e-30);
  EXPECT_GT(got.maps.value((1 * got.rows + 30) * got.cols + 59), 0.0);
}

TEST(LongContext, OneHeadOfOneBatchElementWithPaddingAndBiasKeys) {
  Config c = base(70);
  c.batch_size = 3;
  c.num_heads = 4;
  c.add_bias_kv = true;
  c.add_zero_attn = true;
  c.attn_mask_spec.kind = MaskKind::window;
  c.attn_mask_spec.width = 9;
  c.key_padding_spec.kind = gen::PaddingKind::lengths;
  c.key_padding_spec.valid_lengths = {70, 50, 33};
  const FullRun run = full_run(c);
  ReducedRequest req;
  req.batch = 2;
  req.head = 3;
  req.max_rows = 16;
  req.max_cols = 16;
  const ReducedWeights got =
      reduced_weights(run.problem.config, run.problem.params, run.problem.inputs, req);
  EXPECT_EQ(got.heads, std::vector<std::int64_t>{3});
  EXPECT_EQ(got.average.dim(), 0);
  EXPECT_EQ(got.key_end, 72);  // S + bias_k + zero key
  expect_folds(run.full, got, 1e-6);
}

TEST(LongContext, FloatThreeDimensionalMasksBatchFirstAndDouble) {
  Config c = base(45);
  c.num_heads = 4;
  c.batch_size = 2;
  c.batch_first = true;
  c.dtype = DType::float64;
  c.src_len = 38;
  c.attn_mask_spec.kind = MaskKind::alibi;
  c.attn_mask_spec.dtype = MaskDType::floating;
  c.attn_mask_spec.shape = MaskShape::three_d;
  const FullRun run = full_run(c);
  ReducedRequest req;
  req.batch = 1;
  req.max_rows = 10;
  req.max_cols = 7;
  req.reduce = BlockReduce::max;
  expect_folds(run.full,
               reduced_weights(run.problem.config, run.problem.params, run.problem.inputs, req),
               1e-12);
}

TEST(LongContext, UnbatchedWithoutMask) {
  Config c = base(33);
  c.batch_size.reset();
  c.attn_mask_spec.kind = MaskKind::none;
  const FullRun run = full_run(c);
  ReducedRequest req;
  req.max_rows = 5;
  req.max_cols = 5;
  expect_folds(run.full,
               reduced_weights(run.problem.config, run.problem.params, run.problem.inputs, req),
               1e-6);
}

TEST(LongContext, CancellationStops) {
  const FullRun run = full_run(base(300));
  std::atomic<bool> cancel{false};
  std::int64_t calls = 0, total = 0;
  RunControl control;
  control.cancel = &cancel;
  control.threads = 1;
  control.progress = [&](std::int64_t done, std::int64_t all) {
    calls = done;
    total = all;
    cancel = true;  // the user presses Esc after the first stripe
  };
  ReducedRequest req;
  req.max_rows = 300;
  req.max_cols = 300;
  EXPECT_THROW(
      reduced_weights(run.problem.config, run.problem.params, run.problem.inputs, req, control),
      Cancelled);
  EXPECT_EQ(calls, 1);
  EXPECT_GT(total, 1);
}

TEST(LongContext, BadRequestsAreNamed) {
  const FullRun run = full_run(base(30));
  const auto message = [&](ReducedRequest req) -> std::string {
    try {
      reduced_weights(run.problem.config, run.problem.params, run.problem.inputs, req);
    } catch (const InvalidInput& e) {
      return e.what();
    }
    return "";
  };
  ReducedRequest req;
  req.query_begin = 10, req.query_end = 40;
  EXPECT_EQ(
      message(req),
      "query rows 10:40 are not a range of the queries 0:30 (give A:B with 0 <= A < B <= 30)");
  req = {};
  req.key_begin = 5, req.key_end = 5;
  EXPECT_NE(message(req).find("key columns 5:5"), std::string::npos);
  req = {};
  req.head = 2;
  EXPECT_EQ(message(req), "head 2 does not exist: num_heads is 2 (heads 0 to 1)");
  Config c = base(30);
  c.training = true;
  c.dropout = 0.1;
  const Problem p = make_problem(c);
  EXPECT_THROW(reduced_weights(p.config, p.params, p.inputs, {}), InvalidInput);
}

TEST(LongContext, MemoryEstimateSwitchesToTheReducedView) {
  Config c = base(32768);
  c.embed_dim = 512;
  c.num_heads = 8;
  EXPECT_TRUE(needs_reduced_view(c));
  const std::uint64_t reduced = estimate_reduced_memory(c);
  EXPECT_LT(reduced, 1ULL << 30);  // inputs, queries and keys; the causal mask is never made
  EXPECT_GT(reduced, 256ULL << 20);
  EXPECT_NO_THROW(check_reduced_memory(c));
  EXPECT_THROW(check_reduced_memory(c, 256ULL << 20), InvalidInput);
  EXPECT_FALSE(needs_reduced_view(base(300)));
}

}  // namespace
}  // namespace mhaviz
