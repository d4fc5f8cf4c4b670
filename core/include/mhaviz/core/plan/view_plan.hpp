#pragma once
/// \file
/// How a configuration is shown: every map in full, the reduced long-context view, or not at
/// all. The one place that decides it; the window and `mhaviz-cli export` both ask here.

#include <cstdint>
#include <string>

#include "mhaviz/core/spec/config.hpp"

namespace mhaviz {

enum class ViewKind : std::uint8_t {
  full,     ///< every map of the forward pass fits the memory limit
  reduced,  ///< the maps do not fit; the reduced view (long_context.hpp) does
  refused   ///< not even the reduced view fits
};

struct ViewPlan {
  ViewKind kind = ViewKind::full;
  /// Peak bytes of the full pass (estimate_memory), whatever the kind.
  std::uint64_t full_bytes = 0;
  /// Why it is refused: check_memory's message (what the user can change first); empty
  /// unless kind is refused.
  std::string refusal;
};

/// The plan for `config` under `limit` bytes (static_src_len as in estimate_memory). Does not
/// validate the arguments: call validate_config first where they may be wrong.
ViewPlan plan_view(const Config& config, std::uint64_t limit, std::int64_t static_src_len = -1);

}  // namespace mhaviz
