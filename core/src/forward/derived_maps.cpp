// The maps a pass does not store (derived_maps.hpp), recomputed with the pass's own tiles.
#include "mhaviz/core/forward/derived_maps.hpp"

#include <algorithm>
#include <string>

#include "attention_tile.hpp"
#include "base/eigen_types.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/base/parallel.hpp"
#include "soft_cap.hpp"

namespace mhaviz {
namespace {

using detail::ConstMatMap;
using detail::Mat;

/// Rows [row0, row0 + rows) of map `map` of batch-head (n, h) into `out` (rows x Sx).
template <typename T>
void fill_rows(const ForwardResult& r, DerivedMap map, std::int64_t n, std::int64_t h,
               std::int64_t row0, std::int64_t rows, T* out) {
  const std::int64_t L = r.L, Sx = r.Sx, hd = r.hd, b = n * r.H + h;
  const T* mask = r.has_mask() ? r.merged_mask.data<T>().data() : nullptr;
  const auto mask_row = [&](std::int64_t i) {
    return ConstMatMap<T>(mask + r.mask_offset(n, h, i), 1, Sx);
  };
  if (map == DerivedMap::mask) {
    for (std::int64_t i = row0; i < row0 + rows; ++i) {
      T* dst = out + (i - row0) * Sx;
      if (mask != nullptr) {
        std::copy_n(mask + r.mask_offset(n, h, i), Sx, dst);
      } else {
        std::fill_n(dst, Sx, T(0));
      }
    }
    return;
  }
  const ConstMatMap<T> q(r.q.data<T>().data() + b * L * hd, L, hd);
  const auto kt =
      detail::transposed_padded(ConstMatMap<T>(r.k.data<T>().data() + b * Sx * hd, Sx, hd));
  const std::int64_t tile_rows = detail::query_tile_rows<T>(Sx);
  const T scale = detail::score_scale<T>(hd);
  Mat<T> q_scaled, tile;
  // The pass's tiles start at multiples of tile_rows: start at the one holding row0.
  for (std::int64_t i0 = row0 / tile_rows * tile_rows; i0 < row0 + rows; i0 += tile_rows) {
    const std::int64_t nr = std::min(tile_rows, L - i0);
    detail::raw_score_tile<T>(q, kt, i0, nr, scale, q_scaled, tile);
    // Capped in place as the pass does (forward.cpp), for the capped map and the scores.
    if (map != DerivedMap::raw_scores) {
      detail::soft_cap(r.config.attn_logit_softcapping, tile, tile);
    }
    for (std::int64_t i = std::max(i0, row0); i < std::min(i0 + nr, row0 + rows); ++i) {
      auto row = tile.row(i - i0);
      if (map == DerivedMap::scores && mask != nullptr) row += mask_row(i);
      std::copy_n(row.data(), Sx, out + (i - row0) * Sx);
    }
  }
}

void check(const ForwardResult& r, std::int64_t n, std::int64_t h, std::int64_t row0,
           std::int64_t rows) {
  if (n < 0 || n >= r.N || h < 0 || h >= r.H || row0 < 0 || rows < 0 || row0 + rows > r.L) {
    throw InvalidInput(
        "derived map: batch element " + std::to_string(n) + ", head " + std::to_string(h) +
        ", rows " + std::to_string(row0) + ".." + std::to_string(row0 + rows) +
        " are outside the result (N=" + std::to_string(r.N) + ", H=" + std::to_string(r.H) +
        ", L=" + std::to_string(r.L) + "); recompute or choose one inside");
  }
  // A reduced (long-context) result keeps only folded weights: nothing to derive from.
  if (r.q.shape() != Shape{r.N, r.H, r.L, r.hd} || r.k.shape() != Shape{r.N, r.H, r.Sx, r.hd}) {
    throw InvalidInput("derived map: the result keeps no projected q and k (shapes " +
                       shape_str(r.q.shape()) + ", " + shape_str(r.k.shape()) +
                       "); recompute the full result to see the scores");
  }
}

template <typename Fn>
void dispatch(const ForwardResult& r, Fn&& fn) {
  if (r.weights.type() == ElemType::f64) {
    fn(double{});
  } else {
    fn(float{});
  }
}

}  // namespace

std::string_view derived_map_name(DerivedMap map) {
  switch (map) {
    case DerivedMap::raw_scores:
      return "raw_scores";
    case DerivedMap::mask:
      return "mask";
    case DerivedMap::capped_scores:
      return "capped_scores";
    case DerivedMap::scores:
      return "scores";
  }
  return "scores";
}

Tensor derived_rows(const ForwardResult& r, DerivedMap map, std::int64_t n, std::int64_t h,
                    std::int64_t row0, std::int64_t rows) {
  check(r, n, h, row0, rows);
  Tensor out = Tensor::uninitialized(r.weights.type(), {rows, r.Sx});
  dispatch(r, [&](auto zero) {
    using T = decltype(zero);
    fill_rows<T>(r, map, n, h, row0, rows, out.data<T>().data());
  });
  return out;
}

std::int64_t derived_piece_rows(const ForwardResult& r, std::size_t bytes) {
  std::int64_t tile = 0;
  dispatch(r, [&](auto zero) { tile = detail::query_tile_rows<decltype(zero)>(r.Sx); });
  const auto row_bytes =
      static_cast<std::size_t>(std::max<std::int64_t>(r.Sx, 1)) * elem_size(r.weights.type());
  auto rows = static_cast<std::int64_t>(bytes / row_bytes);
  if (rows >= tile) rows -= rows % tile;
  return std::clamp<std::int64_t>(rows, 1, std::max<std::int64_t>(r.L, 1));
}

Tensor derived_head(const ForwardResult& r, DerivedMap map, std::int64_t n, std::int64_t h) {
  return derived_rows(r, map, n, h, 0, r.L);
}

Tensor derived_all(const ForwardResult& r, DerivedMap map, int threads) {
  Tensor out = Tensor::uninitialized(r.weights.type(), {r.N, r.H, r.L, r.Sx});
  const std::int64_t blocks = r.N * r.H;
  dispatch(r, [&](auto zero) {
    using T = decltype(zero);
    T* base = out.data<T>().data();
    parallel_for(blocks, thread_count(threads, blocks), [&](std::int64_t b) {
      fill_rows<T>(r, map, b / r.H, b % r.H, 0, r.L, base + b * r.L * r.Sx);
    });
  });
  return out;
}

double derived_value(const ForwardResult& r, DerivedMap map, std::int64_t n, std::int64_t h,
                     std::int64_t i, std::int64_t j) {
  if (j < 0 || j >= r.Sx) {
    throw InvalidInput("derived map: key column " + std::to_string(j) +
                       " is outside the result (Sx=" + std::to_string(r.Sx) + ")");
  }
  return derived_rows(r, map, n, h, i, 1).value(j);
}

}  // namespace mhaviz
