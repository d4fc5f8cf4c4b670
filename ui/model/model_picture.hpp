#pragma once
// Pictures of a whole model (mhaviz::model): the layers (rows) × heads (columns) grid of small
// attention maps, each layer's agreement with PyTorch beside it, and the attention rollout map
// with its per-token contributions.

#include <QImage>
#include <QSize>
#include <QString>

#include "mhaviz/core/model.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

/// Layers × heads of batch element `batch`: each map is that head's weights (queries down, keys
/// across, appended bias_k / zero columns right of a separator), on a fixed 0..1 scale. Each
/// row is titled with the layer and its largest difference from PyTorch; a layer above the
/// tolerance is framed and titled in red.
QImage drawModelGrid(const model::Model& model, const model::ComputedModel& computed, int batch,
                     QSize size, Colormap colormap = Colormap::viridis);

/// The rollout map R (rows: positions after the last layer, columns: input positions) with
/// token labels where the model has them, the per-token contribution under it, and each
/// layer's share on appended columns.
QImage drawRollout(const model::Model& model, const model::Rollout& rollout, QSize size,
                   Colormap colormap = Colormap::viridis);

/// Saves a picture as PNG; returns an error message naming the file, or an empty string.
QString saveModelPicture(const QImage& image, const QString& path);

}  // namespace mhaviz::ui
