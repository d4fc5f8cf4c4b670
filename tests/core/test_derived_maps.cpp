// The maps derived on demand (derived_maps.hpp): the merged mask kept at its broadcast shape,
// any rows equal to the same rows of the whole map, scores = raw scores (capped when a cap is
// set) + mask, softmax of the derived scores = the stored weights, and out-of-range requests
// refused.
#include <gtest/gtest.h>

#include <cmath>

#include "gen_test_util.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/derived_maps.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/plan/problem.hpp"
#include "mhaviz/core/spec/soft_cap.hpp"

using mhaviz::Config;
using mhaviz::derived_all;
using mhaviz::derived_rows;
using mhaviz::derived_value;
using mhaviz::DerivedMap;
using mhaviz::ForwardResult;
using mhaviz::Shape;
using mhaviz::Tensor;
using mhaviz::gen::MaskKind;
using mhaviz::gen::MaskShape;
using mhaviz::gen::PaddingKind;

namespace {

ForwardResult run(const Config& c) {
  const mhaviz::Problem p = mhaviz::make_problem(c, {});
  return mhaviz::forward(p.config, p.params, p.inputs);
}

Config sized(std::int64_t L, std::int64_t S) {
  Config c = mhaviz::test::small_config();
  c.tgt_len = L;
  c.src_len = S;
  return c;
}

}  // namespace

TEST(DerivedMaps, MergedMaskKeepsItsBroadcastShape) {
  Config c = sized(5, 6);
  const std::int64_t N = c.batch(), H = c.num_heads, Sx = 6;
  EXPECT_EQ(run(c).merged_mask.numel(), 0) << "no mask: nothing stored";
  c.attn_mask_spec.kind = MaskKind::causal;
  EXPECT_EQ(run(c).merged_mask.shape(), (Shape{1, 1, 5, Sx}));
  c.key_padding_spec.kind = PaddingKind::lengths;
  c.key_padding_spec.valid_lengths = std::vector<std::int64_t>(static_cast<std::size_t>(N), 4);
  EXPECT_EQ(run(c).merged_mask.shape(), (Shape{N, 1, 5, Sx}));
  c.attn_mask_spec.kind = MaskKind::random;
  c.attn_mask_spec.shape = MaskShape::three_d;
  EXPECT_EQ(run(c).merged_mask.shape(), (Shape{N, H, 5, Sx}));
  c.attn_mask_spec.kind = MaskKind::none;
  EXPECT_EQ(run(c).merged_mask.shape(), (Shape{N, 1, 1, Sx}));
}

TEST(DerivedMaps, RowsAnywhereEqualTheWholeMap) {
  // L = 150 spans several of the pass's query tiles; rows 37..121 straddle their borders.
  Config c = sized(150, 70);
  c.attn_mask_spec.kind = MaskKind::causal;
  const ForwardResult r = run(c);
  for (DerivedMap m : {DerivedMap::raw_scores, DerivedMap::mask, DerivedMap::scores}) {
    const Tensor all = derived_all(r, m, 2);
    ASSERT_EQ(all.shape(), (Shape{r.N, r.H, r.L, r.Sx}));
    const Tensor part = derived_rows(r, m, 1, 1, 37, 85);
    ASSERT_EQ(part.shape(), (Shape{85, r.Sx}));
    for (std::int64_t i = 0; i < 85; ++i) {
      for (std::int64_t j = 0; j < r.Sx; ++j) {
        ASSERT_EQ(part.value(i * r.Sx + j), all.value(((1 * r.H + 1) * r.L + 37 + i) * r.Sx + j))
            << derived_map_name(m) << " row " << 37 + i << " col " << j;
      }
    }
  }
}

TEST(DerivedMaps, ScoresAreRawPlusMaskAndGiveTheStoredWeights) {
  Config c = sized(20, 9);
  c.attn_mask_spec.kind = MaskKind::causal;
  const ForwardResult r = run(c);
  for (std::int64_t i = 0; i < r.L; ++i) {
    const Tensor raw = derived_rows(r, DerivedMap::raw_scores, 0, 1, i, 1);
    const Tensor mask = derived_rows(r, DerivedMap::mask, 0, 1, i, 1);
    const Tensor scores = derived_rows(r, DerivedMap::scores, 0, 1, i, 1);
    double mx = -INFINITY, sum = 0;
    for (std::int64_t j = 0; j < r.Sx; ++j) {
      EXPECT_EQ(static_cast<float>(raw.value(j) + mask.value(j)), scores.value(j));
      EXPECT_EQ(mask.value(j), j > i ? -INFINITY : 0.0) << "causal";
      mx = std::max(mx, scores.value(j));
    }
    for (std::int64_t j = 0; j < r.Sx; ++j) sum += std::exp(scores.value(j) - mx);
    for (std::int64_t j = 0; j < r.Sx; ++j) {
      const double w = r.weights.value(((0 * r.H + 1) * r.L + i) * r.Sx + j);
      EXPECT_NEAR(w, std::exp(scores.value(j) - mx) / sum, 1e-6) << i << "," << j;
    }
  }
}

TEST(DerivedMaps, CappedScoresStartTheScoresWhenACapIsSet) {
  // L = 70 spans two of the pass's query tiles.
  Config c = sized(70, 9);
  c.attn_mask_spec.kind = MaskKind::causal;
  c.attn_logit_softcapping = 0.5;
  const ForwardResult r = run(c);
  ASSERT_TRUE(r.has_capped_scores());
  const Tensor raw = derived_all(r, DerivedMap::raw_scores);
  const Tensor capped = derived_all(r, DerivedMap::capped_scores);
  const Tensor mask = derived_all(r, DerivedMap::mask);
  const Tensor scores = derived_all(r, DerivedMap::scores);
  bool differs = false;
  for (std::int64_t k = 0; k < raw.numel(); ++k) {
    const auto x = static_cast<float>(raw.value(k));
    ASSERT_EQ(static_cast<float>(capped.value(k)), mhaviz::soft_capped(x, 0.5F)) << k;
    ASSERT_EQ(static_cast<float>(capped.value(k) + mask.value(k)), scores.value(k)) << k;
    differs = differs || capped.value(k) != raw.value(k);
  }
  EXPECT_TRUE(differs) << "the cap changed some score";
  // The softmax of the derived scores gives the stored weights (row 65, head 1).
  const std::int64_t base = ((0 * r.H + 1) * r.L + 65) * r.Sx;
  double mx = -INFINITY, sum = 0;
  for (std::int64_t j = 0; j < r.Sx; ++j) mx = std::max(mx, scores.value(base + j));
  for (std::int64_t j = 0; j < r.Sx; ++j) sum += std::exp(scores.value(base + j) - mx);
  for (std::int64_t j = 0; j < r.Sx; ++j) {
    EXPECT_NEAR(r.weights.value(base + j), std::exp(scores.value(base + j) - mx) / sum, 1e-6);
  }
  // Without a cap the capped map is the raw scores and the result has no such stage.
  c.attn_logit_softcapping.reset();
  const ForwardResult plain = run(c);
  EXPECT_FALSE(plain.has_capped_scores());
  const Tensor a = derived_all(plain, DerivedMap::capped_scores);
  const Tensor b = derived_all(plain, DerivedMap::raw_scores);
  for (std::int64_t k = 0; k < a.numel(); ++k) ASSERT_EQ(a.value(k), b.value(k)) << k;
}

TEST(DerivedMaps, OutOfRangeIsRefused) {
  const ForwardResult r = run(sized(4, 5));
  EXPECT_THROW((void)derived_rows(r, DerivedMap::scores, r.N, 0, 0, 1), mhaviz::InvalidInput);
  EXPECT_THROW((void)derived_rows(r, DerivedMap::scores, 0, r.H, 0, 1), mhaviz::InvalidInput);
  EXPECT_THROW((void)derived_rows(r, DerivedMap::scores, 0, 0, 3, 2), mhaviz::InvalidInput);
  EXPECT_THROW((void)derived_value(r, DerivedMap::mask, 0, 0, 0, r.Sx), mhaviz::InvalidInput);
  // A result without q and k (a reduced long-context view keeps only weights) derives nothing.
  ForwardResult reduced = r;
  reduced.q = Tensor();
  reduced.k = Tensor();
  EXPECT_THROW((void)derived_rows(reduced, DerivedMap::scores, 0, 0, 0, 1), mhaviz::InvalidInput);
  EXPECT_FALSE(reduced.has_capped_scores());
}
