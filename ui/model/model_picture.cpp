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
#include "render/colormaps.hpp"

namespace mhaviz::ui {

namespace {

QColor background() { return QColor(255, 255, 255); }
QColor ink() { return QColor(30, 30, 30); }
QColor alarm() { return QColor(200, 30, 30); }

/// One (rows × cols) map of values in 0..1 as an image, one pixel per cell; `value(r, c)`.
template <typename Value>
QImage cellImage(std::int64_t rows, std::int64_t cols, const QCPColorGradient& gradient,
                 Colormap map, Value value) {
  QImage image(static_cast<int>(cols), static_cast<int>(rows), QImage::Format_RGB32);
  const QCPRange range(0.0, 1.0);
  for (std::int64_t r = 0; r < rows; ++r) {
    auto* line = reinterpret_cast<QRgb*>(image.scanLine(static_cast<int>(r)));
    for (std::int64_t c = 0; c < cols; ++c) {
      const double v = value(r, c);
      line[c] = std::isnan(v) ? nanColor(map).rgb()
                              : const_cast<QCPColorGradient&>(gradient).color(v, range);
    }
  }
  return image;
}

QString difference(double d) {
  return std::isinf(d) ? QStringLiteral("∞") : QString::number(d, 'g', 2);
}

}  // namespace

QImage drawModelGrid(const model::Model& model, const model::ComputedModel& computed, int batch,
                     QSize size, Colormap colormap) {
  QImage image(size, QImage::Format_RGB32);
  image.fill(background());
  QPainter p(&image);
  p.setRenderHint(QPainter::Antialiasing, false);
  QFont font = p.font();
  font.setPixelSize(12);
  p.setFont(font);
  const QFontMetrics fm(font);
  const QCPColorGradient gradient = makeGradient(colormap);

  const auto layers = static_cast<int>(model.layers.size());
  int heads = 1;
  for (const model::Layer& l : model.layers)
    heads = std::max(heads, static_cast<int>(l.info.config.num_heads));
  const int margin = 8;
  const int titleH = fm.height() + 6;
  const int headerH = fm.height() + 4;
  const int rowTitleH = fm.height() + 2;
  const int gridTop = margin + titleH + headerH;
  const int cellW = std::max(4, (size.width() - 2 * margin) / heads);
  const int cellH = std::max(4, (size.height() - gridTop - margin) / std::max(1, layers));
  const int gap = std::clamp(cellW / 16, 1, 6);

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
  p.setPen(ink());
  p.drawText(QRect(margin, margin, size.width() - 2 * margin, titleH),
             Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(title, Qt::ElideRight, size.width() - 2 * margin));
  for (int h = 0; h < heads; ++h) {
    p.drawText(QRect(margin + h * cellW, margin + titleH, cellW, headerH), Qt::AlignCenter,
               QCoreApplication::translate("ModelPicture", "head %1").arg(h));
  }
  for (int li = 0; li < layers; ++li) {
    const model::Layer& layer = model.layers[static_cast<std::size_t>(li)];
    const model::LayerCheck& check = computed.checks[static_cast<std::size_t>(li)];
    const Tensor& w = computed.weights[static_cast<std::size_t>(li)];
    const int top = gridTop + li * cellH;
    const bool titled = cellH >= 3 * rowTitleH;
    QString rowTitle = QString::fromStdString(model::layer_title(layer.info, std::size_t(li)));
    rowTitle += check.ok
                    ? QCoreApplication::translate("ModelPicture",
                                                  " — matches PyTorch (largest difference %1)")
                          .arg(difference(check.worst()))
                    : QCoreApplication::translate("ModelPicture", " — DIFFERS from PyTorch by %1")
                          .arg(difference(check.worst()));
    if (titled) {
      p.setPen(check.ok ? ink() : alarm());
      p.drawText(QRect(margin, top, size.width() - 2 * margin, rowTitleH),
                 Qt::AlignLeft | Qt::AlignVCenter,
                 fm.elidedText(rowTitle, Qt::ElideRight, size.width() - 2 * margin));
    }
    const int mapTop = top + (titled ? rowTitleH : 0);
    int mapH = cellH - (titled ? rowTitleH : 0) - gap;
    if (w.dim() != 4 || batch >= w.size(0)) continue;
    const std::int64_t H = w.size(1), L = w.size(2), Sx = w.size(3);
    const std::int64_t S = layer.problem.config.src_len;
    // Key token labels under each map, where the model has them and they fit.
    const std::vector<std::string>& keys = layer.problem.config.key_labels;
    int widest = 0;
    for (const std::string& k : keys)
      widest = std::max(widest, fm.horizontalAdvance(QString::fromStdString(k)));
    const double column = double(cellW - gap) / double(Sx);
    const bool keyRow = !keys.empty() && column >= widest + 2 && mapH >= 4 * rowTitleH;
    if (keyRow) mapH -= rowTitleH;
    for (std::int64_t h = 0; h < H; ++h) {
      const std::int64_t base = (batch * H + h) * L * Sx;
      const QImage cells =
          cellImage(L, Sx, gradient, colormap,
                    [&](std::int64_t r, std::int64_t c) { return w.value(base + r * Sx + c); });
      const QRect target(margin + static_cast<int>(h) * cellW, mapTop, cellW - gap, mapH);
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
        p.setPen(ink());
        for (std::size_t k = 0; k < keys.size(); ++k) {
          const QRectF cell(target.left() + column * double(k), target.bottom() + 1, column,
                            rowTitleH);
          p.drawText(cell, Qt::AlignCenter, QString::fromStdString(keys[k]));
        }
      }
    }
  }
  return image;
}

QImage drawRollout(const model::Model& model, const model::Rollout& rollout, QSize size,
                   Colormap colormap) {
  QImage image(size, QImage::Format_RGB32);
  image.fill(background());
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
      QCoreApplication::translate("ModelPicture",
                                  "Attention rollout over the self-attention layers %1, batch "
                                  "element %2")
          .arg(used)
          .arg(rollout.batch);
  const QString extra =
      QCoreApplication::translate(
          "ModelPicture", "Weight on appended bias_k / zero columns (dropped) per layer: %1")
          .arg(shares);
  p.setPen(ink());
  p.drawText(QRect(margin, margin, size.width() - 2 * margin, lineH), Qt::AlignLeft, title);
  p.drawText(QRect(margin, margin + lineH, size.width() - 2 * margin, lineH), Qt::AlignLeft,
             fm.elidedText(extra, Qt::ElideRight, size.width() - 2 * margin));
  const bool showLabels = S <= 64;
  const int left = margin + (showLabels ? labelW + 6 : 0);
  const int top = margin + 2 * lineH + 4;
  const int barH = std::max(12, lineH);
  const int side = std::max(
      8, std::min(size.width() - left - margin,
                  size.height() - top - margin - barH - lineH - (showLabels ? labelW + 6 : 0)));
  const QCPColorGradient gradient = makeGradient(colormap);
  const auto su = static_cast<std::size_t>(S);
  const QImage cells = cellImage(S, S, gradient, colormap, [&](std::int64_t r, std::int64_t c) {
    return rollout.map[std::size_t(r) * su + std::size_t(c)];
  });
  const QRect target(left, top, side, side);
  p.drawImage(target, cells);
  double most = 0;
  for (const double v : rollout.per_token) most = std::max(most, v);
  const QImage bar = cellImage(1, S, gradient, colormap, [&](std::int64_t, std::int64_t c) {
    return most > 0 ? rollout.per_token[std::size_t(c)] / most : 0.0;
  });
  const QRect barRect(left, top + side + 4, side, barH);
  p.drawImage(barRect, bar);
  p.setPen(ink());
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
