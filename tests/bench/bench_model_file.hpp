#pragma once
// A synthetic model file for the benchmarks (docs/capture-and-models.md): `layers` self-attention
// layers of `heads` heads over `tokens` tokens, batch 1, random weights, each layer fed the
// residual stream of the one before. The stored "PyTorch outputs" are the core's own forward
// pass (no torch is run at bench time), so `mhaviz-cli model --check` agrees by construction.
// Written with the core's writers: the index JSON and a stored (not deflated) .npz.
// Two more kinds for the window benchmark: a vision transformer's capture (format version 3:
// the same layers over a class token and a grid x grid patch grid, with its image tensor) and a
// weights-only file (version 4: each layer's (1, heads, tokens, tokens) softmax weights alone).

#include <cstdint>
#include <filesystem>
#include <string>

namespace mhaviz::bench {

enum class BenchModelKind {
  computed,  ///< version 1: parameters, inputs and outputs; every layer computed on reading
  vision,    ///< version 3: as computed, over [CLS] + grid x grid patches, with an image
  weights,   ///< version 4: the weights alone (random softmax rows), nothing computed
};

struct BenchModel {
  std::string name = "bench_model";
  std::int64_t layers = 12, heads = 12, tokens = 512, embed = 768;
  BenchModelKind kind = BenchModelKind::computed;
  /// vision: the patch grid (grid x grid patches of patch x patch pixels); tokens is then
  /// 1 + grid * grid (the class token first).
  std::int64_t grid = 24, patch = 16;
  /// weights: another seed gives another file of the same shape (0: the usual one).
  std::uint64_t seed = 0;
};

/// Writes DIR/NAME.json and DIR/NAME.npz; returns the index's path. Throws on a write error.
std::filesystem::path writeBenchModel(const std::filesystem::path& dir, const BenchModel& model);

}  // namespace mhaviz::bench
