#pragma once
// docs/semantics.md steps 3, 4, 7 and 8: masks canonicalised to additive floats and merged
// per batch-head (internal to the core).

#include <algorithm>
#include <limits>

#include "base/eigen_types.hpp"
#include "dims.hpp"
#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/spec/inputs.hpp"

namespace mhaviz::detail {

template <typename T>
constexpr ElemType kElem = std::is_same_v<T, double> ? ElemType::f64 : ElemType::f32;

/// Step 3: a bool mask becomes 0 / -inf, a float mask is kept; both as T.
template <typename T>
Mat<T> canonical_mask(const Tensor& m, std::int64_t rows, std::int64_t cols) {
  Mat<T> out(rows, cols);
  const auto n = static_cast<std::size_t>(rows * cols);
  if (m.type() == ElemType::boolean) {
    const auto src = m.data<std::uint8_t>();
    for (std::size_t i = 0; i < n; ++i) {
      out.data()[i] = src[i] != 0 ? -std::numeric_limits<T>::infinity() : T(0);
    }
  } else {
    const Tensor t = m.to(kElem<T>);
    std::copy_n(t.data<T>().begin(), n, out.data());
  }
  return out;
}

/// attn_mask as (L, S) or (N*H*L, S) rows and key_padding_mask as (N, S), canonicalised once.
template <typename T>
class Masks {
 public:
  /// causal_all_columns: SDPA's own top-left causal mask over all Sx columns (the SDPA path's
  /// is_causal, path_call.hpp), added to what the inputs give.
  Masks(const Inputs& in, const Dims& d, bool causal_all_columns = false)
      : d_(d), causal_(causal_all_columns) {
    if (in.attn_mask) {
      attn_3d_ = in.attn_mask->dim() == 3;
      attn_ = canonical_mask<T>(*in.attn_mask, attn_3d_ ? d.N * d.H * d.L : d.L, d.S);
    }
    if (in.key_padding_mask) padding_ = canonical_mask<T>(*in.key_padding_mask, d.N, d.S);
  }

  /// Whether there is any mask; without one every merged row is zero.
  bool any() const { return attn_.size() > 0 || padding_.size() > 0 || causal_; }

  /// Row i of the merged additive mask of batch-head b (batch element n), written into `out`
  /// (Sx entries). Steps 4 and 7: the appended bias_k / zero columns stay 0, so they can
  /// never be masked. Step 8 (2.x): key_padding_mask is added to attn_mask.
  template <typename Row>
  void merged_row(std::int64_t n, std::int64_t b, std::int64_t i, Row&& out) const {
    out.setZero();
    auto src = out.head(d_.S);
    if (attn_.size() > 0) src = attn_.row(attn_3d_ ? b * d_.L + i : i);
    if (padding_.size() > 0) src += padding_.row(n);
    for (std::int64_t j = i + 1; causal_ && j < d_.Sx; ++j) {
      out(j) = -std::numeric_limits<T>::infinity();
    }
  }

  /// The merged mask at its natural broadcast shape (ForwardResult::merged_mask): rows are
  /// merged_row()'s, one per distinct (n, h, i) the inputs can tell apart.
  Tensor merged() const {
    if (!any()) return Tensor(kElem<T>, {0, 0, 0, 0});
    const bool attn = attn_.size() > 0 || causal_, padding = padding_.size() > 0;
    const std::int64_t Nm = attn_3d_ || padding ? d_.N : 1, Hm = attn_3d_ ? d_.H : 1;
    const std::int64_t Lm = attn ? d_.L : 1;
    Tensor t = Tensor::uninitialized(kElem<T>, {Nm, Hm, Lm, d_.Sx});
    T* base = t.data<T>().data();
    for (std::int64_t n = 0; n < Nm; ++n) {
      for (std::int64_t h = 0; h < Hm; ++h) {
        for (std::int64_t i = 0; i < Lm; ++i) {
          merged_row(n, n * d_.H + h, i,
                     Eigen::Map<RowVec<T>>(base + ((n * Hm + h) * Lm + i) * d_.Sx, d_.Sx));
        }
      }
    }
    return t;
  }

 private:
  Dims d_;
  Mat<T> attn_;
  bool attn_3d_ = false;
  Mat<T> padding_;
  bool causal_ = false;
};

}  // namespace mhaviz::detail
