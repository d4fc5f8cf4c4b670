#include "model/model_picture.hpp"

#include <qcustomplot.h>
#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QFont>
#include <QFontMetrics>
#include <QImageWriter>
#include <QPainter>
#include <QSvgGenerator>
#include <functional>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/base/parallel.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "model/model_grid_layout.hpp"
#include "model/picture_parts.hpp"
#include "render/colormaps.hpp"

namespace mhaviz::ui {

namespace {

QColor alarm() { return QColor(200, 30, 30); }

/// A picture of `size` painted by `paint` onto an image of the background colour.
QImage paintedImage(QSize size, const ModelPictureColors& colors,
                    const std::function<void(QPainter&)>& paint) {
  QImage image(size, QImage::Format_RGB32);
  image.fill(colors.background);
  QPainter p(&image);
  paint(p);
  return image;
}

}  // namespace

void paintModelGrid(QPainter& p, const model::Model& model, const model::ComputedModel& computed,
                    int batch, QSize size, Colormap colormap, const ModelPictureColors& colors,
                    bool withTitle) {
  p.setRenderHint(QPainter::Antialiasing, false);
  const ModelGridLayout g(model, computed, batch, size, withTitle);
  p.setFont(g.font);
  const QFontMetrics fm(g.font);
  const QCPColorGradient gradient = makeGradient(colormap);

  p.setPen(colors.ink);
  if (withTitle) p.drawText(g.title, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, g.titleText);
  // Grouped-query attention: the heads sharing a key/value head share a colour band (and say
  // which one) over their column.
  std::int64_t kvHeads = 0;
  for (const model::Layer& layer : model.layers) kvHeads = std::max(kvHeads, layer.info.kv_heads);
  for (int h = 0; h < g.heads; ++h) {
    const QRect label(g.left + h * g.cellW, g.gridTop - g.lineH, g.cellW - g.gap, g.lineH);
    if (kvHeads > 0 && g.heads % kvHeads == 0) {
      const auto group = static_cast<int>(h / (g.heads / kvHeads));
      p.fillRect(QRect(label.left(), label.bottom() - 2, label.width(), 3),
                 kvGroupColor(group));
      p.drawText(label, Qt::AlignCenter,
                 fm.elidedText(QCoreApplication::translate("ModelPicture", "head %1 · kv %2")
                                   .arg(h)
                                   .arg(group),
                               Qt::ElideRight, label.width()));
    } else {
      p.drawText(label, Qt::AlignCenter,
                 QCoreApplication::translate("ModelPicture", "head %1").arg(h));
    }
  }
  // The axis names: "query" upwards left of the labels, "key" under the last row's labels.
  p.save();
  p.translate(g.queryAxis.left(), g.queryAxis.bottom());
  p.rotate(-90);
  p.drawText(QRect(0, 0, g.queryAxis.height(), g.queryAxis.width()), Qt::AlignCenter,
             QCoreApplication::translate("ModelPicture", "query ↓ (rows)"));
  p.restore();
  p.drawText(g.keyAxis, Qt::AlignCenter,
             QCoreApplication::translate("ModelPicture", "key → (columns)"));
  drawScale(p, g.scale, gradient, colormap, colors.ink,
            QCoreApplication::translate("ModelPicture", "weight"));

  for (int li = 0; li < g.layers; ++li) {
    const model::Layer& layer = model.layers[static_cast<std::size_t>(li)];
    const model::LayerCheck& check = computed.checks[static_cast<std::size_t>(li)];
    const Tensor& w = computed.weights[static_cast<std::size_t>(li)];
    if (const QRect t = g.rowTitle(li); !t.isEmpty()) {
      p.setPen(check.ok ? colors.ink : alarm());
      const QString name = modelLayerName(model, li);
      const QString verdict = modelLayerCheck(computed, li);
      if (g.rowTitleLines == 1) {
        p.drawText(
            t, Qt::AlignLeft | Qt::AlignVCenter,
            fm.elidedText(name + QStringLiteral(" — ") + verdict, Qt::ElideRight, t.width()));
      } else {
        p.drawText(QRect(t.left(), t.top(), t.width(), g.lineH), Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(name, Qt::ElideRight, t.width()));
        p.drawText(QRect(t.left(), t.top() + g.lineH, t.width(), g.lineH),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(verdict, Qt::ElideRight, t.width()));
      }
    }
    if (w.dim() != 4 || batch >= w.size(0)) continue;
    const std::int64_t H = w.size(1), L = w.size(2), Sx = w.size(3);
    const std::int64_t S = layer.problem.config.src_len;
    // The layer's maps coloured on every core (one gradient each: color() fills its buffer on
    // first use), then drawn here in order.
    std::vector<QImage> maps(static_cast<std::size_t>(H));
    parallel_for(H, thread_count(0, H), [&](std::int64_t h) {
      const QCPColorGradient own = makeGradient(colormap);
      const std::int64_t base = (batch * H + h) * L * Sx;
      QImage& out = maps[static_cast<std::size_t>(h)];
      if (w.type() == ElemType::f32) {
        const float* x = w.data<float>().data() + base;
        out = cellImage(L, Sx, own, colormap,
                        [&](std::int64_t r, std::int64_t c) { return double(x[r * Sx + c]); });
      } else {
        out = cellImage(L, Sx, own, colormap,
                        [&](std::int64_t r, std::int64_t c) { return w.value(base + r * Sx + c); });
      }
    });
    for (std::int64_t h = 0; h < H; ++h) {
      const QImage& cells = maps[static_cast<std::size_t>(h)];
      const QRect target = g.mapRect(li, static_cast<int>(h));
      drawCells(p, target, cells);
      if (Sx > S) {  // the appended bias_k / zero columns start here
        const int x = target.left() + static_cast<int>(target.width() * S / Sx);
        p.setPen(extraKeyColor());
        p.drawLine(x, target.top(), x, target.bottom());
      }
      if (!check.ok) {
        p.setPen(QPen(alarm(), 2));
        p.drawRect(target.adjusted(1, 1, -1, -1));
      }
      // Token labels: the queries left of the first column, the keys under the last row.
      p.setPen(colors.ink);
      if (h == 0)
        drawLabels(p, fm, target, modelQueryLabels(layer, L), false, false, g.queryLabelW);
      if (li == g.layers - 1) {
        drawLabels(p, fm, target, modelKeyLabels(layer, Sx), true, g.keysRotated, g.keyBand);
      }
    }
  }
}

QImage drawModelGrid(const model::Model& model, const model::ComputedModel& computed, int batch,
                     QSize size, Colormap colormap, const ModelPictureColors& colors,
                     bool withTitle) {
  return paintedImage(size, colors, [&](QPainter& p) {
    paintModelGrid(p, model, computed, batch, size, colormap, colors, withTitle);
  });
}

QRect modelGridMapRect(const model::Model& model, const model::ComputedModel& computed, int batch,
                       QSize size, int layer, int head) {
  return ModelGridLayout(model, computed, batch, size).mapRect(layer, head);
}

namespace {

constexpr const char* kRolloutTitle =
    QT_TRANSLATE_NOOP("ModelPicture",
                      "Attention rollout over the self-attention layers %1, batch element %2");
constexpr const char* kFlowTitle =
    QT_TRANSLATE_NOOP("ModelPicture",
                      "Attention flow (maximum flow, rows normalised) over the self-attention "
                      "layers %1, batch element %2");

/// The title and the line on appended columns, each wrapped to the picture's width (up to
/// three lines: never cut at its right edge, as a single line was in a narrow view).
template <typename TokenMap>
TokenMapHeader tokenMapHeader(const model::Model& model, const TokenMap& rollout, QSize size,
                              const char* titleText) {
  QFont font;
  font.setPixelSize(12);
  const QFontMetrics fm(font);
  const int margin = 8;
  const int width = std::max(40, size.width() - 2 * margin);
  QString shares;
  for (std::size_t i = 0; i < rollout.layers.size(); ++i) {
    shares += (i == 0 ? QString() : QStringLiteral(", ")) +
              QString::number(model::layer_number(model.index, rollout.layers[i])) +
              QStringLiteral(": ") + QString::number(rollout.extra_share[i], 'f', 3);
  }
  QString used;
  for (const std::size_t l : rollout.layers) {
    used += (used.isEmpty() ? QString() : QStringLiteral(", ")) +
            QString::number(model::layer_number(model.index, l));
  }
  TokenMapHeader header;
  header.titleText =
      QCoreApplication::translate("ModelPicture", titleText).arg(used).arg(rollout.batch);
  header.extraText =
      QCoreApplication::translate(
          "ModelPicture", "Weight on appended bias_k / zero columns (dropped) per layer: %1")
          .arg(shares);
  const auto wrapped = [&](const QString& text) {
    const QRect needed =
        fm.boundingRect(QRect(0, 0, width, 100000), Qt::TextWordWrap | Qt::AlignLeft, text);
    return std::min(needed.height(), 3 * fm.height()) + 2;
  };
  header.title = QRect(margin, margin, width, wrapped(header.titleText));
  header.extra = QRect(margin, header.title.bottom() + 1, width, wrapped(header.extraText));
  return header;
}

/// A tokens × tokens map across the layers (model::Rollout or model::AttentionFlow: rows the
/// positions after the last layer, columns the input positions), its per-token means under it.
template <typename TokenMap>
void paintTokenMap(QPainter& p, const model::Model& model, const TokenMap& rollout, QSize size,
                   Colormap colormap, const ModelPictureColors& colors, const char* titleText,
                   const char* scaleText) {
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
  const TokenMapHeader header = tokenMapHeader(model, rollout, size, titleText);
  p.setPen(colors.ink);
  p.drawText(header.title, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, header.titleText);
  p.drawText(header.extra, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, header.extraText);
  const bool showLabels = S <= 64;
  const int left = margin + (showLabels ? labelW + 6 : 0);
  const int top = header.extra.bottom() + 1 + 4;
  const int barH = std::max(12, lineH);
  const int scaleW = colourScaleWidth(fm) + margin;  // the colour scale right of the map
  const int side = std::max(
      8, std::min(size.width() - left - margin - scaleW,
                  size.height() - top - margin - barH - lineH - (showLabels ? labelW + 6 : 0)));
  const QCPColorGradient gradient = makeGradient(colormap);
  const auto su = static_cast<std::size_t>(S);
  const QImage cells = cellImage(S, S, gradient, colormap, [&](std::int64_t r, std::int64_t c) {
    return rollout.map[std::size_t(r) * su + std::size_t(c)];
  });
  const QRect target(left, top, side, side);
  drawCells(p, target, cells);
  // As tall as the map, and at least as tall as its five labels need where there is room.
  const int scaleH = std::min(std::max(side - lineH, scaleBarHeight(fm)),
                              size.height() - top - lineH - margin);
  drawScale(p, QRect(target.right() + margin, top + lineH, 14, std::max(0, scaleH)), gradient,
            colormap, colors.ink, QCoreApplication::translate("ModelPicture", scaleText));
  double most = 0;
  for (const double v : rollout.per_token) most = std::max(most, v);
  const QImage bar = cellImage(1, S, gradient, colormap, [&](std::int64_t, std::int64_t c) {
    return most > 0 ? rollout.per_token[std::size_t(c)] / most : 0.0;
  });
  const QRect barRect(left, top + side + 4, side, barH);
  drawCells(p, barRect, bar);
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
}

}  // namespace

TokenMapHeader rolloutHeader(const model::Model& model, const model::Rollout& rollout,
                             QSize size) {
  return tokenMapHeader(model, rollout, size, kRolloutTitle);
}

TokenMapHeader flowHeader(const model::Model& model, const model::AttentionFlow& flow,
                          QSize size) {
  return tokenMapHeader(model, flow, size, kFlowTitle);
}

void paintRollout(QPainter& p, const model::Model& model, const model::Rollout& rollout,
                  QSize size, Colormap colormap, const ModelPictureColors& colors) {
  paintTokenMap(p, model, rollout, size, colormap, colors, kRolloutTitle,
                QT_TRANSLATE_NOOP("ModelPicture", "rollout"));
}

QImage drawRollout(const model::Model& model, const model::Rollout& rollout, QSize size,
                   Colormap colormap, const ModelPictureColors& colors) {
  return paintedImage(size, colors, [&](QPainter& p) {
    paintRollout(p, model, rollout, size, colormap, colors);
  });
}

void paintFlow(QPainter& p, const model::Model& model, const model::AttentionFlow& flow,
               QSize size, Colormap colormap, const ModelPictureColors& colors) {
  paintTokenMap(p, model, flow, size, colormap, colors, kFlowTitle,
                QT_TRANSLATE_NOOP("ModelPicture", "flow"));
}

QImage drawFlow(const model::Model& model, const model::AttentionFlow& flow, QSize size,
                Colormap colormap, const ModelPictureColors& colors) {
  return paintedImage(size, colors,
                      [&](QPainter& p) { paintFlow(p, model, flow, size, colormap, colors); });
}

QString saveModelSvg(const std::function<void(QPainter&)>& paint, QSize size,
                     const QString& path, const QString& title) {
  // Written to a buffer first, then to the file atomically (a failed save leaves no file).
  QByteArray svg;
  QBuffer buffer(&svg);
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator generator;
  generator.setOutputDevice(&buffer);
  generator.setSize(size);
  generator.setResolution(96);  // a CSS pixel per picture pixel
  generator.setViewBox(QRect(QPoint(0, 0), size));
  generator.setTitle(title);
  generator.setDescription(QStringLiteral("mhaviz"));
  {
    QPainter p;
    if (!p.begin(&generator)) {
      return QCoreApplication::translate("ModelPicture", "%1: cannot draw the SVG picture")
          .arg(path);
    }
    p.fillRect(QRect(QPoint(0, 0), size), ModelPictureColors().background);
    paint(p);
  }
  try {
    io::write_file_atomic(std::filesystem::path(path.toStdString()),
                          std::as_bytes(std::span(svg.constData(), std::size_t(svg.size()))));
  } catch (const InvalidInput& e) {
    return QString::fromStdString(e.what());
  }
  return {};
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
