// The long-context view with generated pattern masks read row by row (make_reduced_problem
// leaves the mask tensor out): every block equals the block of the full weights forward()
// computes from make_problem's mask tensor, masked blocks are exactly 0, fully masked rows
// NaN (or 0 where PyTorch gives 0), over many key chunks and stripes; and the memory estimate
// no longer counts a mask that is never made.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "long_context_check.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/gen/mask_pattern.hpp"
#include "mhaviz/core/gen/masks.hpp"
#include "mhaviz/core/long_context/long_context.hpp"
#include "mhaviz/core/plan/memory.hpp"
#include "mhaviz/core/plan/problem.hpp"

namespace mhaviz {
namespace {

using gen::MaskDType;
using gen::MaskKind;
using gen::MaskShape;

Config base(std::int64_t len, MaskKind kind) {
  Config c;
  c.embed_dim = 16;
  c.num_heads = 2;
  c.batch_size = 1;
  c.tgt_len = len;
  c.src_len = len;
  c.seed = 11;
  c.attn_mask_spec.kind = kind;
  return c;
}

/// The reduced weights from make_reduced_problem against forward() on make_problem's tensors.
void expect_same_as_forward(const Config& c, ReducedRequest req, double tolerance = 1e-6) {
  const Problem full = make_problem(c);
  const ForwardResult r = forward(full.config, full.params, full.inputs);
  const Problem reduced = make_reduced_problem(c);
  const bool pattern = gen::MaskPattern::of(c).has_value();
  EXPECT_EQ(reduced.inputs.attn_mask.has_value(), !pattern && full.inputs.attn_mask.has_value());
  for (const BlockReduce reduce : {BlockReduce::mean, BlockReduce::max}) {
    req.reduce = reduce;
    SCOPED_TRACE(reduce == BlockReduce::mean ? "mean" : "max");
    expect_folds(r, reduced_weights(reduced.config, reduced.params, reduced.inputs, req),
                 tolerance);
    // The mask tensor itself gives the same folds.
    expect_folds(r, reduced_weights(full.config, full.params, full.inputs, req), tolerance);
  }
}

TEST(LongContextPatterns, EveryPatternKindAsTheMaskTensorGivesIt) {
  for (const MaskKind kind :
       {MaskKind::causal, MaskKind::window, MaskKind::band, MaskKind::block, MaskKind::prefix_lm,
        MaskKind::document, MaskKind::dilated, MaskKind::sink}) {
    Config c = base(150, kind);
    c.attn_mask_spec.width = 20;
    c.attn_mask_spec.segments = {40, 70};
    c.attn_mask_spec.prefix_length = 30;
    c.attn_mask_spec.document_lengths = {50, 60, 40};
    c.attn_mask_spec.dilation = 3;
    c.attn_mask_spec.sink_tokens = 4;
    c.attn_mask_spec.causal = kind == MaskKind::document;
    c.attn_mask_spec.masked_value = -5.0;  // ignored by a bool mask: masked cells are -inf
    SCOPED_TRACE(std::string(gen::to_string(kind)));
    ReducedRequest req;
    req.max_rows = 23;  // blocks of 7 x 10 cells: many partly masked blocks
    req.max_cols = 15;
    expect_same_as_forward(c, req);
  }
}

TEST(LongContextPatterns, ManyChunksAndStripesWithLargeScores) {
  // 1300 keys: three key chunks of 512 per stripe of 128 rows, eleven stripes; scaled inputs
  // spread the scores so that later chunks raise a row's maximum (the sums are rescaled).
  Config c = base(1300, MaskKind::causal);
  c.embed_dim = 32;
  c.num_heads = 4;
  c.input_spec.scale = 3.0;
  ReducedRequest req;
  req.max_rows = 160;
  req.max_cols = 140;
  // Weights near 1 (few keys, spread scores), rescaled sums: a few more float ulps than 1e-6.
  expect_same_as_forward(c, req, 2e-6);
}

TEST(LongContextPatterns, ThreeDimensionalFloatMaskPaddingAndAppendedKeys) {
  Config c = base(90, MaskKind::window);
  c.batch_size = 2;
  c.num_heads = 4;
  c.src_len = 80;
  c.attn_mask_spec.width = 12;
  c.attn_mask_spec.shape = MaskShape::three_d;
  c.attn_mask_spec.dtype = MaskDType::floating;
  c.attn_mask_spec.masked_value = -30.0;  // finite: masked cells still get a weight
  c.add_bias_kv = true;
  c.add_zero_attn = true;
  c.key_padding_spec.kind = gen::PaddingKind::lengths;
  c.key_padding_spec.valid_lengths = {80, 55};
  ReducedRequest req;
  req.batch = 1;
  req.max_rows = 13;
  req.max_cols = 11;
  expect_same_as_forward(c, req);
}

TEST(LongContextPatterns, FullyMaskedRowsAreNaNOrZeroAsForward) {
  // Batch element 1 has no valid key and no appended one: its rows are NaN with weights, and
  // 0 on PyTorch 2.x's need_weights=False path.
  for (const bool need_weights : {true, false}) {
    Config c = base(40, MaskKind::causal);
    c.batch_size = 2;
    c.need_weights = need_weights;
    c.key_padding_spec.kind = gen::PaddingKind::lengths;
    c.key_padding_spec.valid_lengths = {40, 0};
    ReducedRequest req;
    req.batch = 1;
    req.max_rows = 8;
    req.max_cols = 8;
    expect_same_as_forward(c, req);
    const Problem p = make_reduced_problem(c);
    const ReducedWeights w = reduced_weights(p.config, p.params, p.inputs, req);
    EXPECT_EQ(std::isnan(w.maps.value(0)), need_weights);
  }
}

TEST(LongContextPatterns, ARowFullyMaskedInOneHeadOnly) {
  // Head 0's query 5 sees no key, head 1's does: with weights it is NaN in head 0 and in the
  // average; on the need_weights=False path it is 0 in head 0 and the average is head 1's / 2.
  for (const bool need_weights : {true, false}) {
    Config c = base(12, MaskKind::custom);
    c.need_weights = need_weights;
    c.attn_mask_spec.shape = MaskShape::three_d;
    for (std::int64_t j = 0; j < 12; ++j) c.attn_mask_spec.cells.push_back({5, j, 0, std::nullopt});
    ReducedRequest req;  // exact cells (a block maximum could hide row 5)
    req.max_rows = 12;
    req.max_cols = 12;
    SCOPED_TRACE(need_weights ? "need_weights" : "need_weights=False");
    expect_same_as_forward(c, req);
  }
}

TEST(LongContextPatterns, ExactCellsOfAZoomAreZeroWhereMasked) {
  const Config c = base(700, MaskKind::causal);
  const Problem full = make_problem(c);
  const ForwardResult r = forward(full.config, full.params, full.inputs);
  const Problem p = make_reduced_problem(c);
  ReducedRequest req;
  req.query_begin = 300, req.query_end = 420;
  req.key_begin = 350, req.key_end = 470;
  req.max_rows = 512;
  req.max_cols = 512;
  const ReducedWeights got = reduced_weights(p.config, p.params, p.inputs, req);
  ASSERT_TRUE(got.exact());
  expect_folds(r, got, 1e-6);
  for (std::int64_t i = 0; i < got.rows; ++i) {
    for (std::int64_t j = 0; j < got.cols; ++j) {
      const bool masked = req.key_begin + j > req.query_begin + i;
      if (masked) {
        ASSERT_EQ(got.maps.value(i * got.cols + j), 0.0) << i << ", " << j;
      }
    }
  }
}

TEST(LongContextPatterns, ARandomMaskIsStillMadeAndMustBeGiven) {
  Config c = base(60, MaskKind::random);
  const Problem p = make_reduced_problem(c);
  ASSERT_TRUE(p.inputs.attn_mask.has_value());
  ReducedRequest req;
  req.max_rows = 9;
  req.max_cols = 9;
  expect_same_as_forward(c, req);
  Inputs without = p.inputs;
  without.attn_mask.reset();
  EXPECT_THROW(reduced_weights(p.config, p.params, without, req), InvalidInput);
}

TEST(LongContextPatterns, PatternSettingsAreCheckedAsForTheTensor) {
  Config c = base(30, MaskKind::prefix_lm);
  c.attn_mask_spec.prefix_length = 31;  // > L
  EXPECT_THROW(make_problem(c), InvalidInput);
  EXPECT_THROW(make_reduced_problem(c), InvalidInput);
  c = base(30, MaskKind::causal);
  c.is_causal = true;  // the generated mask counts as the attn_mask the hint needs
  const Problem p = make_reduced_problem(c);
  EXPECT_NO_THROW(reduced_weights(p.config, p.params, p.inputs, {}));
}

TEST(LongContextPatterns, MemoryEstimateLeavesOutAPatternMask) {
  Config c = base(32768, MaskKind::causal);
  c.embed_dim = 512;
  c.num_heads = 8;
  EXPECT_LT(estimate_reduced_memory(c), 1ULL << 30);  // inputs, keys and queries
  c.attn_mask_spec.shape = MaskShape::three_d;        // a pattern in every block: still never made
  EXPECT_NO_THROW(check_reduced_memory(c));
  c.attn_mask_spec.kind = MaskKind::random;  // 8 GiB of bools: refused
  EXPECT_THROW(check_reduced_memory(c), InvalidInput);
}

}  // namespace
}  // namespace mhaviz
