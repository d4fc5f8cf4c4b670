#pragma once
// Pure extraction (no widgets): which matrices a stage shows for one batch element, with titles
// and column meanings. Runs on any thread; owns copies of the values it returns.

#include <QString>
#include <vector>

#include "mhaviz/core/result.hpp"
#include "ui/render/view_options.hpp"

namespace mhaviz::ui {

/// One column (or k/v row) of a map: a source position ("3" or its token label), or the
/// bias_k / zero key appended by add_bias_kv / add_zero_attn.
struct ColumnInfo {
  QString label;
  mhaviz::KeyKind kind = mhaviz::KeyKind::source;
};

struct MapData {
  QString title;                      // "head 0", "average over heads", "out_proj output"...
  int rows = 0, cols = 0;             // rows = queries (or keys for k/v), row 0 shown at the TOP
  std::vector<double> values;         // row-major rows*cols; NaN = NaN; -inf allowed (masked)
  std::vector<ColumnInfo> columns;    // per column (for key-indexed stages), else empty
  std::vector<ColumnInfo> rowsInfo;   // per row for k/v (bias_k / zero rows), else empty
  std::vector<unsigned char> masked;  // per cell, 1 when the merged mask is -inf there
                                      // (weights/scores stages), else empty
};

struct StageData {
  std::vector<MapData> maps;
  double lo = 0, hi = 1;  // shared colour range (symmetric around 0 when isSigned)
  bool isSigned = false;
  QString unit;  // what a value is: "weight", "score", "mask term", "value"...
};

/// The maps of `view.stage` for batch element `view.batch`: one per head (only head
/// view.soloHead when >= 0), plus the head average for weights when view.showAverage; one (L,E)
/// map for merged/output. Throws InvalidInput when the batch element or head does not exist.
StageData extractStage(const mhaviz::ForwardResult& result, const ViewOptions& view);

}  // namespace mhaviz::ui
