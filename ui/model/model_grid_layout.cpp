// The model view's picture geometry (model_grid_layout.hpp).
#include "model/model_grid_layout.hpp"

#include <QCoreApplication>
#include <QFileInfo>
#include <QFontMetrics>
#include <algorithm>
#include <cmath>

#include "model/picture_parts.hpp"

namespace mhaviz::ui {

namespace {

QString difference(double d) {
  return std::isinf(d) ? QStringLiteral("∞") : QString::number(d, 'g', 2);
}

const Tensor* weightsOf(const model::ComputedModel& computed, int layer) {
  if (layer < 0 || static_cast<std::size_t>(layer) >= computed.weights.size()) return nullptr;
  const Tensor& w = computed.weights[static_cast<std::size_t>(layer)];
  return w.dim() == 4 ? &w : nullptr;
}

int widest(const QFontMetrics& fm, const QStringList& labels) {
  int w = 0;
  for (const QString& l : labels) w = std::max(w, fm.horizontalAdvance(l));
  return w;
}

}  // namespace

QStringList modelQueryLabels(const model::Layer& layer, std::int64_t rows) {
  const auto& labels = layer.problem.config.query_labels;
  QStringList out;
  for (std::int64_t i = 0; i < rows; ++i) {
    out << (static_cast<std::size_t>(i) < labels.size()
                ? QString::fromStdString(labels[static_cast<std::size_t>(i)])
                : QString::number(i));
  }
  return out;
}

QStringList modelKeyLabels(const model::Layer& layer, std::int64_t columns) {
  const mhaviz::Config& c = layer.problem.config;
  const auto& labels = c.key_labels;
  QStringList out;
  for (std::int64_t j = 0; j < columns; ++j) {
    if (j >= c.src_len) {
      out << (c.add_bias_kv && j == c.src_len ? QStringLiteral("bias_k") : QStringLiteral("zero"));
    } else {
      out << (static_cast<std::size_t>(j) < labels.size()
                  ? QString::fromStdString(labels[static_cast<std::size_t>(j)])
                  : QString::number(j));
    }
  }
  return out;
}

QString modelGridTitle(const model::Model& model, const model::ComputedModel& computed, int batch) {
  QString title =
      QCoreApplication::translate("ModelPicture", "%1 — %2 attention layers, batch element %3")
          .arg(QFileInfo(QString::fromStdString(model.index.path.string())).fileName())
          .arg(model.layers.size())
          .arg(batch);
  if (const std::size_t bad = computed.disagreeing(); bad > 0)
    title +=
        QCoreApplication::translate("ModelPicture", "; layers differing from PyTorch: %1").arg(bad);
  if (!model.index.caption.empty())
    title += QStringLiteral(" — ") + QString::fromStdString(model.index.caption);
  return title;
}

QString modelLayerName(const model::Model& model, int layer) {
  return modelLayerName(model.index, static_cast<std::size_t>(layer));
}

QString modelLayerCheck(const model::ComputedModel& computed, int layer) {
  const model::LayerCheck& check = computed.checks[static_cast<std::size_t>(layer)];
  if (!check.checked)  // weights-only: nothing was recomputed, nothing compared
    return QCoreApplication::translate("ModelPicture", "stored weights (weights-only file)");
  return check.ok ? QCoreApplication::translate("ModelPicture",
                                                "matches PyTorch (largest difference %1)")
                        .arg(difference(check.worst()))
                  : QCoreApplication::translate("ModelPicture", "DIFFERS from PyTorch by %1")
                        .arg(difference(check.worst()));
}

ModelGridLayout::ModelGridLayout(const model::Model& model, const model::ComputedModel& computed,
                                 int batch, QSize size, bool withTitle)
    : m_model(&model), m_computed(&computed) {
  font.setPixelSize(12);
  const QFontMetrics fm(font);
  lineH = fm.height() + 2;
  layers = static_cast<int>(model.layers.size());
  for (const model::Layer& l : model.layers)
    heads = std::max(heads, static_cast<int>(l.info.config.num_heads));
  const int width = size.width() - 2 * margin;

  // The title wraps (up to four lines; the caption is the model's own, rarely longer).
  int headerTop = margin;
  if (withTitle) {
    titleText = modelGridTitle(model, computed, batch);
    const QRect needed = fm.boundingRect(QRect(0, 0, std::max(width, 40), 10000),
                                         Qt::TextWordWrap | Qt::AlignLeft, titleText);
    title = QRect(margin, margin, width, std::min(needed.height(), 4 * fm.height()) + 2);
    headerTop = title.bottom() + 4;
  }
  gridTop = headerTop + lineH;

  // The query labels (each row's first map) and the axis names; the scale on the right.
  int queryWidest = 0;
  for (int li = 0; li < layers; ++li) {
    if (const Tensor* w = weightsOf(computed, li)) {
      queryWidest = std::max(
          queryWidest, widest(fm, modelQueryLabels(model.layers[std::size_t(li)], w->size(2))));
    }
  }
  queryLabelW = std::min(queryWidest, 120) + 6;
  const int axisW = lineH;
  left = margin + axisW + queryLabelW;
  const int scaleW = colourScaleWidth(fm) + margin;
  cellW = std::max(4, (size.width() - left - margin - scaleW) / heads);
  gap = std::clamp(cellW / 16, 2, 6);

  // The key labels under the last row: across where a column holds the widest label, else
  // written upwards (at most 80 px tall).
  const Tensor* last = weightsOf(computed, layers - 1);
  if (last != nullptr) {
    const QStringList keys = modelKeyLabels(model.layers.back(), last->size(3));
    const int keyWidest = std::min(widest(fm, keys), 80);
    const double column = double(cellW - gap) / double(last->size(3));
    keysRotated = column < keyWidest + 4;
    keyBand = (keysRotated ? keyWidest + 4 : fm.height()) + 6;
  }
  const int keyAxisH = lineH;
  cellH =
      std::max(8, (size.height() - gridTop - keyBand - keyAxisH - margin) / std::max(1, layers));

  // Row titles: one line where every layer's name and check fit side by side, else two.
  int titleWidest = 0;
  for (int li = 0; li < layers; ++li) {
    titleWidest = std::max(titleWidest,
                           fm.horizontalAdvance(modelLayerName(model, li) + QStringLiteral(" — ") +
                                                modelLayerCheck(computed, li)));
  }
  const int rowWidth = heads * cellW - gap;
  rowTitleLines = titleWidest <= rowWidth ? 1 : 2;
  if (cellH < (rowTitleLines + 2) * lineH) rowTitleLines = cellH >= 3 * lineH ? 1 : 0;

  neededHeight = gridTop + layers * 7 * lineH + keyBand + keyAxisH + margin;
  const int gridBottom = gridTop + layers * cellH;
  queryAxis = QRect(margin, gridTop, axisW, layers * cellH);
  keyAxis = QRect(left, gridBottom + keyBand, heads * cellW - gap, keyAxisH);
  // The weights' fixed 0..1 scale, right of the maps, as tall as a layer's maps (at most 300).
  const int scaleX = left + heads * cellW + margin;
  const int barTop = gridTop + rowTitleLines * lineH + fm.height();  // room for its title
  // Tall enough for its five labels to stand apart where the picture has the room (it may reach
  // past the first layer's row: nothing else is drawn right of the maps).
  const int barH =
      std::max(std::min(300, cellH - rowTitleLines * lineH - fm.height()), scaleBarHeight(fm));
  scale = QRect(scaleX, barTop, 14, std::max(0, std::min(barH, size.height() - barTop - margin)));
}

QRect ModelGridLayout::rowTitle(int layer) const {
  if (rowTitleLines == 0 || layer < 0 || layer >= layers) return {};
  return {left, gridTop + layer * cellH, heads * cellW - gap, rowTitleLines * lineH};
}

QRect ModelGridLayout::mapRect(int layer, int head) const {
  if (layer < 0 || layer >= layers || head < 0) return {};
  if (head >= m_model->layers[std::size_t(layer)].info.config.num_heads) return {};
  if (weightsOf(*m_computed, layer) == nullptr) return {};
  const int top = gridTop + layer * cellH + rowTitleLines * lineH;
  return {left + head * cellW, top, cellW - gap, cellH - rowTitleLines * lineH - gap};
}

ModelGridHit ModelGridLayout::hit(QPoint point) const {
  if (point.x() < left || point.y() < gridTop) return {};
  const int head = (point.x() - left) / cellW;
  const int layer = (point.y() - gridTop) / cellH;
  if (layer >= layers || head >= heads) return {};
  if (head >= m_model->layers[std::size_t(layer)].info.config.num_heads) return {};
  return {layer, head};
}

ModelCellHit ModelGridLayout::cell(QPoint point) const {
  const ModelGridHit map = hit(point);
  if (!map.valid()) return {};
  const QRect r = mapRect(map.layer, map.head);
  if (!r.contains(point)) return {};
  const Tensor& w = *weightsOf(*m_computed, map.layer);
  const std::int64_t L = w.size(2), Sx = w.size(3);
  const auto query = static_cast<std::int64_t>((point.y() - r.top()) * L / r.height());
  const auto key = static_cast<std::int64_t>((point.x() - r.left()) * Sx / r.width());
  return {map.layer, map.head, std::clamp<std::int64_t>(query, 0, L - 1),
          std::clamp<std::int64_t>(key, 0, Sx - 1)};
}

}  // namespace mhaviz::ui
