#pragma once
// Image export of the heatmap grid (PNG/SVG/PDF): the same HeatmapGrid code as the window,
// drawn into an offscreen widget of the requested size. Used by the window and mhaviz-cli
// export. GUI thread only (needs a QApplication; the offscreen platform is enough).

#include <QString>

#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

struct ExportOptions {
  int width = 1600;  // logical pixels of the picture
  int height = 1000;
  double scale = 1.0;        // device pixel ratio / DPI factor (PNG: width*scale pixels)
  bool transparent = false;  // PNG/SVG background left transparent
  QString title;             // empty: describeConfig(config, batch) + stage name
};

/// "L=8 S=8 E=16 H=2 add_bias_kv add_zero_attn, batch 0"
QString describeConfig(const mhaviz::Config& config, int batch);

/// Writes PNG/SVG/PDF chosen by the extension of `path`; returns an empty string on success,
/// else a user-readable error (never throws). `measures`: the result's (held beside it; null:
/// none), for the stages drawn from them.
QString exportImage(const mhaviz::ForwardResult& result, const ViewOptions& view,
                    const ExportOptions& options, const QString& path,
                    const mhaviz::ResultMeasures* measures = nullptr);

/// The same for maps made elsewhere (compare mode's B - A): HeatmapGrid::setStageData.
/// options.title is the caption as given.
QString exportStageImage(const StageData& data, const ViewOptions& view,
                         const ExportOptions& options, const QString& path);

}  // namespace mhaviz::ui
