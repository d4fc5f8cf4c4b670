#pragma once
// The merged mask of the long-context pass (long_context.cpp; internal to the core), one chunk
// of a stripe at a time: rows [i0, i0 + rows) x keys [a, b). Read from the mask tensors as they
// are (never canonicalised in full: a float (L, S) copy of a 32768-token causal mask alone
// would take 4 GiB), or from a generated pattern (gen::MaskPattern) that is never held at all.
// Each chunk is first classified, so that a chunk whose every cell is -inf is skipped, and
// one without a masked cell is not touched. Values are those of Masks<T> (masks.hpp): attn_mask
// (bool: 0 / -inf) plus key_padding_mask, added in T.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "base/eigen_types.hpp"
#include "forward/dims.hpp"
#include "mhaviz/core/gen/mask_pattern.hpp"
#include "mhaviz/core/spec/inputs.hpp"

namespace mhaviz::detail {

/// What one chunk of the merged mask holds.
enum class ChunkMask : std::uint8_t {
  none,  ///< every value 0: nothing to add
  some,  ///< values to add (StripeMasks::values)
  all,   ///< every value -inf: every weight of the chunk is 0
};

/// Per-thread storage of StripeMasks (reused from stripe to stripe).
template <typename T>
struct MaskScratch {
  std::int64_t i0 = 0, rows = 0;
  std::vector<gen::KeyRange> ranges;      // pattern: the unmasked ranges of every row
  std::vector<std::size_t> first;         // pattern: row r's ranges start at first[r]
  std::vector<ChunkMask> pattern_chunks;  // pattern (and padding): each chunk's kind
  Mat<T> values;  // rows x chunk keys: a chunk's values in its first columns
};

template <typename T>
class StripeMasks {
 public:
  static constexpr T kMasked = -std::numeric_limits<T>::infinity();

  /// Masks of batch element n, in chunks of `chunk` keys ([k * chunk, (k + 1) * chunk) of S).
  /// `pattern` generates attn_mask when the inputs hold none; `pattern_value` is what its
  /// masked cells add (-inf for a bool mask).
  StripeMasks(const Inputs& in, const std::optional<gen::MaskPattern>& pattern, T pattern_value,
              const Dims& d, std::int64_t n, std::int64_t chunk)
      : d_(d), chunk_(chunk), pattern_value_(pattern_value) {
    if (in.attn_mask) {
      attn_ = &*in.attn_mask;
    } else if (pattern) {
      pattern_ = &*pattern;
    }
    if (in.key_padding_mask) {
      const Tensor& m = *in.key_padding_mask;
      padding_.resize(d.S);
      const std::int64_t off = d.batched ? n * d.S : 0;
      for (std::int64_t j = 0; j < d.S; ++j) padding_[j] = value_at(m, off + j);
    }
  }

  /// Whether the chunks differ between heads (a 3-D attn_mask tensor).
  [[nodiscard]] bool per_head() const { return attn_ != nullptr && attn_->dim() == 3; }
  [[nodiscard]] std::int64_t chunk_width() const { return chunk_; }
  [[nodiscard]] std::int64_t chunks() const { return (d_.S + chunk_ - 1) / chunk_; }
  [[nodiscard]] std::int64_t chunk_begin(std::int64_t k) const { return k * chunk_; }
  [[nodiscard]] std::int64_t chunk_end(std::int64_t k) const {
    return std::min(d_.S, (k + 1) * chunk_);
  }

  /// Starts a stripe of query rows [i0, i0 + rows).
  void begin_stripe(std::int64_t i0, std::int64_t rows, MaskScratch<T>& s) const {
    s.i0 = i0;
    s.rows = rows;
    if (pattern_ == nullptr) return;
    s.ranges.clear();
    s.first.assign(static_cast<std::size_t>(rows + 1), 0);
    std::vector<gen::KeyRange> row;
    for (std::int64_t r = 0; r < rows; ++r) {
      pattern_->unmasked(i0 + r, row);
      s.ranges.insert(s.ranges.end(), row.begin(), row.end());
      s.first[static_cast<std::size_t>(r + 1)] = s.ranges.size();
    }
    s.pattern_chunks.resize(static_cast<std::size_t>(chunks()));
    for (std::int64_t k = 0; k < chunks(); ++k) {
      s.pattern_chunks[static_cast<std::size_t>(k)] = classify_pattern(k, s);
    }
  }

  /// The kind of chunk k of batch-head b (= n*H + h) in the current stripe; for `some`, its
  /// values are the first chunk_end(k) - chunk_begin(k) columns of s.values.
  ChunkMask prepare(std::int64_t b, std::int64_t k, MaskScratch<T>& s) const {
    const std::int64_t a = chunk_begin(k), w = chunk_end(k) - a;
    if (attn_ == nullptr && pattern_ == nullptr && padding_.size() == 0) return ChunkMask::none;
    if (pattern_ != nullptr) {
      const ChunkMask kind = s.pattern_chunks[static_cast<std::size_t>(k)];
      if (kind == ChunkMask::some) fill_pattern(a, w, s);
      return kind;
    }
    reserve(s);
    for (std::int64_t r = 0; r < s.rows; ++r) {
      T* dst = s.values.row(r).data();
      if (attn_ != nullptr) {
        const std::int64_t row = attn_->dim() == 3 ? b * d_.L + s.i0 + r : s.i0 + r;
        const std::int64_t off = row * d_.S + a;
        for (std::int64_t j = 0; j < w; ++j) dst[j] = value_at(*attn_, off + j);
        if (padding_.size() > 0) {
          for (std::int64_t j = 0; j < w; ++j) dst[j] += padding_[a + j];
        }
      } else {
        std::copy_n(padding_.data() + a, w, dst);
      }
    }
    const auto v = s.values.leftCols(w).array();
    if ((v == kMasked).all()) return ChunkMask::all;
    if ((v == T(0)).all()) return ChunkMask::none;
    return ChunkMask::some;
  }

 private:
  /// Element k of a bool or float mask tensor as an additive value in T.
  static T value_at(const Tensor& m, std::int64_t k) {
    const auto at = static_cast<std::size_t>(k);
    if (m.type() == ElemType::boolean) return m.data<std::uint8_t>()[at] != 0 ? kMasked : T(0);
    if (m.type() == ElemType::f64) return static_cast<T>(m.data<double>()[at]);
    return static_cast<T>(m.data<float>()[at]);
  }

  /// A pattern chunk's kind from the rows' ranges and the padding.
  ChunkMask classify_pattern(std::int64_t k, const MaskScratch<T>& s) const {
    const std::int64_t a = chunk_begin(k), b = chunk_end(k);
    bool any_open = false, all_open = true;
    for (std::int64_t r = 0; r < s.rows; ++r) {
      std::int64_t covered = 0;
      for (std::size_t q = s.first[static_cast<std::size_t>(r)];
           q < s.first[static_cast<std::size_t>(r + 1)]; ++q) {
        covered += std::max<std::int64_t>(
            0, std::min(b, s.ranges[q].end) - std::max(a, s.ranges[q].begin));
      }
      any_open = any_open || covered > 0;
      all_open = all_open && covered == b - a;
    }
    bool padded_all = false, padded_none = true;
    if (padding_.size() > 0) {
      const auto p = padding_.segment(a, b - a).array();
      padded_all = (p == kMasked).all();
      padded_none = (p == T(0)).all();
    }
    if (padded_all || (!any_open && pattern_value_ == kMasked)) return ChunkMask::all;
    if (all_open && padded_none) return ChunkMask::none;
    return ChunkMask::some;
  }

  void reserve(MaskScratch<T>& s) const {
    if (s.values.rows() != s.rows || s.values.cols() != chunk_) s.values.resize(s.rows, chunk_);
  }

  void fill_pattern(std::int64_t a, std::int64_t w, MaskScratch<T>& s) const {
    reserve(s);
    for (std::int64_t r = 0; r < s.rows; ++r) {
      auto row = s.values.row(r).head(w);
      row.setConstant(pattern_value_);
      for (std::size_t q = s.first[static_cast<std::size_t>(r)];
           q < s.first[static_cast<std::size_t>(r + 1)]; ++q) {
        const std::int64_t lo = std::max(a, s.ranges[q].begin);
        const std::int64_t hi = std::min(a + w, s.ranges[q].end);
        if (lo < hi) row.segment(lo - a, hi - lo).setZero();
      }
      if (padding_.size() > 0) row += padding_.segment(a, w);
    }
  }

  Dims d_;
  std::int64_t chunk_;
  T pattern_value_;
  const Tensor* attn_ = nullptr;
  const gen::MaskPattern* pattern_ = nullptr;
  RowVec<T> padding_;  // key_padding_mask of batch element n, S values (empty: none)
};

}  // namespace mhaviz::detail
