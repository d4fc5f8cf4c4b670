#include "mhaviz/core/plan/view_plan.hpp"

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/plan/memory.hpp"

namespace mhaviz {

ViewPlan plan_view(const Config& config, std::uint64_t limit, std::int64_t static_src_len) {
  ViewPlan plan;
  plan.full_bytes = estimate_memory(config, static_src_len);
  if (plan.full_bytes <= limit) return plan;
  if (estimate_reduced_memory(config, 2, static_src_len) <= limit) {
    plan.kind = ViewKind::reduced;
    return plan;
  }
  plan.kind = ViewKind::refused;
  try {
    check_memory(config, limit, static_src_len);
  } catch (const InvalidInput& e) {
    plan.refusal = e.what();
  }
  return plan;
}

}  // namespace mhaviz
