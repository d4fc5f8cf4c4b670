// Value-weighted norms (Kobayashi et al. 2020), mhaviz/core/analysis/measures.hpp.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "base/eigen_types.hpp"
#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/base/parallel.hpp"

namespace mhaviz {
namespace {

using detail::Mat;

template <typename T>
ValueNorms compute(const ForwardResult& r, const RunControl& control) {
  const std::int64_t N = r.N, H = r.H, L = r.L, Sx = r.Sx, E = r.E, hd = r.hd;
  ValueNorms out;
  constexpr ElemType et = std::is_same_v<T, double> ? ElemType::f64 : ElemType::f32;
  out.per_head = Tensor::uninitialized(et, {N, H, L, Sx});
  out.summed = Tensor::uninitialized(et, {N, L, Sx});
  out.f_norms = Tensor::uninitialized(ElemType::f64, {N, H, Sx});
  const Tensor wt = r.params.out_proj_weight->to(ElemType::f64);
  const detail::ConstMatMap<double> wo(wt.data<double>().data(), E, E);
  const auto v = r.v.data<T>();
  const auto w = r.weights.data<T>();
  auto per_head = out.per_head.data<T>();
  auto summed = out.summed.data<T>();
  auto fn = out.f_norms.data<double>();
  const auto at = [](std::int64_t x) { return static_cast<std::size_t>(x); };

  for (std::int64_t n = 0; n < N; ++n) {
    // f[h] (Sx, E): row j is f_h(x_j) = v_j^h W_O^h (out_proj.weight's columns of head h,
    // transposed). gram[j] (H, H): <f_h(x_j), f_g(x_j)>.
    std::vector<Mat<double>> f(at(H));
    for (std::int64_t h = 0; h < H; ++h) {
      Mat<double> vh(Sx, hd);
      const T* src = v.data() + at((n * H + h) * Sx * hd);
      for (std::int64_t k = 0; k < Sx * hd; ++k) vh.data()[k] = src[k];
      f[at(h)] = vh * wo.middleCols(h * hd, hd).transpose();
      for (std::int64_t j = 0; j < Sx; ++j) fn[at((n * H + h) * Sx + j)] = f[at(h)].row(j).norm();
    }
    std::vector<Mat<double>> gram(at(Sx), Mat<double>(H, H));
    for (std::int64_t j = 0; j < Sx; ++j) {
      for (std::int64_t h = 0; h < H; ++h) {
        for (std::int64_t g = h; g < H; ++g) {
          const double d = f[at(h)].row(j).dot(f[at(g)].row(j));
          gram[at(j)](h, g) = d;
          gram[at(j)](g, h) = d;
        }
      }
    }
    // Rows of queries in chunks, in parallel: each chunk writes only its own rows.
    constexpr std::int64_t kRows = 64;
    const std::int64_t chunks = (L + kRows - 1) / kRows;
    parallel_for(chunks, thread_count(control.threads, chunks), [&](std::int64_t c) {
      if (control.cancel != nullptr && control.cancel->load()) throw Cancelled();
      std::vector<double> a(at(H));
      for (std::int64_t i = c * kRows; i < std::min(L, (c + 1) * kRows); ++i) {
        for (std::int64_t j = 0; j < Sx; ++j) {
          for (std::int64_t h = 0; h < H; ++h) {
            a[at(h)] = w[at(((n * H + h) * L + i) * Sx + j)];
            per_head[at(((n * H + h) * L + i) * Sx + j)] =
                static_cast<T>(a[at(h)] * fn[at((n * H + h) * Sx + j)]);
          }
          const Mat<double>& g = gram[at(j)];
          double s = 0.0;
          for (std::int64_t h = 0; h < H; ++h) {
            for (std::int64_t k = 0; k < H; ++k) s += a[at(h)] * a[at(k)] * g(h, k);
          }
          summed[at((n * L + i) * Sx + j)] = static_cast<T>(std::sqrt(std::max(s, 0.0)));
        }
      }
    });
  }
  return out;
}

}  // namespace

ValueNorms value_norms(const ForwardResult& result, const RunControl& control) {
  if (!result.params.out_proj_weight) {
    throw InvalidInput("value norms: the result has no out_proj.weight");
  }
  if (result.weights.type() == ElemType::f64) return compute<double>(result, control);
  return compute<float>(result, control);
}

}  // namespace mhaviz
