// Value zeroing restricted to the attention layer (mhaviz/core/analysis/value_zeroing.hpp).
#include "mhaviz/core/analysis/value_zeroing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "base/eigen_types.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/base/parallel.hpp"

namespace mhaviz {
namespace {

using detail::Mat;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Below this share of ‖o‖², ‖o − Δ‖² = ‖o‖² − 2⟨o, Δ⟩ + ‖Δ‖² has lost half its digits to
/// cancellation: the cell is recomputed from the vector o − Δ itself.
constexpr double kCancellation = 1e-8;

template <typename T>
ValueZeroing compute(const ForwardResult& r, const RunControl& control) {
  const std::int64_t N = r.N, H = r.H, L = r.L, Sx = r.Sx, E = r.E, hd = r.hd;
  constexpr ElemType et = std::is_same_v<T, double> ? ElemType::f64 : ElemType::f32;
  ValueZeroing out;
  out.cosine = Tensor::uninitialized(et, {N, L, Sx});
  out.relative_l2 = Tensor::uninitialized(et, {N, L, Sx});
  const Tensor wt = r.params.out_proj_weight->to(ElemType::f64);
  const detail::ConstMatMap<double> wo(wt.data<double>().data(), E, E);
  const auto v = r.v.data<T>();
  const auto w = r.weights.data<T>();
  const auto o = r.output.data<T>();
  auto cosine = out.cosine.data<T>();
  auto rel = out.relative_l2.data<T>();
  const auto at = [](std::int64_t x) { return static_cast<std::size_t>(x); };

  for (std::int64_t n = 0; n < N; ++n) {
    // f[h] (Sx, E): row j is f_h(x_j) = v_j^h W_O^h, what key j adds to an output row per unit
    // of weight in head h. gram[j] (H, H): <f_h(x_j), f_g(x_j)>. out (L, E): the output rows.
    std::vector<Mat<double>> f(at(H));
    for (std::int64_t h = 0; h < H; ++h) {
      Mat<double> vh(Sx, hd);
      const T* src = v.data() + at((n * H + h) * Sx * hd);
      for (std::int64_t k = 0; k < Sx * hd; ++k) vh.data()[k] = src[k];
      f[at(h)].noalias() = vh * wo.middleCols(h * hd, hd).transpose();
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
    Mat<double> rows(L, E);
    const T* osrc = o.data() + at(n * L * E);
    for (std::int64_t k = 0; k < L * E; ++k) rows.data()[k] = osrc[k];
    constexpr std::int64_t kRows = 64;
    const std::int64_t chunks = (L + kRows - 1) / kRows;
    parallel_for(chunks, thread_count(control.threads, chunks), [&](std::int64_t c) {
      if (control.cancel != nullptr && control.cancel->load()) throw Cancelled();
      const std::int64_t i0 = c * kRows, count = std::min(L, i0 + kRows) - i0;
      // p[h] (count, Sx): <o_i, f_h(x_j)>, one product per head.
      std::vector<Mat<double>> p(at(H));
      for (std::int64_t h = 0; h < H; ++h) {
        p[at(h)].noalias() = rows.middleRows(i0, count) * f[at(h)].transpose();
      }
      std::vector<double> a(at(H));
      Eigen::RowVectorXd changed(E);
      for (std::int64_t ii = 0; ii < count; ++ii) {
        const std::int64_t i = i0 + ii;
        const double oo = rows.row(i).squaredNorm();
        const bool defined = std::isfinite(oo) && oo > 0.0;
        for (std::int64_t j = 0; j < Sx; ++j) {
          const std::size_t cell = at((n * L + i) * Sx + j);
          if (!defined) {
            cosine[cell] = static_cast<T>(kNaN);
            rel[cell] = static_cast<T>(kNaN);
            continue;
          }
          double od = 0.0;  // <o_i, Δ_ij>
          for (std::int64_t h = 0; h < H; ++h) {
            a[at(h)] = w[at(((n * H + h) * L + i) * Sx + j)];
            od += a[at(h)] * p[at(h)](ii, j);
          }
          const Mat<double>& g = gram[at(j)];
          double dd = 0.0;  // ‖Δ_ij‖²
          for (std::int64_t h = 0; h < H; ++h) {
            for (std::int64_t k = 0; k < H; ++k) dd += a[at(h)] * a[at(k)] * g(h, k);
          }
          dd = std::max(dd, 0.0);
          rel[cell] = static_cast<T>(std::sqrt(dd / oo));
          if (dd == 0.0 && od == 0.0) {  // nothing removed: the zero column, a zero weight
            cosine[cell] = T(0);
            continue;
          }
          double rest = oo - 2.0 * od + dd;  // ‖o_i − Δ_ij‖²
          double num = oo - od;              // <o_i, o_i − Δ_ij>
          if (!(rest > kCancellation * oo)) {
            changed = rows.row(i);
            for (std::int64_t h = 0; h < H; ++h) changed -= a[at(h)] * f[at(h)].row(j);
            rest = changed.squaredNorm();
            num = rows.row(i).dot(changed);
          }
          cosine[cell] = static_cast<T>(
              rest > 0.0 && std::isfinite(rest) ? 1.0 - num / std::sqrt(oo * rest) : kNaN);
        }
      }
    });
  }
  return out;
}

}  // namespace

ValueZeroing value_zeroing(const ForwardResult& result, const RunControl& control) {
  if (!result.params.out_proj_weight) {
    throw InvalidInput("value zeroing: the result has no out_proj.weight");
  }
  if (result.weights.type() == ElemType::f64) return compute<double>(result, control);
  return compute<float>(result, control);
}

}  // namespace mhaviz
