// Logit scale per head (mhaviz/core/analysis/logit_scale.hpp).
#include "mhaviz/core/analysis/logit_scale.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <string>

#include "base/eigen_types.hpp"
#include "mhaviz/core/base/errors.hpp"

namespace mhaviz {

std::vector<double> logit_scales(const Params& params, std::int64_t embed_dim,
                                 std::int64_t num_heads) {
  if (num_heads <= 0 || embed_dim <= 0 || embed_dim % num_heads != 0) {
    throw InvalidInput("logit scale: embed_dim " + std::to_string(embed_dim) +
                       " is not a positive multiple of num_heads " + std::to_string(num_heads));
  }
  const std::int64_t E = embed_dim, hd = E / num_heads;
  Tensor wq, wk;
  if (params.in_proj_weight) {
    const Tensor w = params.in_proj_weight->to(ElemType::f64);
    wq = w;
    wk = w;
  } else if (params.q_proj_weight && params.k_proj_weight) {
    wq = params.q_proj_weight->to(ElemType::f64);
    wk = params.k_proj_weight->to(ElemType::f64);
  } else {
    throw InvalidInput(
        "logit scale: the parameters have neither in_proj_weight nor q_proj_weight and "
        "k_proj_weight; load or generate the projection weights first");
  }
  const bool packed = static_cast<bool>(params.in_proj_weight);
  const std::int64_t kdim = packed ? E : wk.numel() / E;
  const detail::ConstMatMap<double> q(wq.data<double>().data(), packed ? 3 * E : E, E);
  const detail::ConstMatMap<double> k(wk.data<double>().data(), packed ? 3 * E : E, kdim);
  const std::int64_t k0 = packed ? E : 0;
  std::vector<double> out(static_cast<std::size_t>(num_heads));
  for (std::int64_t h = 0; h < num_heads; ++h) {
    // σ_max(Qᵀ K)² = λ_max(Kᵀ Q Qᵀ K) = λ_max(G^½ M G^½) with the hd × hd Gram matrices
    // G = Q Qᵀ and M = K Kᵀ: two small eigen-decompositions instead of an E × E SVD.
    const auto qh = q.middleRows(h * hd, hd);
    const auto kh = k.middleRows(k0 + h * hd, hd);
    const detail::Mat<double> g = qh * qh.transpose();
    const detail::Mat<double> m = kh * kh.transpose();
    const Eigen::SelfAdjointEigenSolver<detail::Mat<double>> ge(g);
    const detail::Mat<double> root = ge.eigenvectors() *
                                     ge.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal() *
                                     ge.eigenvectors().transpose();
    const detail::Mat<double> inner = root * m * root;
    const Eigen::SelfAdjointEigenSolver<detail::Mat<double>> ie(inner, Eigen::EigenvaluesOnly);
    const double top =
        ie.eigenvalues().size() > 0 ? std::sqrt(std::max(ie.eigenvalues().maxCoeff(), 0.0)) : 0.0;
    out[static_cast<std::size_t>(h)] = top / std::sqrt(static_cast<double>(hd));
  }
  return out;
}

}  // namespace mhaviz
