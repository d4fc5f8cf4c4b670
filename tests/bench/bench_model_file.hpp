#pragma once
// A synthetic model file for the benchmarks (docs/capture-and-models.md): `layers` self-attention
// layers of `heads` heads over `tokens` tokens, batch 1, random weights, each layer fed the
// residual stream of the one before. The stored "PyTorch outputs" are the core's own forward
// pass (no torch is run at bench time), so `mhaviz-cli model --check` agrees by construction.
// Written with the core's writers: the index JSON and a stored (not deflated) .npz.

#include <cstdint>
#include <filesystem>
#include <string>

namespace mhaviz::bench {

struct BenchModel {
  std::string name = "bench_model";
  std::int64_t layers = 12, heads = 12, tokens = 512, embed = 768;
};

/// Writes DIR/NAME.json and DIR/NAME.npz; returns the index's path. Throws on a write error.
std::filesystem::path writeBenchModel(const std::filesystem::path& dir, const BenchModel& model);

}  // namespace mhaviz::bench
