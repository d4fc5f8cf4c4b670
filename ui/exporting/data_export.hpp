#pragma once
// Data and batch exports of a result: the shown stage as CSV, every tensor as .npz (the names
// of `mhaviz-cli run`), and one image per head. GUI thread for the image functions (they draw
// through exportImage); the CSV/npz functions run on any thread.

#include <QString>
#include <QStringList>

#include "mhaviz/core/forward/result.hpp"
#include "render/image_export.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

/// CSV of `data` in long form, one line per cell: map,row,column,value. `map` is the English map
/// title ("head 0", "average over heads": the file is the same in every UI language), `row` the
/// query (or key) index, `column` the column label ("3", "bias_k", "zero"); values are written
/// round-trip ("-inf" and "nan" as such).
QString stageCsv(const StageData& data);

/// Writes stageCsv(extractStage(result, view, copy, measures)) atomically. Throws InvalidInput.
void writeStageCsv(const mhaviz::ForwardResult& result, const ViewOptions& view,
                   const QString& path, const mhaviz::ResultMeasures* measures = nullptr);

/// Writes every tensor of `result` as .npz with mhaviz-cli run's names, members stored (not
/// compressed) like numpy.savez and mhaviz-cli run. Throws InvalidInput.
void writeResultNpz(const mhaviz::ForwardResult& result, const QString& path);

/// "weights_head0_batch0.png": stage (spaces as '_'), head, batch element, extension. English
/// in every UI language; the pictures' titles are translated.
QString headFileName(Stage stage, int head, int batch, const QString& extension);

/// Exports each head of view.stage for view.batch into `folder` (one file per head, named by
/// headFileName), through exportImage. For merged/output (no per-head maps) writes the one map
/// as "<stage>_batch<b>.<ext>". Returns the written paths; throws InvalidInput on the first
/// failure. `measures`: the result's, as exportImage's.
QStringList exportAllHeads(const mhaviz::ForwardResult& result, ViewOptions view,
                           const ExportOptions& options, const QString& folder,
                           const QString& extension,
                           const mhaviz::ResultMeasures* measures = nullptr);

}  // namespace mhaviz::ui
