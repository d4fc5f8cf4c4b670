#pragma once
// Reduction of a map to the screen: when a map region has more cells than the pixels it is drawn
// on, each block of rowBlock x colBlock cells becomes one cell holding the block's mean or max.
// Pure functions (no widgets), used by HeatmapGrid and tested directly.

#include <atomic>
#include <vector>

#include "stages/view_options.hpp"

namespace mhaviz::ui {

struct MapData;
struct CellStats;

/// A region of a map after reduction. Block (i, j) covers source rows
/// [row0 + i*rowBlock, min(row0 + (i+1)*rowBlock, row0 + sourceRows)) and likewise for columns;
/// the last block of a dimension may be partial (its statistic is over the cells it has).
struct ReducedGrid {
  int row0 = 0, col0 = 0;              // first source cell of the region
  int sourceRows = 0, sourceCols = 0;  // size of the source region
  int rowBlock = 1, colBlock = 1;      // cells per block
  int rows = 0, cols = 0;              // blocks
  std::vector<double> values;          // rows*cols, row-major; NaN in a block gives NaN
  std::vector<unsigned char> masked;   // rows*cols when the map has flags: 1 when all cells of
                                       // the block are masked
  [[nodiscard]] bool reduced() const { return rowBlock > 1 || colBlock > 1; }
};

/// Cells per block so that `cells` fit into `pixels` (at least 1).
int blockFactor(int cells, int pixels);

/// Reduces rows [row0, row0+nRows) x cols [col0, col0+nCols) of `map` into blocks of
/// rowBlock x colBlock cells by `rule`. Infinite values take part (the mean of a block holding
/// -inf is -inf; +inf and -inf together give NaN).
/// Reads the map's copy or, for a described map, the result's memory (no full copy is made).
/// Any thread. Returns an empty grid (rows = cols = 0) when `cancelled` became true.
/// `stats`, when given, also gathers the statistics of every cell read (CellStats::add).
ReducedGrid reduceRegion(const MapData& map, int row0, int col0, int nRows, int nCols, int rowBlock,
                         int colBlock, Reduce rule, const std::atomic<bool>* cancelled = nullptr,
                         CellStats* stats = nullptr);

}  // namespace mhaviz::ui
