// attn_mask generation: the presets, custom cells and the per-head biases (ALiBi, graph).
#include <algorithm>
#include <cmath>
#include <limits>

#include "base/rng.hpp"
#include "mask_grid.hpp"
#include "mhaviz/core/gen/mask_pattern.hpp"
#include "mhaviz/core/gen/masks.hpp"

namespace mhaviz::gen {

namespace {

/// Block 0 of a kind whose pattern is the same in every block (causal, window, band, block and
/// the patterns of current practice): every cell masked but the row's unmasked ranges.
void fill_pattern(const MaskPattern& pattern, detail::MaskGrid& g) {
  std::vector<KeyRange> ranges;
  for (std::int64_t i = 0; i < g.L; ++i) {
    const auto row = g.masked.begin() + static_cast<std::ptrdiff_t>(g.at(0, i, 0));
    std::fill(row, row + g.S, std::uint8_t{1});
    pattern.unmasked(i, ranges);
    for (const KeyRange& r : ranges) std::fill(row + r.begin, row + r.end, std::uint8_t{0});
  }
}

void fill_random(const AttnMaskSpec& m, std::uint64_t seed, detail::MaskGrid& g) {
  for (std::int64_t b = 0; b < g.blocks; ++b) {
    mhaviz::detail::Rng rng(seed, static_cast<std::uint64_t>(b));
    for (std::int64_t i = 0; i < g.L; ++i) {
      for (std::int64_t j = 0; j < g.S; ++j) {
        g.masked[g.at(b, i, j)] = rng.uniform() < m.probability ? 1 : 0;
      }
    }
  }
}

void fill_custom(const AttnMaskSpec& m, detail::MaskGrid& g) {
  for (const MaskCell& cell : m.cells) {
    const std::int64_t first = cell.b < 0 ? 0 : cell.b;
    const std::int64_t last = cell.b < 0 ? g.blocks : cell.b + 1;
    for (std::int64_t b = first; b < last; ++b) {
      const std::size_t k = g.at(b, cell.i, cell.j);
      if (m.dtype == MaskDType::boolean) {
        g.masked[k] = cell.value && *cell.value == 0.0 ? 0 : 1;
      } else {
        g.masked[k] = cell.value ? 0 : 1;
        g.added[k] = cell.value.value_or(0.0);
      }
    }
  }
}

/// ALiBi: block b = n*H + h gets -m_(h+1) * |i - j|.
void fill_alibi(const Config& c, detail::MaskGrid& g) {
  const std::vector<double> slopes = alibi_slopes(c.num_heads);
  for (std::int64_t b = 0; b < g.blocks; ++b) {
    const double slope = slopes[static_cast<std::size_t>(b % c.num_heads)];
    for (std::int64_t i = 0; i < g.L; ++i) {
      for (std::int64_t j = 0; j < g.S; ++j) {
        g.added[g.at(b, i, j)] = -slope * static_cast<double>(std::abs(i - j));
      }
    }
  }
}

void apply_causal(detail::MaskGrid& g) {
  for (std::int64_t b = 0; b < g.blocks; ++b) {
    for (std::int64_t i = 0; i < g.L; ++i) {
      for (std::int64_t j = i + 1; j < g.S; ++j) g.masked[g.at(b, i, j)] = 1;
    }
  }
}

}  // namespace

std::vector<double> alibi_slopes(std::int64_t num_heads) {
  // get_slopes of the ALiBi paper's reference implementation (Press et al., 2022).
  const auto power_of_2 = [](std::int64_t n) {
    const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(static_cast<double>(n)) - 3)));
    std::vector<double> s;
    for (std::int64_t i = 0; i < n; ++i)
      s.push_back(start * std::pow(start, static_cast<double>(i)));
    return s;
  };
  if (num_heads < 1) return {};
  std::int64_t closest = 1;
  while (closest * 2 <= num_heads) closest *= 2;
  std::vector<double> slopes = power_of_2(closest);
  if (closest != num_heads) {
    const std::vector<double> doubled = power_of_2(2 * closest);
    for (std::size_t k = 0; k < doubled.size() && std::ssize(slopes) < num_heads; k += 2) {
      slopes.push_back(doubled[k]);
    }
  }
  return slopes;
}

std::uint64_t mask_seed(const Config& c) { return c.attn_mask_spec.seed.value_or(c.seed + 3); }

std::optional<Tensor> make_attn_mask(const Config& c) {
  const AttnMaskSpec& m = c.attn_mask_spec;
  if (m.kind == MaskKind::none) return std::nullopt;
  check_attn_mask_spec(c);
  check_mask_pattern(c);
  const bool three_d = m.shape == MaskShape::three_d;
  detail::MaskGrid g(three_d ? c.batch() * c.num_heads : 1, c.tgt_len, c.src_len,
                     m.dtype == MaskDType::floating);
  switch (m.kind) {
    case MaskKind::causal:
    case MaskKind::window:
    case MaskKind::band:
    case MaskKind::block:
    case MaskKind::prefix_lm:
    case MaskKind::document:
    case MaskKind::dilated:
    case MaskKind::sink:
      fill_pattern(*MaskPattern::of(c), g);
      g.repeat_block_0();
      break;
    case MaskKind::random:
      fill_random(m, mask_seed(c), g);
      break;
    case MaskKind::custom:
      fill_custom(m, g);
      break;
    case MaskKind::alibi:
      fill_alibi(c, g);
      break;
    case MaskKind::graph:
      detail::fill_graph(c, g);
      break;
    case MaskKind::none:
      break;
  }
  if (is_bias_kind(m.kind) && m.causal) apply_causal(g);
  Shape shape = {c.tgt_len, c.src_len};
  if (three_d) shape.insert(shape.begin(), g.blocks);
  return g.to_tensor(std::move(shape), m.dtype, m.masked_value, c.dtype);
}

}  // namespace mhaviz::gen
