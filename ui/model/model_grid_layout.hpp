#pragma once
// Where the model view's layers × heads picture (model_picture.hpp) puts things, so that the
// drawing, the clicks and the hover text agree: the figure title (wrapped, never cut), the head
// names, each layer's title (one or two lines, as the width allows), the maps, the query
// labels left of the first column and the key labels under the last row (every k-th where
// they do not all fit; the hover names every cell), the axis names and the colour scale.
// Pure geometry from the model and the picture's size; any thread.

#include <QFont>
#include <QFontMetrics>
#include <QPoint>
#include <QRect>
#include <QSize>
#include <QString>
#include <QStringList>
#include <cstdint>

#include "mhaviz/core/model/model.hpp"
#include "stages/layer_name.hpp"

namespace mhaviz::ui {

/// The map under a point: its layer and head, or -1s.
struct ModelGridHit {
  int layer = -1;
  int head = -1;
  [[nodiscard]] bool valid() const { return layer >= 0 && head >= 0; }
};

/// The cell under a point: a map's layer and head and the cell's query row and key column.
struct ModelCellHit {
  int layer = -1, head = -1;
  std::int64_t query = -1, key = -1;
  [[nodiscard]] bool valid() const { return layer >= 0 && head >= 0 && query >= 0 && key >= 0; }
};

/// A layer's token labels: its configuration's, else positions; the keys' appended bias_k
/// and zero columns named so.
QStringList modelQueryLabels(const model::Layer& layer, std::int64_t rows);
QStringList modelKeyLabels(const model::Layer& layer, std::int64_t columns);

/// The figure title of batch element `batch`: file, layers, batch, disagreement, caption.
QString modelGridTitle(const model::Model& model, const model::ComputedModel& computed, int batch);

/// A layer's title in two parts: its name, and its agreement with PyTorch.
/// The name is layer_title's ("layer 0 (blocks.0.attn, step 6)", numbered within its step),
/// its words in the window's language around the module path, which stays as the model has it.
/// (The ModelIndex overload is in stages/layer_name.hpp.)
QString modelLayerName(const model::Model& model, int layer);
QString modelLayerCheck(const model::ComputedModel& computed, int layer);

class ModelGridLayout {
 public:
  /// `withTitle` false: no figure title (the window shows the model's caption above the picture).
  ModelGridLayout(const model::Model& model, const model::ComputedModel& computed, int batch,
                  QSize size, bool withTitle = true);

  QFont font;  // the picture's font (12 px)
  int margin = 8;
  int lineH = 0;  // one line of text
  QString titleText;
  QRect title;  // the wrapped figure title (empty without one)
  int layers = 0, heads = 1;
  int left = 0;     // x of the first column of maps
  int gridTop = 0;  // y of the first layer's row (its title first)
  int cellW = 0, cellH = 0, gap = 1;
  int rowTitleLines = 0;  // 0 (rows too short), 1 or 2 (name, then the check)
  int queryLabelW = 0;    // the query labels' column left of the first column of maps
  int keyBand = 0;        // the key labels' band under the last row
  bool keysRotated = false;
  QRect queryAxis;  // "query", written upwards, left of the labels
  QRect keyAxis;    // "key", under the key labels
  QRect scale;      // the colour scale's bar
  /// The picture's height at which every layer's row has room for its title (two lines) and
  /// maps five lines tall: the model view scrolls a picture this tall rather than drop the row
  /// titles and shrink the maps (a generation capture has a row per call of every step).
  int neededHeight = 0;

  /// Where the map of (layer, head) is; empty when there is none.
  [[nodiscard]] QRect mapRect(int layer, int head) const;
  /// The rectangle of layer `layer`'s title (empty without row titles).
  [[nodiscard]] QRect rowTitle(int layer) const;
  [[nodiscard]] ModelGridHit hit(QPoint point) const;
  [[nodiscard]] ModelCellHit cell(QPoint point) const;

 private:
  const model::Model* m_model;
  const model::ComputedModel* m_computed;
};

}  // namespace mhaviz::ui
