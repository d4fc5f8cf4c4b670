#pragma once
// A long context's reduced weights (mhaviz/core/long_context/long_context.hpp) as a ForwardResult
// that holds only the weights stage: one value per block, so that the heatmap grid, its colour
// scale and the image export draw them with the same code as a full result. The token labels name
// the first query / key position of each block ("0", "64", "128", ...).

#include <QString>
#include <QStringList>
#include <cstdint>

#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/long_context/long_context.hpp"

namespace mhaviz::ui {

/// The reduced weights as a result of `config` whose weights are (N, H, rows, cols): the maps
/// of the batch element and heads computed at their own indices (the others stay 0 and are not
/// shown), `columns` all source keys, config.query_labels / key_labels the first position of
/// each block, and merged_mask (1, H, rows, cols) -inf at the blocks whose every weight is 0
/// (masked keys only: a causal map's upper triangle). Only the weights stage can be extracted
/// from it. The result says it is reduced (ForwardResult::is_reduced).
mhaviz::ForwardResult reducedResult(const mhaviz::ReducedWeights& reduced,
                                    const mhaviz::Config& config);

/// The first position of each block: begin, begin + block, ... (count labels).
QStringList blockLabels(std::int64_t begin, std::int64_t block, std::int64_t count);

/// "reduced: block mean of 16x16 cells" in the UI language for the whole map, "zoomed: block
/// mean of 4x4 cells of queries A-B, keys C-D" for a zoomed region still folded, or "exact
/// cells of queries A-B, keys C-D" for a region computed cell by cell.
QString reducedDescription(const mhaviz::ReducedWeights& reduced);

}  // namespace mhaviz::ui
