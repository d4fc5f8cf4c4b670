#pragma once
// The picture of one generation step (mhaviz::model::StepRows): for every layer of the step,
// each head's weights from the newest position to the keys, as rows of a heads × keys map.
// mhaviz-cli model --step draws it; the window's step view shows it.

#include <QImage>
#include <QSize>
#include <QString>

#include "mhaviz/core/model/model.hpp"
#include "model/model_picture.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

/// The line under the step picture's title: what a row shows, and where the appended bias_k /
/// zero columns are when some layer of the step has them.
QString stepRowsNote(const model::StepRows& rows);

/// Layers (blocks, top to bottom) × heads (rows) × keys (columns, the appended bias_k / zero
/// columns after a gap), on a fixed 0..1 scale, with the step, the newest position and the
/// token it generates in the title, and key labels where the model has them.
QImage drawStepRows(const model::Model& model, const model::StepRows& rows, QSize size,
                    Colormap colormap = Colormap::viridis, const ModelPictureColors& colors = {});

}  // namespace mhaviz::ui
