#include "editors/custom_cells.hpp"

#include <algorithm>

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

}  // namespace mhaviz::ui::cells
