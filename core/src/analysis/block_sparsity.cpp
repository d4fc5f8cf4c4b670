#include "mhaviz/core/analysis/block_sparsity.hpp"

#include <algorithm>
#include <cmath>

#include "base/eigen_types.hpp"
#include "forward/dims.hpp"
#include "forward/masks.hpp"
#include "forward/path_call.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/spec/semantics.hpp"

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
      std::uint8_t* band =
          s.full.data() + static_cast<std::size_t>((m * s.rows + i / block) * s.cols);
      // A row is read only while a block of its band may still be fully masked: without a
      // mask (or with padding alone) that is the first row of each band.
      if (std::none_of(band, band + s.cols, [](std::uint8_t f) { return f != 0; })) continue;
      masked_row(m, i, row);
      for (std::int64_t c = 0; c < s.cols; ++c) {
        if (band[c] == 0) continue;
        const auto first = row.begin() + static_cast<std::ptrdiff_t>(c * block);
        const auto last = row.begin() + static_cast<std::ptrdiff_t>(std::min(Sx, (c + 1) * block));
        if (std::find(first, last, std::uint8_t{0}) != last) band[c] = 0;
      }
    }
  }
  s.fully_masked = std::count(s.full.begin(), s.full.end(), std::uint8_t{1});
  return s;
}

}  // namespace

BlockSparsity block_sparsity(const ForwardResult& r, std::int64_t block) {
  // The distinct maps of the broadcast mask: (Nm, Hm) with Nm in {1, N}, Hm in {1, H}; one
  // all-zero map when nothing is masked.
  const bool masked = r.has_mask();
  const std::int64_t Nm = masked ? r.merged_mask.size(0) : 1;
  const std::int64_t Hm = masked ? r.merged_mask.size(1) : 1;
  const auto distinct_of = [&](auto zero) {
    using T = decltype(zero);
    const T* mask = masked ? r.merged_mask.data<T>().data() : nullptr;
    return count_blocks(Nm * Hm, r.L, r.Sx, block,
                        [&](std::int64_t m, std::int64_t i, std::vector<std::uint8_t>& row) {
                          if (mask == nullptr) {
                            std::fill(row.begin(), row.end(), std::uint8_t{0});
                            return;
                          }
                          const T* src = mask + r.mask_offset(m / Hm, m % Hm, i);
                          for (std::int64_t j = 0; j < r.Sx; ++j) {
                            const double x = static_cast<double>(src[j]);
                            row[static_cast<std::size_t>(j)] = std::isinf(x) && x < 0 ? 1 : 0;
                          }
                        });
  };
  const ElemType type = masked ? r.merged_mask.type() : ElemType::f64;
  if (type != ElemType::f32 && type != ElemType::f64) {
    throw InvalidInput("block sparsity needs a float merged mask, got " +
                       std::string(to_string(type)));
  }
  const BlockSparsity distinct =
      type == ElemType::f32 ? distinct_of(float{}) : distinct_of(double{});
  // Head (n, h) reads the broadcast map (n or 0, h or 0).
  BlockSparsity s = distinct;
  s.maps = r.N * r.H;
  const std::int64_t per_map = s.rows * s.cols;
  s.full.resize(static_cast<std::size_t>(s.maps * per_map));
  for (std::int64_t m = 0; m < s.maps; ++m) {
    const std::int64_t n = m / r.H, h = m % r.H;
    const std::int64_t src = (Nm == 1 ? 0 : n) * Hm + (Hm == 1 ? 0 : h);
    std::copy_n(distinct.full.begin() + src * per_map, per_map, s.full.begin() + m * per_map);
  }
  s.fully_masked = std::count(s.full.begin(), s.full.end(), std::uint8_t{1});
  return s;
}

BlockSparsity block_sparsity(const Config& config, const Params& params, const Inputs& inputs,
                             std::int64_t block) {
  // The masks the pass would apply: the SDPA path's causal mask over all Sx columns in place of
  // an attn_mask it drops.
  const detail::PathCall call = detail::call_for_path(
      config, inputs_for_semantics(config, inputs), torch_path(config, inputs));
  const detail::Dims d = detail::validated_dims(call.config, params, call.inputs);
  const detail::Masks<double> masks(call.inputs, d, call.causal_all_columns);
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
