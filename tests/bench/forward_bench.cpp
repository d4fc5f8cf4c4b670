// mhaviz-bench: the core forward pass at the sizes of issue 9, as Google Benchmark cases named
// forward/N/L/S/E/H/T (T = threads). FLOP count per pass (multiply-add = 2 FLOP):
//   in-projections  2*N*L*E*E + 2 * 2*N*S*E*E
//   scores          2*N*H*L*S*hd
//   weights @ v     2*N*H*L*S*hd
//   out_proj        2*N*L*E*E
// softmax, masks and copies are not counted.
//
// Each case is warmed up (two passes and at least 0.3 s) before it is timed: the figures are
// steady-state ones. `mhaviz-bench --first-run=N/L/S/E/H/T` instead times a single pass in this
// fresh process (memory never touched before: what the first computation after start-up costs) and
// prints "first run N/L/S/E/H/T: X ms".
#include <benchmark/benchmark.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>

#include "kernels/exp_row.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/gen/inputs.hpp"
#include "mhaviz/core/gen/weights.hpp"

namespace {

double flops(std::int64_t n, std::int64_t l, std::int64_t s, std::int64_t e, std::int64_t h) {
  const double hd = static_cast<double>(e / h);
  const auto N = static_cast<double>(n), L = static_cast<double>(l), S = static_cast<double>(s),
             E = static_cast<double>(e), H = static_cast<double>(h);
  return 2 * N * L * E * E + 4 * N * S * E * E + 4 * N * H * L * S * hd + 2 * N * L * E * E;
}

mhaviz::Config config_for(std::array<std::int64_t, 5> size) {
  const auto [n, l, s, e, h] = size;
  mhaviz::Config c;
  c.batch_size = n;
  c.tgt_len = l;
  c.src_len = s;
  c.embed_dim = e;
  c.num_heads = h;
  c.need_weights = true;
  c.average_attn_weights = false;
  return c;
}

void forward_case(benchmark::State& state, std::array<std::int64_t, 5> size, int threads) {
  const auto [n, l, s, e, h] = size;
  const mhaviz::Config c = config_for(size);
  const mhaviz::Params p = mhaviz::init_params(c);
  const mhaviz::Inputs in = mhaviz::random_inputs(c);
  mhaviz::RunControl rc;
  rc.threads = threads;
  // Warm-up (not timed): the first passes fault in fresh memory; the figures are steady-state.
  const auto warm_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
  for (int i = 0; i < 2 || std::chrono::steady_clock::now() < warm_until; ++i) {
    const mhaviz::ForwardResult r = mhaviz::forward(c, p, in, rc);
    benchmark::DoNotOptimize(r.attn_output.bytes().data());
  }
  for (auto _ : state) {
    mhaviz::ForwardResult r = mhaviz::forward(c, p, in, rc);
    benchmark::DoNotOptimize(r.attn_output.bytes().data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(flops(n, l, s, e, h) * 1e-9,
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

constexpr std::array<std::array<std::int64_t, 5>, 5> kSizes = {{{2, 16, 16, 64, 4},
                                                                {4, 128, 128, 256, 8},
                                                                {1, 512, 512, 512, 8},
                                                                {8, 512, 512, 768, 12},
                                                                {1, 2048, 2048, 512, 8}}};

const bool registered = [] {
  for (const auto& size : kSizes) {
    for (int threads : {1, 2}) {
      std::string name = "forward";
      for (auto v : size) name += "/" + std::to_string(v);
      name += "/" + std::to_string(threads);
      benchmark::RegisterBenchmark(name.c_str(), forward_case, size, threads)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  return true;
}();

/// `--first-run=N/L/S/E/H/T`: one timed pass, the first of this process. Returns the exit code.
int first_run(const char* spec) {
  std::array<std::int64_t, 6> v{};
  std::istringstream in(spec);
  char slash = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0 && !(in >> slash && slash == '/')) break;
    if (!(in >> v[i]) || v[i] <= 0) {
      std::fprintf(stderr,
                   "mhaviz-bench: --first-run wants N/L/S/E/H/T (six positive "
                   "integers), e.g. --first-run=1/2048/2048/512/8/1\n");
      return 2;
    }
  }
  const std::array<std::int64_t, 5> size{v[0], v[1], v[2], v[3], v[4]};
  const mhaviz::Config c = config_for(size);
  const mhaviz::Params p = mhaviz::init_params(c);
  const mhaviz::Inputs in_ = mhaviz::random_inputs(c);
  mhaviz::RunControl rc;
  rc.threads = static_cast<int>(v[5]);
  const auto start = std::chrono::steady_clock::now();
  const mhaviz::ForwardResult r = mhaviz::forward(c, p, in_, rc);
  const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
  benchmark::DoNotOptimize(r.attn_output.bytes().data());
  std::printf("first run %s: %.3f ms\n", spec, ms.count());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  constexpr const char* kFirst = "--first-run=";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], kFirst, std::strlen(kFirst)) == 0) {
      return first_run(argv[i] + std::strlen(kFirst));
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  // Which of the softmax's exp kernels this CPU runs (MHAVIZ_ISA may ask for a narrower one).
  benchmark::AddCustomContext("mhaviz_exp_kernels", mhaviz::detail::kernels::exp_kernels().isa);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
