#pragma once
// Editing operations on a custom attn_mask's cell list (AttnMaskSpec::cells), as the grid editor
// performs them. A cell's state is std::optional<double>: nullopt = masked (bool True, float
// masked_value), a value = what a float mask adds there (0 = nothing; bool masks treat any
// non-zero value as masked). Cells are looked up as make_attn_mask reads them: the last cell at
// (i, j) whose block b is -1 (every block) or the edited block wins; no cell means 0.

#include <cstddef>
#include <cstdint>
#include <optional>

#include "mhaviz/core/spec/config.hpp"
#include "mhaviz/core/spec/gen_specs.hpp"

namespace mhaviz::ui::cells {

using State = std::optional<double>;

/// The state block `b` (-1: the 2-D mask / every block) has at (i, j).
State effective(const gen::AttnMaskSpec& spec, std::int64_t i, std::int64_t j, std::int64_t b);
/// True when two states mean the same thing for this dtype.
bool same(const gen::AttnMaskSpec& spec, const State& a, const State& b);
/// What a click does to a cell showing `current`: bool masks toggle masked/unmasked; float masks
/// set `brush`, or back to 0 when the cell already holds it.
State toggled(const gen::AttnMaskSpec& spec, const State& current, const State& brush);
/// Makes block `b` show `state` at (i, j) with as few cells as possible: replaces any cell at
/// exactly (i, j, b) and adds one only when the state differs from what the rest gives.
void set(gen::AttnMaskSpec& spec, std::int64_t i, std::int64_t j, std::int64_t b,
         const State& state);
/// Removes every cell of block `b` (all cells when b is -1).
void clear(gen::AttnMaskSpec& spec, std::int64_t b);
/// Toggles every cell of the L x S block `b` (float: masked or non-zero -> 0, 0 -> masked).
void invert(gen::AttnMaskSpec& spec, std::int64_t L, std::int64_t S, std::int64_t b);
/// Sets every key of query row `i` (fillRow) or every query of key column `j` (fillColumn).
void fillRow(gen::AttnMaskSpec& spec, std::int64_t i, std::int64_t S, std::int64_t b,
             const State& state);
void fillColumn(gen::AttnMaskSpec& spec, std::int64_t j, std::int64_t L, std::int64_t b,
                const State& state);

/// A custom mask that shows exactly what `config`'s attn_mask shows now: kind custom with the
/// same dtype, shape and masked_value, and one cell for every masked or non-zero cell of the
/// generated mask (b = -1 when every block is the same, else one cell per block). Kind none
/// gives no cells; a custom mask is returned as it is. `needed` gets the number of cells; more
/// than `limit` gives nullopt (too many to edit by hand). Throws InvalidInput when the mask
/// cannot be made (make_attn_mask).
std::optional<gen::AttnMaskSpec> fromPattern(const mhaviz::Config& config, std::size_t limit,
                                             std::size_t* needed);

}  // namespace mhaviz::ui::cells
