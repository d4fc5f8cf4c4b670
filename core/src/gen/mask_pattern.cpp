// The pattern kinds of attn_mask as unmasked key ranges per row (gen/mask_pattern.hpp).
#include "mhaviz/core/gen/mask_pattern.hpp"

#include <algorithm>
#include <limits>

namespace mhaviz::gen {

namespace {
constexpr std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max() / 4;
}  // namespace

std::optional<MaskPattern> MaskPattern::of(const Config& config) {
  switch (config.attn_mask_spec.kind) {
    case MaskKind::causal:
    case MaskKind::window:
    case MaskKind::band:
    case MaskKind::block:
    case MaskKind::prefix_lm:
    case MaskKind::document:
    case MaskKind::dilated:
    case MaskKind::sink:
      return MaskPattern(config);
    default:
      return std::nullopt;
  }
}

MaskPattern::MaskPattern(const Config& config)
    : spec_(config.attn_mask_spec), L_(config.tgt_len), S_(config.src_len) {}

KeyRange MaskPattern::segment_of(std::int64_t p, const std::vector<std::int64_t>& sizes) {
  std::int64_t begin = 0;
  for (const std::int64_t size : sizes) {
    if (p < begin + size) return {begin, begin + size};
    begin += size;
  }
  return {begin, kUnbounded};
}

void MaskPattern::unmasked(std::int64_t i, std::vector<KeyRange>& out) const {
  out.clear();
  const auto add = [&](std::int64_t begin, std::int64_t end) {
    begin = std::max<std::int64_t>(begin, 0);
    end = std::min(end, S_);
    if (begin >= end) return;
    if (!out.empty() && begin <= out.back().end) {  // touching or overlapping: one range
      out.back().end = std::max(out.back().end, end);
    } else {
      out.push_back({begin, end});
    }
  };
  const AttnMaskSpec& m = spec_;
  switch (m.kind) {
    case MaskKind::causal:  // j <= i
      add(0, i + 1);
      break;
    case MaskKind::window:  // i - width < j <= i
      add(i - m.width + 1, i + 1);
      break;
    case MaskKind::band:  // |i - j| < width
      add(i - m.width + 1, i + m.width);
      break;
    case MaskKind::block: {  // the same segment
      const KeyRange s = segment_of(i, m.segments);
      add(s.begin, s.end);
      break;
    }
    case MaskKind::prefix_lm:  // j <= i or j < prefix_length
      add(0, std::max(i + 1, m.prefix_length));
      break;
    case MaskKind::document: {  // the same document (and j <= i when causal)
      const KeyRange s = segment_of(i, m.document_lengths);
      add(s.begin, m.causal ? std::min(s.end, i + 1) : s.end);
      break;
    }
    case MaskKind::dilated: {  // |i - j| (i - j when causal) = k * dilation, k < width
      const std::int64_t d = m.dilation;
      const std::int64_t reach = (m.width - 1) * d;
      const std::int64_t last = m.causal ? i : i + reach;
      if (d == 1) {
        add(i - reach, last + 1);
      } else {
        for (std::int64_t j = i - reach; j <= last; j += d) add(j, j + 1);
      }
      break;
    }
    case MaskKind::sink:  // j <= i and (j < sink_tokens or i - j < width)
      add(0, std::min(m.sink_tokens, i + 1));
      add(i - m.width + 1, i + 1);
      break;
    default:
      break;
  }
}

KeyRange MaskPattern::hull(std::int64_t i) const {
  std::vector<KeyRange> ranges;
  unmasked(i, ranges);
  if (ranges.empty()) return {0, 0};
  return {ranges.front().begin, ranges.back().end};
}

}  // namespace mhaviz::gen
