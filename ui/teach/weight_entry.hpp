#pragma once
// One entry of a weight-matrix map (the in_proj_weight and out_proj.weight stages) as the cell
// breakdown explains it: which matrix, which output feature its row makes and which input
// feature its column reads, and its value, read from the parameters the result was computed
// with. Pure (no widgets), any thread.

#include <QString>
#include <cstdint>
#include <optional>

#include "mhaviz/core/forward/result.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

struct WeightEntry {
  QString matrix;               // "W_q", "k_proj_weight", "out_proj.weight"
  QString tensor;               // the state_dict tensor it is read from ("in_proj_weight")
  QChar projected = u'q';       // q, k or v (in_proj); 'o' for out_proj.weight
  std::int64_t head = -1;       // the head whose slice the map shows (-1: out_proj.weight)
  std::int64_t hd = 0;          // head_dim
  std::int64_t outFeature = 0;  // row of the matrix: the feature of q / k / v / the output made
  std::int64_t inFeature = 0;   // column: the feature of the input read
  std::int64_t tensorRow = 0;   // row in `tensor` (in_proj_weight stacks W_q, W_k, W_v)
  double value = 0;
  std::optional<double> bias;  // in_proj_bias / out_proj.bias of that output feature
};

/// Entry (row, col) of map `map` of the view's parameter stage. Throws InvalidInput when the
/// stage is not a parameter stage or the cell is out of range.
WeightEntry weightEntry(const mhaviz::ForwardResult& result, const ViewOptions& view, int map,
                        int row, int col);

/// The entry as HTML for the breakdown panel.
QString weightEntryHtml(const WeightEntry& entry);

}  // namespace mhaviz::ui
