// plan_view: full, reduced or refused, the one decision the window and mhaviz-cli export share.

#include <gtest/gtest.h>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/plan/memory.hpp"
#include "mhaviz/core/plan/view_plan.hpp"

namespace mhaviz {
namespace {

Config causal(std::int64_t len, std::int64_t embed, std::int64_t heads) {
  Config c;
  c.embed_dim = embed;
  c.num_heads = heads;
  c.batch_size = 1;
  c.tgt_len = len;
  c.src_len = len;
  c.attn_mask_spec.kind = gen::MaskKind::causal;
  return c;
}

TEST(ViewPlan, SmallConfigurationsAreShownInFull) {
  const Config c = causal(64, 16, 2);
  const ViewPlan plan = plan_view(c, kDefaultMemoryLimit);
  EXPECT_EQ(plan.kind, ViewKind::full);
  EXPECT_EQ(plan.full_bytes, estimate_memory(c));
  EXPECT_TRUE(plan.refusal.empty());
}

TEST(ViewPlan, MapsOverTheLimitAreReducedWhileTheReducedViewFits) {
  const Config c = causal(32768, 512, 8);
  const ViewPlan plan = plan_view(c, kDefaultMemoryLimit);
  EXPECT_EQ(plan.kind, ViewKind::reduced);
  EXPECT_GT(plan.full_bytes, kDefaultMemoryLimit);
  EXPECT_TRUE(plan.refusal.empty());
}

TEST(ViewPlan, RefusedWhenNotEvenTheReducedViewFitsWithTheFullPassMessage) {
  const Config c = causal(32768, 512, 8);
  const std::uint64_t limit = estimate_reduced_memory(c) - 1;
  const ViewPlan plan = plan_view(c, limit);
  EXPECT_EQ(plan.kind, ViewKind::refused);
  try {
    check_memory(c, limit);
    FAIL() << "check_memory accepted a configuration over the limit";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(plan.refusal, e.what());
  }
}

TEST(ViewPlan, TheLimitItselfStillFits) {
  const Config c = causal(256, 32, 4);
  EXPECT_EQ(plan_view(c, estimate_memory(c)).kind, ViewKind::full);
  EXPECT_NE(plan_view(c, estimate_memory(c) - 1).kind, ViewKind::full);
}

}  // namespace
}  // namespace mhaviz
