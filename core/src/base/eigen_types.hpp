#pragma once
// Matrix aliases for the core: row-major storage, matching PyTorch's memory layout, so a
// (rows, cols) block of any contiguous tensor maps without copying.

#include <Eigen/Core>

namespace mhaviz::detail {

template <typename T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using RowVec = Eigen::Matrix<T, 1, Eigen::Dynamic>;

template <typename T>
using MatMap = Eigen::Map<Mat<T>>;
template <typename T>
using ConstMatMap = Eigen::Map<const Mat<T>>;
/// A block of rows with a row stride (e.g. one batch element of a (L, N, E) tensor).
template <typename T>
using StridedMap = Eigen::Map<const Mat<T>, Eigen::Unaligned, Eigen::OuterStride<>>;

}  // namespace mhaviz::detail
