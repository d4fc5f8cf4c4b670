#pragma once
// Pictures of a whole model (mhaviz::model): the layers (rows) × heads (columns) grid of small
// attention maps, each layer's agreement with PyTorch beside it, and the attention rollout and
// attention flow maps with their per-token contributions.

#include <QColor>
#include <QImage>
#include <QPoint>
#include <QRect>
#include <QSize>
#include <QString>
#include <functional>

class QPainter;

#include "mhaviz/core/model/model.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

/// The paper and ink of the pictures: white and near-black for files, the window's palette in
/// the model view. Disagreement with PyTorch is always red.
struct ModelPictureColors {
  QColor background = QColor(255, 255, 255);
  QColor ink = QColor(30, 30, 30);
};

/// Layers × heads of batch element `batch` (where things go: model_grid_layout.hpp): each map
/// is that head's weights (queries down, keys across, appended bias_k / zero columns right of a
/// separator), on a fixed 0..1 scale with its legend; the query labels left of the first
/// column, the key labels under the last row, the axes named. Each row is titled with the
/// layer and its largest difference from PyTorch; a layer above the tolerance is framed and
/// titled in red. `withTitle` false leaves out the figure title (the window's model view shows
/// the caption above the picture).
QImage drawModelGrid(const model::Model& model, const model::ComputedModel& computed, int batch,
                     QSize size, Colormap colormap = Colormap::viridis,
                     const ModelPictureColors& colors = {}, bool withTitle = true);

/// Where drawModelGrid(model, computed, batch, size) draws the map of (layer, head); empty when
/// it draws none there.
QRect modelGridMapRect(const model::Model& model, const model::ComputedModel& computed, int batch,
                       QSize size, int layer, int head);

/// The rollout map R (rows: positions after the last layer, columns: input positions) with
/// token labels where the model has them, the per-token contribution under it, and each
/// layer's share on appended columns.
QImage drawRollout(const model::Model& model, const model::Rollout& rollout, QSize size,
                   Colormap colormap = Colormap::viridis, const ModelPictureColors& colors = {});

/// Attention flow's map (each row divided by its sum) drawn as drawRollout draws rollout.
QImage drawFlow(const model::Model& model, const model::AttentionFlow& flow, QSize size,
                Colormap colormap = Colormap::viridis, const ModelPictureColors& colors = {});

/// The header of the rollout and flow pictures: the title and the line on the appended columns,
/// each wrapped to the picture's width (the map starts under them).
struct TokenMapHeader {
  QString titleText;
  QRect title;
  QString extraText;
  QRect extra;
};
TokenMapHeader rolloutHeader(const model::Model& model, const model::Rollout& rollout,
                             QSize size);
TokenMapHeader flowHeader(const model::Model& model, const model::AttentionFlow& flow, QSize size);

/// The same pictures painted onto any painter (an SVG generator): drawModelGrid, drawRollout
/// and drawFlow paint through these.
void paintModelGrid(QPainter& p, const model::Model& model, const model::ComputedModel& computed,
                    int batch, QSize size, Colormap colormap = Colormap::viridis,
                    const ModelPictureColors& colors = {}, bool withTitle = true);
void paintRollout(QPainter& p, const model::Model& model, const model::Rollout& rollout,
                  QSize size, Colormap colormap = Colormap::viridis,
                  const ModelPictureColors& colors = {});
void paintFlow(QPainter& p, const model::Model& model, const model::AttentionFlow& flow,
               QSize size, Colormap colormap = Colormap::viridis,
               const ModelPictureColors& colors = {});

/// Saves what `paint` paints on a white page of `size` as an SVG file (text stays text), atomically;
/// returns an error message naming the file, or an empty string.
QString saveModelSvg(const std::function<void(QPainter&)>& paint, QSize size,
                     const QString& path, const QString& title);

/// Saves a picture as PNG; returns an error message naming the file, or an empty string.
QString saveModelPicture(const QImage& image, const QString& path);

}  // namespace mhaviz::ui
