#include "model/step_picture.hpp"

#include <QCoreApplication>
#include <QFont>
#include <QFontMetrics>
#include <QPainter>
#include <algorithm>
#include <string>
#include <vector>

#include "model/model_grid_layout.hpp"
#include "model/picture_parts.hpp"

namespace mhaviz::ui {

namespace {

/// The key labels of a layer of the step: its configuration's, or the positions.
std::vector<QString> keyLabels(const model::Model& model, const model::StepRows::Layer& row) {
  const std::vector<std::string>& given = model.layers[row.layer].problem.config.key_labels;
  std::vector<QString> out;
  for (std::int64_t k = 0; k < row.keys; ++k) {
    out.push_back(static_cast<std::size_t>(k) < given.size()
                      ? QString::fromStdString(given[static_cast<std::size_t>(k)])
                      : QString::number(k));
  }
  return out;
}

}  // namespace

QString stepRowsNote(const model::StepRows& rows) {
  const bool appended = std::any_of(rows.layers.begin(), rows.layers.end(),
                                    [](const model::StepRows::Layer& l) { return l.columns > l.keys; });
  return appended ? QCoreApplication::translate(
                        "StepPicture",
                        "Each row: one head's weights from that position to the keys "
                        "(appended bias_k / zero columns after the gap)")
                  : QCoreApplication::translate(
                        "StepPicture", "Each row: one head's weights from that position to the keys");
}

QImage drawStepRows(const model::Model& model, const model::StepRows& rows, QSize size,
                    Colormap colormap, const ModelPictureColors& colors) {
  QImage image(size, QImage::Format_RGB32);
  image.fill(colors.background);
  QPainter p(&image);
  QFont font = p.font();
  font.setPixelSize(12);
  p.setFont(font);
  const QFontMetrics fm(font);
  const int margin = 8;
  const int lineH = fm.height() + 4;
  const QString position =
      rows.query.empty()
          ? QString::number(rows.position)
          : QStringLiteral("%1 (%2)").arg(rows.position).arg(QString::fromStdString(rows.query));
  QString title =
      QCoreApplication::translate("StepPicture",
                                  "Generation step %1 (of 0 to %2), batch element %3: position %4")
          .arg(rows.step)
          .arg(model.index.steps - 1)
          .arg(rows.batch)
          .arg(position);
  if (!rows.generated.empty())
    title += QCoreApplication::translate("StepPicture", " generates %1")
                 .arg(QString::fromStdString(rows.generated));
  p.setPen(colors.ink);
  const int textW = size.width() - 2 * margin;
  p.drawText(QRect(margin, margin, textW, lineH), Qt::AlignLeft,
             fm.elidedText(title, Qt::ElideRight, textW));
  p.drawText(QRect(margin, margin + lineH, textW, lineH), Qt::AlignLeft,
             fm.elidedText(stepRowsNote(rows), Qt::ElideRight, textW));
  const int top = margin + 2 * lineH + 4;
  if (rows.layers.empty()) return image;

  // Key labels go under the last layer of each run of layers with the same keys.
  std::vector<std::vector<QString>> labels;
  std::int64_t columns = 1;
  std::int64_t heads = 0;
  int widest = 0;
  for (const model::StepRows::Layer& row : rows.layers) {
    labels.push_back(keyLabels(model, row));
    columns = std::max(columns, row.columns);
    heads += row.heads;
    for (const QString& l : labels.back()) widest = std::max(widest, fm.horizontalAdvance(l));
  }
  const auto labelled = [&](std::size_t i) {
    return i + 1 == labels.size() || labels[i] != labels[i + 1];
  };
  const int headW = fm.horizontalAdvance(QStringLiteral("h00")) + 6;
  const int scaleW = colourScaleWidth(fm) + margin;
  const int left = margin + headW;
  const int gap = 4;  // before the appended columns
  const double column =
      std::max(2.0, double(size.width() - left - margin - scaleW - gap) / double(columns));
  const bool upright = column >= widest + 4;
  const int labelH = upright ? lineH : std::min(widest, 90) + 6;
  int labelRows = 0;
  for (std::size_t i = 0; i < labels.size(); ++i) labelRows += labelled(i) ? 1 : 0;
  const int fixed = static_cast<int>(rows.layers.size()) * lineH + labelRows * labelH;
  // The rows share the height (a band of empty space under small maps read as a fault), up to
  // 96 px a head.
  const int rowH = std::clamp(
      (size.height() - top - margin - fixed) / int(std::max<std::int64_t>(1, heads)), 2, 96);
  const QCPColorGradient gradient = makeGradient(colormap);
  int y = top;
  for (std::size_t i = 0; i < rows.layers.size(); ++i) {
    const model::StepRows::Layer& row = rows.layers[i];
    p.setPen(colors.ink);
    // Which earlier token this layer's heads gave the most weight on average.
    const std::int64_t best = row.most_weighted();
    const QString key =
        best < row.keys
            ? labels[i][std::size_t(best)]
            : QCoreApplication::translate("StepPicture", "appended column %1").arg(best);
    const QString most =
        QCoreApplication::translate("StepPicture", "%1 — most weight (mean over heads): %2, %3")
            .arg(
                modelLayerName(model.index, row.layer),
                key)
            .arg(row.head_mean(best), 0, 'f', 2);
    p.drawText(QRect(margin, y, textW, lineH), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(most, Qt::ElideRight, textW));
    y += lineH;
    const auto cols = static_cast<std::size_t>(row.columns);
    const QImage tokens =
        cellImage(row.heads, row.keys, gradient, colormap, [&](std::int64_t h, std::int64_t k) {
          return row.weights[std::size_t(h) * cols + std::size_t(k)];
        });
    const int mapH = rowH * int(row.heads);
    const int tokensW = int(column * double(row.keys));
    p.drawImage(QRect(left, y, tokensW, mapH), tokens);
    if (row.columns > row.keys) {
      const QImage extra =
          cellImage(row.heads, row.columns - row.keys, gradient, colormap,
                    [&](std::int64_t h, std::int64_t k) {
                      return row.weights[std::size_t(h) * cols + std::size_t(row.keys + k)];
                    });
      p.drawImage(
          QRect(left + tokensW + gap, y, int(column * double(row.columns - row.keys)), mapH),
          extra);
    }
    p.setPen(colors.ink);
    if (rowH >= fm.height() - 2) {
      for (std::int64_t h = 0; h < row.heads; ++h) {
        p.drawText(QRect(margin, y + int(h) * rowH, headW - 4, rowH),
                   Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("h%1").arg(h));
      }
    }
    y += mapH;
    if (labelled(i)) {
      for (std::int64_t k = 0; k < row.keys; ++k) {
        const double x = left + column * (double(k) + 0.5);
        if (upright) {
          p.drawText(QRectF(x - column / 2, y + 2, column, lineH), Qt::AlignCenter,
                     labels[i][std::size_t(k)]);
        } else {
          p.save();
          p.translate(x, y + 4);
          p.rotate(90);
          p.drawText(QRect(0, -lineH / 2, labelH, lineH), Qt::AlignLeft | Qt::AlignVCenter,
                     fm.elidedText(labels[i][std::size_t(k)], Qt::ElideRight, labelH - 6));
          p.restore();
        }
      }
      y += labelH;
    }
  }
  // As tall as the rows, and at least as tall as its five labels need where the picture has room.
  const int barH = std::min(std::max(y - top - 2 * lineH, scaleBarHeight(fm)),
                            size.height() - top - lineH - margin);
  drawScale(p, QRect(size.width() - scaleW, top + lineH, 14, std::max(0, barH)),
            gradient, colormap, colors.ink, QCoreApplication::translate("StepPicture", "weight"));
  return image;
}

}  // namespace mhaviz::ui
