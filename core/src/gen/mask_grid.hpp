#pragma once
// A mask under construction (internal to src/gen): per cell a "masked" flag and an added value,
// for `blocks` (L, S) blocks.

#include <cstdint>
#include <span>
#include <vector>

#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::gen::detail {

struct MaskGrid {
  std::int64_t blocks = 1;
  std::int64_t L = 0;
  std::int64_t S = 0;
  /// The flags, held in the bool tensor to_tensor returns (no copy of a 1 GiB mask).
  Tensor flags;
  std::span<std::uint8_t> masked;  ///< 1 = masked (bool True; float masked_value)
  /// Float masks with values (`with_values`): value of an unmasked cell; empty otherwise (0).
  std::vector<double> added;

  MaskGrid(std::int64_t blocks_, std::int64_t rows, std::int64_t cols, bool with_values);
  MaskGrid(const MaskGrid&) = delete;  // `masked` views `flags`
  MaskGrid& operator=(const MaskGrid&) = delete;

  [[nodiscard]] std::size_t at(std::int64_t b, std::int64_t i, std::int64_t j) const {
    return static_cast<std::size_t>((b * L + i) * S + j);
  }
  /// Copies block 0 into every other block.
  void repeat_block_0();
  /// Bool: the masked flags. Float (config dtype): masked_value where masked, else `added`.
  [[nodiscard]] Tensor to_tensor(Shape shape, MaskDType dtype, double masked_value,
                                 DType float_dtype) const;
};

/// The graph kind's per-head bias (see GraphBias) into every block.
void fill_graph(const Config& config, MaskGrid& grid);

}  // namespace mhaviz::gen::detail
