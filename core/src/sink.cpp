// Sink scores and the sink rate (mhaviz/core/sink.hpp).
#include "mhaviz/core/sink.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "mhaviz/core/errors.hpp"
#include "mhaviz/core/measures.hpp"

namespace mhaviz {

void check_sink_eps(double eps, const char* what) {
  if (!(eps > 0.0 && eps <= 1.0)) {
    char text[40];
    std::snprintf(text, sizeof text, "%g", eps);
    throw InvalidInput(std::string(what) + " " + text +
                       ": the sink threshold ε is a weight share and must be in (0, 1] (Gu et "
                       "al. use 0.3); give e.g. " +
                       what + " 0.3");
  }
}

SinkScores sink_scores(const ForwardResult& r) {
  SinkScores out;
  out.N = r.N;
  out.H = r.H;
  out.Sx = r.Sx;
  const Tensor& w = attention_distribution(r);
  const auto blocks = static_cast<std::size_t>((r.N + 1) * r.H);
  std::vector<double> sum(blocks * static_cast<std::size_t>(r.Sx), 0.0);
  out.queries.assign(blocks, 0);
  const bool appended = r.Sx > r.S;  // bias_k / zero columns are never masked
  const bool masked = r.has_mask() && !appended;
  const auto open = [&](std::int64_t n, std::int64_t h, std::int64_t i) {
    if (!masked) return true;
    const std::int64_t base = r.mask_offset(n, h, 0) + i * r.mask_row_stride();
    for (std::int64_t j = 0; j < r.Sx; ++j) {
      if (r.merged_mask.value(base + j) != -std::numeric_limits<double>::infinity()) return true;
    }
    return false;
  };
  for (std::int64_t n = 0; n < r.N; ++n) {
    for (std::int64_t h = 0; h < r.H; ++h) {
      double* own = sum.data() + static_cast<std::size_t>((n * r.H + h) * r.Sx);
      double* all = sum.data() + static_cast<std::size_t>((r.N * r.H + h) * r.Sx);
      for (std::int64_t i = 0; i < r.L; ++i) {
        if (!open(n, h, i)) continue;
        ++out.queries[static_cast<std::size_t>(n * r.H + h)];
        ++out.queries[static_cast<std::size_t>(r.N * r.H + h)];
        const std::int64_t row = ((n * r.H + h) * r.L + i) * r.Sx;
        if (w.type() == ElemType::f32) {  // typed: Tensor::value per weight was most of the time
          const float* x = w.data<float>().data() + row;
          for (std::int64_t j = 0; j < r.Sx; ++j) {
            const auto a = static_cast<double>(x[j]);
            own[j] += a;
            all[j] += a;
          }
          continue;
        }
        for (std::int64_t j = 0; j < r.Sx; ++j) {
          const double a = w.value(row + j);
          own[j] += a;
          all[j] += a;
        }
      }
    }
  }
  out.score.resize(sum.size());
  for (std::size_t b = 0; b < blocks; ++b) {
    const auto q = static_cast<double>(out.queries[b]);
    for (std::int64_t j = 0; j < r.Sx; ++j) {
      const std::size_t k = b * static_cast<std::size_t>(r.Sx) + static_cast<std::size_t>(j);
      out.score[k] = q > 0 ? sum[k] / q : std::numeric_limits<double>::quiet_NaN();
    }
  }
  return out;
}

double SinkRate::rate() const {
  return heads > 0 ? static_cast<double>(sinks) / static_cast<double>(heads)
                   : std::numeric_limits<double>::quiet_NaN();
}

SinkRate sink_rate(const SinkScores& s, double eps) {
  SinkRate out;
  if (s.Sx == 0) return out;
  for (std::int64_t n = 0; n < s.N; ++n) {
    for (std::int64_t h = 0; h < s.H; ++h) {
      if (s.queries_of(n, h) == 0) continue;
      ++out.heads;
      if (s.at(n, h, 0) > eps) ++out.sinks;
    }
  }
  return out;
}

}  // namespace mhaviz
