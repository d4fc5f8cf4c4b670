// Sink scores and the sink rate (mhaviz/core/analysis/sink.hpp).
#include "mhaviz/core/analysis/sink.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/base/parallel.hpp"

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

namespace {

/// Columns of one block of the sums: each block adds its columns over every query, in the
/// order of (n, i), so the sums do not depend on the blocks or the threads, bit for bit.
constexpr std::int64_t kSinkColumns = 256;
/// Queries of one block of the open-query count.
constexpr std::int64_t kSinkRows = 256;

void check_cancel(const RunControl& control) {
  if (control.cancel != nullptr && control.cancel->load(std::memory_order_relaxed)) {
    throw Cancelled();
  }
}

template <typename T>
SinkScores scores(const ForwardResult& r, const RunControl& control) {
  SinkScores out;
  out.N = r.N;
  out.H = r.H;
  out.Sx = r.Sx;
  const auto w = attention_distribution(r).data<T>();
  const auto blocks = static_cast<std::size_t>((r.N + 1) * r.H);
  std::vector<double> sum(blocks * static_cast<std::size_t>(r.Sx), 0.0);
  out.queries.assign(blocks, 0);
  const bool appended = r.Sx > r.S;  // bias_k / zero columns are never masked
  const bool masked = r.has_mask() && !appended;
  // Whether query (n, h, i) has an open key, for every (n, h, i).
  std::vector<std::uint8_t> open(static_cast<std::size_t>(r.N * r.H * r.L), 1);
  if (masked) {
    const std::int64_t chunks = (r.L + kSinkRows - 1) / kSinkRows;
    const std::int64_t count = r.N * r.H * chunks;
    parallel_for(count, thread_count(control.threads, count), [&](std::int64_t k) {
      check_cancel(control);
      const std::int64_t b = k / chunks, i0 = (k % chunks) * kSinkRows;
      const std::int64_t n = b / r.H, h = b % r.H;
      for (std::int64_t i = i0; i < std::min(r.L, i0 + kSinkRows); ++i) {
        const std::int64_t base = r.mask_offset(n, h, 0) + i * r.mask_row_stride();
        bool any = false;
        for (std::int64_t j = 0; j < r.Sx && !any; ++j) {
          any = r.merged_mask.value(base + j) != -std::numeric_limits<double>::infinity();
        }
        open[static_cast<std::size_t>(b * r.L + i)] = any ? 1 : 0;
      }
    });
  }
  for (std::int64_t n = 0; n < r.N; ++n) {
    for (std::int64_t h = 0; h < r.H; ++h) {
      for (std::int64_t i = 0; i < r.L; ++i) {
        if (open[static_cast<std::size_t>((n * r.H + h) * r.L + i)] == 0) continue;
        ++out.queries[static_cast<std::size_t>(n * r.H + h)];
        ++out.queries[static_cast<std::size_t>(r.N * r.H + h)];
      }
    }
  }
  // Blocks of (head, kSinkColumns columns).
  const std::int64_t chunks = (r.Sx + kSinkColumns - 1) / kSinkColumns;
  const std::int64_t count = r.H * chunks;
  parallel_for(count, thread_count(control.threads, count), [&](std::int64_t k) {
    check_cancel(control);
    const std::int64_t h = k / chunks, j0 = (k % chunks) * kSinkColumns;
    const std::int64_t j1 = std::min(r.Sx, j0 + kSinkColumns);
    double* all = sum.data() + static_cast<std::size_t>((r.N * r.H + h) * r.Sx);
    for (std::int64_t n = 0; n < r.N; ++n) {
      double* own = sum.data() + static_cast<std::size_t>((n * r.H + h) * r.Sx);
      for (std::int64_t i = 0; i < r.L; ++i) {
        if (open[static_cast<std::size_t>((n * r.H + h) * r.L + i)] == 0) continue;
        const T* a = w.data() + static_cast<std::size_t>(((n * r.H + h) * r.L + i) * r.Sx);
        for (std::int64_t j = j0; j < j1; ++j) {
          const auto x = static_cast<double>(a[j]);
          own[j] += x;
          all[j] += x;
        }
      }
    }
  });
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

}  // namespace

SinkScores sink_scores(const ForwardResult& r, const RunControl& control) {
  if (attention_distribution(r).type() == ElemType::f64) return scores<double>(r, control);
  return scores<float>(r, control);
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
