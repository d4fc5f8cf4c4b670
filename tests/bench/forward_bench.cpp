// mhaviz-bench: the core forward pass at the sizes of issue 9, as Google Benchmark cases named
// forward/N/L/S/E/H/T (T = threads). FLOP count per pass (multiply-add = 2 FLOP):
//   in-projections  2*N*L*E*E + 2 * 2*N*S*E*E
//   scores          2*N*H*L*S*hd
//   weights @ v     2*N*H*L*S*hd
//   out_proj        2*N*L*E*E
// softmax, masks and copies are not counted.
#include <benchmark/benchmark.h>

#include <array>
#include <string>

#include "mhaviz/core/forward.hpp"

namespace {

double flops(std::int64_t n, std::int64_t l, std::int64_t s, std::int64_t e, std::int64_t h) {
  const double hd = static_cast<double>(e / h);
  const auto N = static_cast<double>(n), L = static_cast<double>(l), S = static_cast<double>(s),
             E = static_cast<double>(e), H = static_cast<double>(h);
  return 2 * N * L * E * E + 4 * N * S * E * E + 4 * N * H * L * S * hd + 2 * N * L * E * E;
}

void forward_case(benchmark::State& state, std::array<std::int64_t, 5> size, int threads) {
  const auto [n, l, s, e, h] = size;
  mhaviz::Config c;
  c.batch_size = n;
  c.tgt_len = l;
  c.src_len = s;
  c.embed_dim = e;
  c.num_heads = h;
  c.need_weights = true;
  c.average_attn_weights = false;
  const mhaviz::Params p = mhaviz::init_params(c);
  const mhaviz::Inputs in = mhaviz::random_inputs(c);
  mhaviz::RunControl rc;
  rc.threads = threads;
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

}  // namespace

BENCHMARK_MAIN();
