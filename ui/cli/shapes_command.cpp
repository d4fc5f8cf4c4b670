// mhaviz-cli shapes: the shape flow of a configuration as an aligned table.

#include <algorithm>
#include <array>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/problem_options.hpp"
#include "cli/usage_error.hpp"
#include "mhaviz/core/analysis/block_sparsity.hpp"
#include "mhaviz/core/plan/problem.hpp"
#include "mhaviz/core/spec/shapes.hpp"

namespace mhaviz::cli {

namespace {

/// Rows of cells printed with each column padded to its widest cell, two spaces apart.
void printTable(const std::vector<std::array<std::string, 4>>& rows) {
  std::array<std::size_t, 4> width{};
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    std::cout << line << '\n';
  }
}

/// The fully masked blocks of the merged mask at each of kSparsityBlocks, after the table.
void printBlockSparsity(const Problem& problem) {
  std::cout << "\nblock sparsity of the merged mask (attn_mask + key_padding_mask, L x S' per "
               "batch element and head):\nfully masked blocks, which a block-sparse kernel "
               "skips\n";
  for (const std::int64_t block : kSparsityBlocks) {
    const BlockSparsity s = block_sparsity(problem.config, problem.params, problem.inputs, block);
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%", 100.0 * s.share());
    std::cout << "  block " << block << ": " << s.fully_masked << " of " << s.total() << " blocks ("
              << share << "); " << s.maps << " maps of " << s.rows << " x " << s.cols
              << " blocks\n";
  }
}

}  // namespace

void addShapesOptions(QCommandLineParser& parser) {
  addProblemOptions(parser, false);
  parser.addOption({QStringLiteral("block-sparsity"),
                    QStringLiteral("Also print the share of fully masked 64x64 and 128x128 "
                                   "blocks of the merged mask (what a block-sparse kernel "
                                   "skips). Generates the masks, computes nothing else.")});
}

int shapesCommand(const QCommandLineParser& parser) {
  const LoadedFiles files = loadFiles(parser);
  validate_config(files.config);
  // Tensors given are checked against the config as `run` would check them; nothing is
  // computed, so no memory limit applies.
  const bool sparsity = parser.isSet(QStringLiteral("block-sparsity"));
  std::optional<Problem> problem;
  if (!files.tensors.empty() || sparsity) {
    problem = make_problem(files.config, files.tensors, files.tensorsName.toStdString());
  }
  const std::vector<ShapeStep> steps = shape_flow(files.config, staticSrcLen(files.tensors));
  std::vector<std::array<std::string, 4>> rows;
  rows.push_back({"step", "tensor", "symbolic shape", "concrete shape"});
  for (const ShapeStep& s : steps)
    rows.push_back({s.step, s.tensor, s.symbolic, shape_str(s.shape)});
  printTable(rows);
  if (sparsity) printBlockSparsity(*problem);
  return kExitOk;
}

}  // namespace mhaviz::cli
