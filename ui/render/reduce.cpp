#include "render/reduce.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "stages/stage_data.hpp"

namespace mhaviz::ui {

int blockFactor(int cells, int pixels) {
  if (cells <= 0) return 1;
  if (pixels <= 0) return cells;
  return std::max(1, (cells + pixels - 1) / pixels);
}

ReducedGrid reduceRegion(const MapData& map, int row0, int col0, int nRows, int nCols, int rowBlock,
                         int colBlock, Reduce rule, const std::atomic<bool>* cancelled,
                         CellStats* stats) {
  ReducedGrid out;
  row0 = std::clamp(row0, 0, std::max(0, map.rows - 1));
  col0 = std::clamp(col0, 0, std::max(0, map.cols - 1));
  nRows = std::clamp(nRows, 0, map.rows - row0);
  nCols = std::clamp(nCols, 0, map.cols - col0);
  out.row0 = row0;
  out.col0 = col0;
  out.sourceRows = nRows;
  out.sourceCols = nCols;
  out.rowBlock = std::max(1, rowBlock);
  out.colBlock = std::max(1, colBlock);
  out.rows = (nRows + out.rowBlock - 1) / out.rowBlock;
  out.cols = (nCols + out.colBlock - 1) / out.colBlock;
  const auto outCells = static_cast<std::size_t>(out.rows) * static_cast<std::size_t>(out.cols);
  const bool hasMask = map.hasMask();
  const double init = rule == Reduce::mean ? 0.0 : -std::numeric_limits<double>::infinity();
  out.values.assign(outCells, init);
  std::vector<unsigned char> nan(outCells, 0);
  if (hasMask) out.masked.assign(outCells, 1);
  // One source row at a time (copied maps and maps read from the result alike), folded into
  // per-column accumulators over the rows of a block row; the columns are folded into blocks
  // once per block row. The per-row loops run over whole rows and vectorise.
  const auto width = static_cast<std::size_t>(std::max(nCols, 0));
  std::vector<double> rowValues(width);
  std::vector<unsigned char> rowMask(hasMask ? width : 0);
  std::vector<double> colAcc(width);
  std::vector<unsigned char> colNan(width);

  for (int bi = 0; bi < out.rows; ++bi) {
    const int rBegin = row0 + bi * out.rowBlock;
    const int rEnd = std::min(rBegin + out.rowBlock, row0 + nRows);
    const auto outRow = static_cast<std::size_t>(bi) * static_cast<std::size_t>(out.cols);
    double* dst = out.values.data() + outRow;
    unsigned char* dstNan = nan.data() + outRow;
    unsigned char* dstMask = hasMask ? out.masked.data() + outRow : nullptr;
    if (cancelled != nullptr && cancelled->load(std::memory_order_relaxed)) return ReducedGrid{};
    if (nCols <= 0) continue;
    std::fill(colAcc.begin(), colAcc.end(), init);
    std::fill(colNan.begin(), colNan.end(), 0);
    for (int r = rBegin; r < rEnd; ++r) {
      map.readRow(r, col0, nCols, rowValues.data(), hasMask ? rowMask.data() : nullptr);
      if (stats != nullptr) stats->add(rowValues.data(), width);
      // Element i of the row buffers is source column col0 + i.
      const double* src = rowValues.data();
      if (rule == Reduce::mean) {
        for (std::size_t c = 0; c < width; ++c) {
          const bool isNan = std::isnan(src[c]);
          colNan[c] |= static_cast<unsigned char>(isNan);
          colAcc[c] += isNan ? 0.0 : src[c];
        }
      } else {
        for (std::size_t c = 0; c < width; ++c) {
          const bool isNan = std::isnan(src[c]);
          colNan[c] |= static_cast<unsigned char>(isNan);
          colAcc[c] = !isNan && src[c] > colAcc[c] ? src[c] : colAcc[c];
        }
      }
      if (dstMask != nullptr) {
        for (int bj = 0; bj < out.cols; ++bj) {
          const int cBegin = bj * out.colBlock;
          const int cEnd = std::min(cBegin + out.colBlock, nCols);
          for (int c = cBegin; c < cEnd && dstMask[bj] != 0; ++c) {
            if (rowMask[static_cast<std::size_t>(c)] == 0) dstMask[bj] = 0;
          }
        }
      }
    }
    for (int bj = 0; bj < out.cols; ++bj) {
      const int cBegin = bj * out.colBlock;
      const int cEnd = std::min(cBegin + out.colBlock, nCols);
      double acc = init;
      bool anyNan = false;
      for (int c = cBegin; c < cEnd; ++c) {
        const auto k = static_cast<std::size_t>(c);
        anyNan = anyNan || colNan[k] != 0;
        acc = rule == Reduce::mean ? acc + colAcc[k] : std::max(acc, colAcc[k]);
      }
      dst[bj] = acc;
      dstNan[bj] = anyNan ? 1 : 0;
    }
    for (int bj = 0; bj < out.cols; ++bj) {
      if (dstNan[bj] != 0) {
        dst[bj] = std::numeric_limits<double>::quiet_NaN();
      } else if (rule == Reduce::mean) {
        const int cBegin = col0 + bj * out.colBlock;
        const int cEnd = std::min(cBegin + out.colBlock, col0 + nCols);
        dst[bj] /= static_cast<double>((rEnd - rBegin) * (cEnd - cBegin));
      }
    }
  }
  return out;
}

}  // namespace mhaviz::ui
