// mhaviz-long-bench: the long-context view of issue 16 (not a test; run by hand). Computes
// L = S = 32768, E = 512, H = 8, N = 1 with a causal mask (the default), folded to a screen's
// worth of values per map, as the window and `mhaviz-cli export` do, and prints the wall time of
// each step, the peak RSS, and the same for a normal forward pass at L = S = 2048 measured in
// the same run as the reference (the long case does 256x its attention work).
//
//   mhaviz-long-bench [--len 32768] [--threads 2] [--cells 512] [--reduce mean|max] [--mask
//   causal|none]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/long_context/long_context.hpp"
#include "mhaviz/core/plan/memory.hpp"
#include "mhaviz/core/plan/problem.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// CPU seconds of every thread of the process so far (user + system): on a shared, loaded
// machine the wall time waits for cores, this does not.
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

mhaviz::Config config(std::int64_t len, bool causal) {
  mhaviz::Config c;
  c.batch_size = 1;
  c.tgt_len = len;
  c.src_len = len;
  c.embed_dim = 512;
  c.num_heads = 8;
  if (causal) c.attn_mask_spec.kind = mhaviz::gen::MaskKind::causal;
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  std::int64_t len = 32768, cells = 512;
  int threads = 2;
  bool causal = true;
  auto reduce = mhaviz::BlockReduce::mean;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string opt = argv[i], val = argv[i + 1];
    if (opt == "--len")
      len = std::stoll(val);
    else if (opt == "--threads")
      threads = std::stoi(val);
    else if (opt == "--cells")
      cells = std::stoll(val);
    else if (opt == "--reduce")
      reduce = val == "max" ? mhaviz::BlockReduce::max : mhaviz::BlockReduce::mean;
    else if (opt == "--mask")
      causal = val != "none";
    else {
      std::fprintf(stderr, "unknown option %s\n", opt.c_str());
      return 2;
    }
  }
  mhaviz::RunControl rc;
  rc.threads = threads;

  const mhaviz::Config c = config(len, causal);
  std::printf("L=S=%lld E=512 H=8 N=1 %s, %d threads, %lldx%lld values per map\n",
              static_cast<long long>(len), causal ? "causal" : "no mask", threads,
              static_cast<long long>(cells), static_cast<long long>(cells));
  std::printf("memory estimate: all maps %s, reduced view %s\n",
              mhaviz::format_bytes(mhaviz::estimate_memory(c)).c_str(),
              mhaviz::format_bytes(mhaviz::estimate_reduced_memory(c, threads)).c_str());
  auto t0 = std::chrono::steady_clock::now();
  double cpu0 = cpu_seconds();
  const mhaviz::Problem p = mhaviz::make_reduced_problem(c);
  const double problem_s = seconds_since(t0), problem_cpu = cpu_seconds() - cpu0;
  mhaviz::ReducedRequest req;
  req.max_rows = cells;
  req.max_cols = cells;
  req.reduce = reduce;
  t0 = std::chrono::steady_clock::now();
  cpu0 = cpu_seconds();
  const mhaviz::ReducedWeights w = mhaviz::reduced_weights(p.config, p.params, p.inputs, req, rc);
  const double reduced_s = seconds_since(t0), reduced_cpu = cpu_seconds() - cpu0;
  // A zoom: the exact cells of a 256 x 256 region in the middle.
  req.query_begin = len / 2, req.query_end = len / 2 + 256;
  req.key_begin = len / 2 - 256, req.key_end = len / 2;
  t0 = std::chrono::steady_clock::now();
  const mhaviz::ReducedWeights z = mhaviz::reduced_weights(p.config, p.params, p.inputs, req, rc);
  const double zoom_s = seconds_since(t0);
  std::printf("inputs and mask:       %8.2f s  (CPU %.2f s)\n", problem_s, problem_cpu);
  std::printf("reduced weights:       %8.2f s  (CPU %.2f s; %s, %lldx%lld per map)\n", reduced_s,
              reduced_cpu, w.description().c_str(), static_cast<long long>(w.rows),
              static_cast<long long>(w.cols));
  std::printf("zoom 256x256 exact:    %8.2f s  (%s)\n", zoom_s, z.description().c_str());
  std::printf("total:                 %8.2f s\n", problem_s + reduced_s);
  std::printf("peak RSS:              %8.0f MiB\n", peak_rss_mib());
  // Reference in the same run, after the peak above was read: a normal forward pass at
  // L = S = 2048.
  const mhaviz::Problem ps = mhaviz::make_problem(config(2048, causal));
  t0 = std::chrono::steady_clock::now();
  cpu0 = cpu_seconds();
  { const mhaviz::ForwardResult r = mhaviz::forward(ps.config, ps.params, ps.inputs, rc); }
  const double reference = seconds_since(t0), reference_cpu = cpu_seconds() - cpu0;
  std::printf(
      "reference forward L=S=%lld: %.3f s (CPU %.3f s); long/reference = %.1fx, in CPU "
      "%.1fx (attention work %.0fx)\n",
      2048LL, reference, reference_cpu, reduced_s / reference, reduced_cpu / reference_cpu,
      static_cast<double>(len) * static_cast<double>(len) / (2048.0 * 2048.0));
  return 0;
}
