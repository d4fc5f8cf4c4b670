// mhaviz-cli shapes: the shape flow of a configuration as an aligned table.

#include <algorithm>
#include <array>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/problem_options.hpp"
#include "cli/usage_error.hpp"
#include "mhaviz/core/problem.hpp"
#include "mhaviz/core/shapes.hpp"

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

}  // namespace

void addShapesOptions(QCommandLineParser& parser) { addProblemOptions(parser, false); }

int shapesCommand(const QCommandLineParser& parser) {
  const LoadedFiles files = loadFiles(parser);
  validate_config(files.config);
  // Tensors given are checked against the config as `run` would check them; nothing is
  // computed, so no memory limit applies.
  if (!files.tensors.empty()) {
    (void)make_problem(files.config, files.tensors, files.tensorsName.toStdString());
  }
  const std::vector<ShapeStep> steps = shape_flow(files.config, staticSrcLen(files.tensors));
  std::vector<std::array<std::string, 4>> rows;
  rows.push_back({"step", "tensor", "symbolic shape", "concrete shape"});
  for (const ShapeStep& s : steps)
    rows.push_back({s.step, s.tensor, s.symbolic, shape_str(s.shape)});
  printTable(rows);
  return kExitOk;
}

}  // namespace mhaviz::cli
