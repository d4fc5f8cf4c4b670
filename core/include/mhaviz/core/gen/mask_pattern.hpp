#pragma once
/// \file
/// The attn_mask kinds whose cells follow a rule of (query i, key j) alone — causal, window,
/// band, block and the patterns of current practice — as the unmasked ranges of each row.
/// make_attn_mask fills its tensor from them; the long-context pass reads rows from them
/// without ever holding the mask (a 32768-token causal mask holds 1 GiB of bools).

#include <cstdint>
#include <optional>
#include <vector>

#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::gen {

/// Keys [begin, end) of one row.
struct KeyRange {
  std::int64_t begin = 0, end = 0;
  bool operator==(const KeyRange&) const = default;
};

/// One pattern kind's rule, the same for every (n, h) block of a 3-D mask.
class MaskPattern {
 public:
  /// The pattern of config.attn_mask_spec, or nullopt for a kind that is not one (none,
  /// random, custom, alibi, graph). Does not check the spec (make_attn_mask does).
  static std::optional<MaskPattern> of(const Config& config);

  /// Row i's unmasked keys as sorted, disjoint, non-empty ranges within [0, S), appended
  /// to `out` after clearing it.
  void unmasked(std::int64_t i, std::vector<KeyRange>& out) const;
  /// One range holding every unmasked key of row i (empty when the row is fully masked).
  [[nodiscard]] KeyRange hull(std::int64_t i) const;

  [[nodiscard]] std::int64_t L() const { return L_; }
  [[nodiscard]] std::int64_t S() const { return S_; }

 private:
  explicit MaskPattern(const Config& config);
  /// Start and end of the segment holding position p, for segment sizes `sizes` (positions
  /// past their sum share one last, unbounded segment).
  [[nodiscard]] static KeyRange segment_of(std::int64_t p, const std::vector<std::int64_t>& sizes);

  gen::AttnMaskSpec spec_;
  std::int64_t L_ = 0, S_ = 0;
};

}  // namespace mhaviz::gen
