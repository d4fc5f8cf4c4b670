#include "mhaviz/core/block_sparsity.hpp"

#include <algorithm>
#include <cmath>

#include "dims.hpp"
#include "eigen_types.hpp"
#include "masks.hpp"
#include "mhaviz/core/errors.hpp"

namespace mhaviz {

namespace {

/// Counts the fully masked blocks of `maps` (L, Sx) maps; masked(m, i, row) fills `row` (Sx
/// flags, 1 = masked) with row i of map m.
template <typename RowFn>
BlockSparsity count_blocks(std::int64_t maps, std::int64_t L, std::int64_t Sx, std::int64_t block,
                           RowFn&& masked_row) {
  if (block < 1) throw InvalidInput("block size must be at least 1, got " + std::to_string(block));
  BlockSparsity s;
  s.block = block;
  s.maps = maps;
  s.rows = (L + block - 1) / block;
  s.cols = (Sx + block - 1) / block;
  s.full.assign(static_cast<std::size_t>(s.total()), 1);
  std::vector<std::uint8_t> row(static_cast<std::size_t>(Sx));
  for (std::int64_t m = 0; m < maps; ++m) {
    for (std::int64_t i = 0; i < L; ++i) {
      masked_row(m, i, row);
      const std::int64_t r = i / block;
      for (std::int64_t j = 0; j < Sx; ++j) {
        if (row[static_cast<std::size_t>(j)] == 0) {
          s.full[static_cast<std::size_t>((m * s.rows + r) * s.cols + j / block)] = 0;
        }
      }
    }
  }
  s.fully_masked = std::count(s.full.begin(), s.full.end(), std::uint8_t{1});
  return s;
}

}  // namespace

BlockSparsity block_sparsity(const Tensor& merged_mask, std::int64_t block) {
  if (merged_mask.dim() != 4) {
    throw InvalidInput("block sparsity needs the merged (N, H, L, S') mask, got shape " +
                       shape_str(merged_mask.shape()));
  }
  const std::int64_t maps = merged_mask.size(0) * merged_mask.size(1);
  const std::int64_t L = merged_mask.size(2), Sx = merged_mask.size(3);
  const auto rows_of = [&](auto data) {
    return count_blocks(maps, L, Sx, block,
                        [&](std::int64_t m, std::int64_t i, std::vector<std::uint8_t>& row) {
                          const auto* src = data.data() + (m * L + i) * Sx;
                          for (std::int64_t j = 0; j < Sx; ++j) {
                            const double x = static_cast<double>(src[j]);
                            row[static_cast<std::size_t>(j)] = std::isinf(x) && x < 0 ? 1 : 0;
                          }
                        });
  };
  if (merged_mask.type() == ElemType::f32) return rows_of(merged_mask.data<float>());
  if (merged_mask.type() == ElemType::f64) return rows_of(merged_mask.data<double>());
  throw InvalidInput("block sparsity needs a float merged mask, got " +
                     std::string(to_string(merged_mask.type())));
}

BlockSparsity block_sparsity(const Config& config, const Params& params, const Inputs& inputs,
                             std::int64_t block) {
  const detail::Dims d = detail::validated_dims(config, params, inputs);
  const detail::Masks<double> masks(inputs, d);
  detail::RowVec<double> merged(d.Sx);
  return count_blocks(d.N * d.H, d.L, d.Sx, block,
                      [&](std::int64_t m, std::int64_t i, std::vector<std::uint8_t>& row) {
                        if (masks.any()) {
                          masks.merged_row(m / d.H, m, i, merged);
                        } else {
                          merged.setZero();
                        }
                        for (std::int64_t j = 0; j < d.Sx; ++j) {
                          const double x = merged(j);
                          row[static_cast<std::size_t>(j)] = std::isinf(x) && x < 0 ? 1 : 0;
                        }
                      });
}

}  // namespace mhaviz
