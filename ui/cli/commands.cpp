#include "cli/commands.hpp"

#include <array>

namespace mhaviz::cli {

std::span<const Command> commands() {
  static const std::array<Command, 7> table = {{
      {"run", "Compute the forward pass and write every tensor to a .npz file.",
       "--config C.json [--tensors T.npz|.safetensors] --out R.npz [--max-memory 4GiB]",
       &addRunOptions, &runCommand, false},
      {"export", "Draw the heatmap grid (as the window does) to a PNG, SVG or PDF file.",
       "--config C.json [--tensors T] --image OUT.png|.svg|.pdf [options]", &addExportOptions,
       &exportCommand, true},
      {"compare", "Compare two configurations: A, B and the signed difference B - A.",
       "--config A.json --config-b B.json [--tensors T] [--tensors-b T] "
       "(--image D.png|.svg|.pdf | --out D.npz) [--stage S] [--batch n]",
       &addCompareOptions, &compareCommand, true},
      {"shapes", "Print the shape of every step of the forward pass.",
       "--config C.json [--tensors T] [--block-sparsity]", &addShapesOptions, &shapesCommand,
       false},
      {"torch", "Write a PyTorch script (and its data file) that reproduces and checks mhaviz.",
       "--config C.json [--tensors T] --out repro.py [--max-memory 4GiB]", &addTorchOptions,
       &torchCommand, false},
      {"stats",
       "Print the head measures (entropy, confidence, sink shares, ablation) as CSV or JSON.",
       "--config C.json [--tensors T] --format csv|json [--out F.csv|.json] [--max-memory 4GiB]",
       &addStatsOptions, &statsCommand, false},
      {"model",
       "Check a whole captured model against PyTorch, draw or print its layers, rollout or flow, "
       "a layer's views, a vision transformer's attention over its image; plain attention "
       "weights with --weights.",
       "(--model M.json | --weights W.npz [--tokens T.txt]) (--check | --stats | --steps | "
       "--rollout | --flow | --image OUT.png [--rollout | --flow] [--step k] | --step k --out "
       "F.npz | --layer l --view grid|head|text --image OUT | --view image --image OUT | "
       "--compare-with A.json) [options]",
       &addModelOptions, &modelCommand, true},
  }};
  return table;
}

}  // namespace mhaviz::cli
