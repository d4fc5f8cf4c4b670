#include "model/model_picture.hpp"

#include <qcustomplot.h>
#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QFont>
#include <QFontMetrics>
#include <QImageWriter>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "mhaviz/core/errors.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "model/picture_parts.hpp"
#include "render/colormaps.hpp"

namespace mhaviz::ui {

namespace {

QColor alarm() { return QColor(200, 30, 30); }

QString difference(double d) {
  return std::isinf(d) ? QStringLiteral("∞") : QString::number(d, 'g', 2);
}

}  // namespace

namespace {

/// Where drawModelGrid puts things in a picture of `size`.
struct GridGeometry {
  QFont font;
  int margin = 8, titleH = 0, headerH = 0, rowTitleH = 0, gridTop = 0;
  int layers = 0, heads = 1, cellW = 0, cellH = 0, gap = 1, scaleW = 0;
  bool titled = false;

  GridGeometry(const model::Model& model, QSize size) {
    font.setPixelSize(12);
    const QFontMetrics fm(font);
    layers = static_cast<int>(model.layers.size());
    for (const model::Layer& l : model.layers)
      heads = std::max(heads, static_cast<int>(l.info.config.num_heads));
    titleH = fm.height() + 6;
    headerH = fm.height() + 4;
    rowTitleH = fm.height() + 2;
    gridTop = margin + titleH + headerH;
    scaleW = scaleWidth(fm) + margin;  // the colour scale right of the maps
    cellW = std::max(4, (size.width() - 2 * margin - scaleW) / heads);
    cellH = std::max(4, (size.height() - gridTop - margin) / std::max(1, layers));
    gap = std::clamp(cellW / 16, 1, 6);
    titled = cellH >= 3 * rowTitleH;
  }

  /// Top of layer `li`'s maps and their height; `keyRow`: key labels fit under them.
  void mapRows(const model::Layer& layer, const Tensor& w, int li, int& mapTop, int& mapH,
               bool& keyRow) const {
    const QFontMetrics fm(font);
    const int top = gridTop + li * cellH;
    mapTop = top + (titled ? rowTitleH : 0);
    mapH = cellH - (titled ? rowTitleH : 0) - gap;
    const std::vector<std::string>& keys = layer.problem.config.key_labels;
    int widest = 0;
    for (const std::string& k : keys)
      widest = std::max(widest, fm.horizontalAdvance(QString::fromStdString(k)));
    const std::int64_t Sx = w.dim() == 4 ? w.size(3) : 1;
    const double column = double(cellW - gap) / double(Sx);
    keyRow = !keys.empty() && column >= widest + 2 && mapH >= 4 * rowTitleH;
    if (keyRow) mapH -= rowTitleH;
  }
};

}  // namespace

QImage drawModelGrid(const model::Model& model, const model::ComputedModel& computed, int batch,
                     QSize size, Colormap colormap, const ModelPictureColors& colors) {
  QImage image(size, QImage::Format_RGB32);
  image.fill(colors.background);
  QPainter p(&image);
  p.setRenderHint(QPainter::Antialiasing, false);
  const GridGeometry g(model, size);
  p.setFont(g.font);
  const QFontMetrics fm(g.font);
  const QCPColorGradient gradient = makeGradient(colormap);
  const int margin = g.margin;
  const int layers = g.layers;

  QString title =
      QCoreApplication::translate("ModelPicture", "%1 — %2 attention layers, batch element %3")
          .arg(QFileInfo(QString::fromStdString(model.index.path.string())).fileName())
          .arg(layers)
          .arg(batch);
  if (const std::size_t bad = computed.disagreeing(); bad > 0)
    title +=
        QCoreApplication::translate("ModelPicture", "; layers differing from PyTorch: %1").arg(bad);
  if (!model.index.caption.empty())
    title += QStringLiteral(" — ") + QString::fromStdString(model.index.caption);
  p.setPen(colors.ink);
  p.drawText(QRect(margin, margin, size.width() - 2 * margin, g.titleH),
             Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(title, Qt::ElideRight, size.width() - 2 * margin));
  for (int h = 0; h < g.heads; ++h) {
    p.drawText(QRect(margin + h * g.cellW, margin + g.titleH, g.cellW, g.headerH), Qt::AlignCenter,
               QCoreApplication::translate("ModelPicture", "head %1").arg(h));
  }
  {
    // The weights' fixed 0..1 scale, right of the maps, as tall as a layer's row (at most 300).
    const int x = margin + g.heads * g.cellW + margin;
    const int height = std::min(300, std::max(g.cellH, 60) - g.rowTitleH);
    const int barTop = g.gridTop + (g.titled ? g.rowTitleH : 0);
    drawScale(p, QRect(x, barTop, 14, std::min(height, size.height() - barTop - margin)), gradient,
              colormap, colors.ink, QCoreApplication::translate("ModelPicture", "weight"));
  }
  for (int li = 0; li < layers; ++li) {
    const model::Layer& layer = model.layers[static_cast<std::size_t>(li)];
    const model::LayerCheck& check = computed.checks[static_cast<std::size_t>(li)];
    const Tensor& w = computed.weights[static_cast<std::size_t>(li)];
    const int top = g.gridTop + li * g.cellH;
    QString rowTitle = QString::fromStdString(model::layer_title(layer.info, std::size_t(li)));
    rowTitle += check.ok
                    ? QCoreApplication::translate("ModelPicture",
                                                  " — matches PyTorch (largest difference %1)")
                          .arg(difference(check.worst()))
                    : QCoreApplication::translate("ModelPicture", " — DIFFERS from PyTorch by %1")
                          .arg(difference(check.worst()));
    if (g.titled) {
      p.setPen(check.ok ? colors.ink : alarm());
      const int titleW = g.heads * g.cellW - g.gap;  // the colour scale's title is beside it
      p.drawText(QRect(margin, top, titleW, g.rowTitleH), Qt::AlignLeft | Qt::AlignVCenter,
                 fm.elidedText(rowTitle, Qt::ElideRight, titleW));
    }
    if (w.dim() != 4 || batch >= w.size(0)) continue;
    const std::int64_t H = w.size(1), L = w.size(2), Sx = w.size(3);
    const std::int64_t S = layer.problem.config.src_len;
    int mapTop = 0, mapH = 0;
    bool keyRow = false;
    g.mapRows(layer, w, li, mapTop, mapH, keyRow);
    // Key token labels under each map, where the model has them and they fit.
    const std::vector<std::string>& keys = layer.problem.config.key_labels;
    const double column = double(g.cellW - g.gap) / double(Sx);
    for (std::int64_t h = 0; h < H; ++h) {
      const std::int64_t base = (batch * H + h) * L * Sx;
      const QImage cells =
          cellImage(L, Sx, gradient, colormap,
                    [&](std::int64_t r, std::int64_t c) { return w.value(base + r * Sx + c); });
      const QRect target(margin + static_cast<int>(h) * g.cellW, mapTop, g.cellW - g.gap, mapH);
      p.drawImage(target, cells);
      if (Sx > S) {  // the appended bias_k / zero columns start here
        const int x = target.left() + static_cast<int>(target.width() * S / Sx);
        p.setPen(extraKeyColor());
        p.drawLine(x, target.top(), x, target.bottom());
      }
      if (!check.ok) {
        p.setPen(QPen(alarm(), 2));
        p.drawRect(target.adjusted(1, 1, -1, -1));
      }
      if (keyRow) {
        p.setPen(colors.ink);
        for (std::size_t k = 0; k < keys.size(); ++k) {
          const QRectF cell(target.left() + column * double(k), target.bottom() + 1, column,
                            g.rowTitleH);
          p.drawText(cell, Qt::AlignCenter, QString::fromStdString(keys[k]));
        }
      }
    }
  }
  return image;
}

QRect modelGridMapRect(const model::Model& model, const model::ComputedModel& computed,
                       QSize size, int layer, int head) {
  if (layer < 0 || std::size_t(layer) >= model.layers.size() || head < 0) return {};
  const model::Layer& l = model.layers[std::size_t(layer)];
  if (head >= l.info.config.num_heads || std::size_t(layer) >= computed.weights.size()) return {};
  const GridGeometry g(model, size);
  int mapTop = 0, mapH = 0;
  bool keyRow = false;
  g.mapRows(l, computed.weights[std::size_t(layer)], layer, mapTop, mapH, keyRow);
  return {g.margin + head * g.cellW, mapTop, g.cellW - g.gap, mapH};
}

ModelGridHit modelGridHit(const model::Model& model, QSize size, QPoint point) {
  const GridGeometry g(model, size);
  if (point.x() < g.margin || point.y() < g.gridTop) return {};
  const int head = (point.x() - g.margin) / g.cellW;
  const int layer = (point.y() - g.gridTop) / g.cellH;
  if (layer >= g.layers) return {};
  if (head >= model.layers[std::size_t(layer)].info.config.num_heads) return {};
  return {layer, head};
}

namespace {

/// A tokens × tokens map across the layers (model::Rollout or model::AttentionFlow: rows the
/// positions after the last layer, columns the input positions), its per-token means under it.
template <typename TokenMap>
QImage drawTokenMap(const model::Model& model, const TokenMap& rollout, QSize size,
                    Colormap colormap, const ModelPictureColors& colors, const char* titleText,
                    const char* scaleText) {
  QImage image(size, QImage::Format_RGB32);
  image.fill(colors.background);
  QPainter p(&image);
  QFont font = p.font();
  font.setPixelSize(12);
  p.setFont(font);
  const QFontMetrics fm(font);
  const std::int64_t S = rollout.tokens;
  const model::Layer* labelled = nullptr;
  for (const std::size_t li : rollout.layers) {
    if (!model.layers[li].problem.config.key_labels.empty()) labelled = &model.layers[li];
  }
  const auto label = [&](std::int64_t i) {
    if (labelled != nullptr)
      return QString::fromStdString(labelled->problem.config.key_labels[std::size_t(i)]);
    return QString::number(i);
  };
  int labelW = 0;
  for (std::int64_t i = 0; i < S; ++i) labelW = std::max(labelW, fm.horizontalAdvance(label(i)));
  const int margin = 8;
  const int lineH = fm.height() + 4;
  QString shares;
  for (std::size_t i = 0; i < rollout.layers.size(); ++i) {
    shares += (i == 0 ? QString() : QStringLiteral(", ")) + QString::number(rollout.layers[i]) +
              QStringLiteral(": ") + QString::number(rollout.extra_share[i], 'f', 3);
  }
  QString used;
  for (const std::size_t l : rollout.layers)
    used += (used.isEmpty() ? QString() : QStringLiteral(", ")) + QString::number(l);
  const QString title =
      QCoreApplication::translate("ModelPicture", titleText).arg(used).arg(rollout.batch);
  const QString extra =
      QCoreApplication::translate(
          "ModelPicture", "Weight on appended bias_k / zero columns (dropped) per layer: %1")
          .arg(shares);
  p.setPen(colors.ink);
  p.drawText(QRect(margin, margin, size.width() - 2 * margin, lineH), Qt::AlignLeft, title);
  p.drawText(QRect(margin, margin + lineH, size.width() - 2 * margin, lineH), Qt::AlignLeft,
             fm.elidedText(extra, Qt::ElideRight, size.width() - 2 * margin));
  const bool showLabels = S <= 64;
  const int left = margin + (showLabels ? labelW + 6 : 0);
  const int top = margin + 2 * lineH + 4;
  const int barH = std::max(12, lineH);
  const int scaleW = scaleWidth(fm) + margin;  // the colour scale right of the map
  const int side = std::max(
      8, std::min(size.width() - left - margin - scaleW,
                  size.height() - top - margin - barH - lineH - (showLabels ? labelW + 6 : 0)));
  const QCPColorGradient gradient = makeGradient(colormap);
  const auto su = static_cast<std::size_t>(S);
  const QImage cells = cellImage(S, S, gradient, colormap, [&](std::int64_t r, std::int64_t c) {
    return rollout.map[std::size_t(r) * su + std::size_t(c)];
  });
  const QRect target(left, top, side, side);
  p.drawImage(target, cells);
  drawScale(p, QRect(target.right() + margin, top + lineH, 14, std::max(0, side - lineH)),
            gradient, colormap, colors.ink,
            QCoreApplication::translate("ModelPicture", scaleText));
  double most = 0;
  for (const double v : rollout.per_token) most = std::max(most, v);
  const QImage bar = cellImage(1, S, gradient, colormap, [&](std::int64_t, std::int64_t c) {
    return most > 0 ? rollout.per_token[std::size_t(c)] / most : 0.0;
  });
  const QRect barRect(left, top + side + 4, side, barH);
  p.drawImage(barRect, bar);
  p.setPen(colors.ink);
  p.drawText(QRect(margin, barRect.bottom() + 2, size.width() - 2 * margin, lineH), Qt::AlignLeft,
             QCoreApplication::translate("ModelPicture",
                                         "per input token: mean over rows (brightest = %1)")
                 .arg(most, 0, 'f', 3));
  if (showLabels) {
    const double step = double(side) / double(S);
    for (std::int64_t i = 0; i < S; ++i) {
      const int y = top + int(step * (double(i) + 0.5));
      p.drawText(QRect(margin, y - lineH / 2, labelW, lineH), Qt::AlignRight | Qt::AlignVCenter,
                 label(i));
      p.save();
      p.translate(left + step * (double(i) + 0.5), barRect.bottom() + lineH + 4);
      p.rotate(90);
      p.drawText(QRect(0, -lineH / 2, labelW, lineH), Qt::AlignLeft | Qt::AlignVCenter, label(i));
      p.restore();
    }
  }
  return image;
}

}  // namespace

QImage drawRollout(const model::Model& model, const model::Rollout& rollout, QSize size,
                   Colormap colormap, const ModelPictureColors& colors) {
  return drawTokenMap(
      model, rollout, size, colormap, colors,
      QT_TRANSLATE_NOOP("ModelPicture",
                        "Attention rollout over the self-attention layers %1, batch element %2"),
      QT_TRANSLATE_NOOP("ModelPicture", "rollout"));
}

QImage drawFlow(const model::Model& model, const model::AttentionFlow& flow, QSize size,
                Colormap colormap, const ModelPictureColors& colors) {
  return drawTokenMap(model, flow, size, colormap, colors,
                      QT_TRANSLATE_NOOP("ModelPicture",
                                        "Attention flow (maximum flow, rows normalised) over the "
                                        "self-attention layers %1, batch element %2"),
                      QT_TRANSLATE_NOOP("ModelPicture", "flow"));
}

QString saveModelPicture(const QImage& image, const QString& path) {
  QByteArray png;
  QBuffer buffer(&png);
  buffer.open(QIODevice::WriteOnly);
  QImageWriter writer(&buffer, "png");
  if (!writer.write(image)) {
    return QCoreApplication::translate("ModelPicture", "%1: cannot encode the picture (%2)")
        .arg(path, writer.errorString());
  }
  try {
    io::write_file_atomic(std::filesystem::path(path.toStdString()),
                          std::as_bytes(std::span(png.constData(), std::size_t(png.size()))));
  } catch (const InvalidInput& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace mhaviz::ui
