#pragma once
// docs/semantics.md steps 2 and 14: the in- and out-projection weights as matrices (internal).

#include "base/eigen_types.hpp"
#include "dims.hpp"
#include "mhaviz/core/spec/params.hpp"

namespace mhaviz::detail {

/// Where a weight matrix lies: rows [row0, row0 + E) of a parameter tensor.
struct WeightRows {
  const Tensor* tensor = nullptr;
  std::int64_t row0 = 0;
};

/// Views into the parameter tensors (no copies); the Params must outlive this.
template <typename T>
struct Projections {
  ConstMatMap<T> wq{nullptr, 0, 0}, wk{nullptr, 0, 0}, wv{nullptr, 0, 0}, wo{nullptr, 0, 0};
  WeightRows q_rows, k_rows, v_rows, o_rows;  // the same four, as tensors and rows
  RowVec<T> bq, bk, bv, bo;
  RowVec<T> bias_k, bias_v;

  /// From the packed in_proj_weight (rows [0,E) q, [E,2E) k, [2E,3E) v) or the separate
  /// q/k/v_proj_weight; missing biases (bias=False) are zero.
  Projections(const Params& p, const Dims& d) {
    const std::int64_t E = d.E;
    if (p.in_proj_weight) {
      q_rows = {&*p.in_proj_weight, 0};
      k_rows = {&*p.in_proj_weight, E};
      v_rows = {&*p.in_proj_weight, 2 * E};
    } else {
      q_rows = {&*p.q_proj_weight, 0};
      k_rows = {&*p.k_proj_weight, 0};
      v_rows = {&*p.v_proj_weight, 0};
    }
    o_rows = {&*p.out_proj_weight, 0};
    new (&wq) ConstMatMap<T>(rows(*q_rows.tensor, q_rows.row0, E));
    new (&wk) ConstMatMap<T>(rows(*k_rows.tensor, k_rows.row0, E));
    new (&wv) ConstMatMap<T>(rows(*v_rows.tensor, v_rows.row0, E));
    new (&wo) ConstMatMap<T>(rows(*o_rows.tensor, o_rows.row0, E));
    bq = bk = bv = bo = RowVec<T>::Zero(E);
    if (p.in_proj_bias) {
      bq = segment(*p.in_proj_bias, 0, E);
      bk = segment(*p.in_proj_bias, E, E);
      bv = segment(*p.in_proj_bias, 2 * E, E);
    }
    if (p.out_proj_bias) bo = segment(*p.out_proj_bias, 0, E);
    if (p.bias_k) {
      bias_k = segment(*p.bias_k, 0, E);
      bias_v = segment(*p.bias_v, 0, E);
    }
  }

 private:
  static ConstMatMap<T> rows(const Tensor& t, std::int64_t row0, std::int64_t count) {
    const std::int64_t cols = t.size(-1);
    return ConstMatMap<T>(t.data<T>().data() + row0 * cols, count, cols);
  }
  static RowVec<T> segment(const Tensor& t, std::int64_t from, std::int64_t count) {
    return Eigen::Map<const RowVec<T>>(t.data<T>().data() + from, count);
  }
};

}  // namespace mhaviz::detail
