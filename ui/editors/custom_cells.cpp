#include "editors/custom_cells.hpp"

#include <algorithm>
#include <cmath>

#include "mhaviz/core/gen/masks.hpp"

namespace mhaviz::ui::cells {

namespace {
bool masked(const gen::AttnMaskSpec& spec, const State& s) {
  (void)spec;
  return !s.has_value() || *s != 0.0;
}
}  // namespace

State effective(const gen::AttnMaskSpec& spec, std::int64_t i, std::int64_t j, std::int64_t b) {
  State state = 0.0;
  for (const gen::MaskCell& c : spec.cells) {
    if (c.i == i && c.j == j && (c.b == -1 || c.b == b)) state = c.value;
  }
  return state;
}

bool same(const gen::AttnMaskSpec& spec, const State& a, const State& b) {
  if (spec.dtype == gen::MaskDType::boolean) return masked(spec, a) == masked(spec, b);
  return a == b;
}

State toggled(const gen::AttnMaskSpec& spec, const State& current, const State& brush) {
  if (spec.dtype == gen::MaskDType::boolean) return masked(spec, current) ? State(0.0) : State();
  return current == brush ? State(0.0) : brush;
}

void set(gen::AttnMaskSpec& spec, std::int64_t i, std::int64_t j, std::int64_t b,
         const State& state) {
  std::erase_if(spec.cells,
                [&](const gen::MaskCell& c) { return c.i == i && c.j == j && c.b == b; });
  if (same(spec, effective(spec, i, j, b), state)) return;
  spec.cells.push_back(gen::MaskCell{i, j, b, state});
}

void clear(gen::AttnMaskSpec& spec, std::int64_t b) {
  if (b < 0) {
    spec.cells.clear();
    return;
  }
  std::erase_if(spec.cells, [b](const gen::MaskCell& c) { return c.b == b; });
}

void invert(gen::AttnMaskSpec& spec, std::int64_t L, std::int64_t S, std::int64_t b) {
  for (std::int64_t i = 0; i < L; ++i) {
    for (std::int64_t j = 0; j < S; ++j) {
      const State now = effective(spec, i, j, b);
      set(spec, i, j, b, masked(spec, now) ? State(0.0) : State());
    }
  }
}

void fillRow(gen::AttnMaskSpec& spec, std::int64_t i, std::int64_t S, std::int64_t b,
             const State& state) {
  for (std::int64_t j = 0; j < S; ++j) set(spec, i, j, b, state);
}

void fillColumn(gen::AttnMaskSpec& spec, std::int64_t j, std::int64_t L, std::int64_t b,
                const State& state) {
  for (std::int64_t i = 0; i < L; ++i) set(spec, i, j, b, state);
}

std::optional<gen::AttnMaskSpec> fromPattern(const mhaviz::Config& config, std::size_t limit,
                                             std::size_t* needed) {
  gen::AttnMaskSpec out = config.attn_mask_spec;
  *needed = out.kind == gen::MaskKind::custom ? out.cells.size() : 0;
  if (out.kind == gen::MaskKind::custom) return out;
  out.kind = gen::MaskKind::custom;
  out.cells.clear();
  const std::optional<Tensor> mask = gen::make_attn_mask(config);
  if (!mask) return out;
  const std::int64_t L = mask->size(-2);
  const std::int64_t S = mask->size(-1);
  const std::int64_t blocks = mask->dim() == 3 ? mask->size(0) : 1;
  const bool boolean = mask->type() == ElemType::boolean;
  const double maskedValue = out.masked_value;
  // What cell k of the mask holds as a custom cell: masked (nullopt), a value, or nothing (0).
  const auto stateAt = [&](std::int64_t k) -> std::optional<State> {
    const double v = mask->value(k);
    if (v == 0.0) return std::nullopt;
    if (boolean || v == maskedValue || (std::isinf(v) && v < 0)) return State();
    return State(v);
  };
  bool sameBlocks = true;
  for (std::int64_t k = L * S; k < blocks * L * S && sameBlocks; ++k) {
    sameBlocks = mask->value(k) == mask->value(k % (L * S));
  }
  const std::int64_t listed = sameBlocks ? 1 : blocks;
  std::size_t count = 0;
  for (std::int64_t k = 0; k < listed * L * S; ++k) count += stateAt(k).has_value() ? 1 : 0;
  *needed = count;
  if (count > limit) return std::nullopt;
  out.cells.reserve(count);
  for (std::int64_t k = 0; k < listed * L * S; ++k) {
    const std::optional<State> state = stateAt(k);
    if (!state) continue;
    const std::int64_t b = sameBlocks ? -1 : k / (L * S);
    const std::int64_t cell = k % (L * S);
    out.cells.push_back(gen::MaskCell{cell / S, cell % S, b, *state});
  }
  return out;
}

}  // namespace mhaviz::ui::cells
