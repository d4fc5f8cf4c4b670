#pragma once
// The layout audit of exported pictures (issue 40): every text's box lies inside the canvas
// and is not cut by the box it was drawn in, and the size the export announced is the file's.
//   - A picture drawn by a PictureSource (the head view, the text view) is audited by the
//     layout that drew it: its paint function runs on a device with the PNG canvas's metrics
//     (size, device pixel ratio, DPI), which records each text item drawn — its box (from the
//     font as resolved for that device, so a font drawn twice too large shows) and the clip it
//     was drawn under (QPainter::drawText clips to its rectangle what does not fit).
//   - An SVG file is audited by its text elements: each <text>'s box from its position, font
//     family, size and weight under its group's transform, against the viewBox; its declared
//     width and height (in mm) against the announced size in points.
//   - A PNG file's pixel size against the announced size times the DPI scale.
// The recording device and the audit of the texts it recorded are in
// tests/ui/render/drawn_texts.hpp (the Image view's tests use them too).

#include <qcustomplot.h>

#include <QFile>
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QStringList>
#include <QTransform>
#include <QXmlStreamReader>
#include <cmath>
#include <vector>

#include "../render/drawn_texts.hpp"
#include "tokens/picture_file.hpp"

namespace mhaviz::ui::testing {

/// The texts of `source` drawn as its PNG at `options` draws them (auditDrawnTexts).
inline QStringList auditPictureLayout(const PictureSource& source, const ExportOptions& options,
                                      const QString& what) {
  const QImage canvas = pictureCanvas(source, options);
  TextRecorder recorder(canvas);
  {
    QPainter painter(&recorder);
    source.paint(painter, static_cast<bool>(source.raster));
  }
  return auditDrawnTexts(recorder.texts(), QSizeF(source.width, source.height), what);
}

/// The texts a heatmap grid's plot draws as it is on screen: its map titles, axis labels and
/// ticks, legend and colour scale.
inline std::vector<DrawnText> plotTexts(QCustomPlot* plot) {
  QImage like(plot->size(), QImage::Format_ARGB32_Premultiplied);
  TextRecorder recorder(like);
  {
    QCPPainter painter(&recorder);
    plot->toPainter(&painter, plot->width(), plot->height());
  }
  return recorder.texts();
}

/// The texts of plotTexts, audited (auditDrawnTexts).
inline QStringList auditPlotTexts(QCustomPlot* plot, const QString& what) {
  return auditDrawnTexts(plotTexts(plot), plot->size(), what);
}

/// A PNG file whose pixel size is not `announced` (logical) times `scale`.
inline QStringList auditPngFile(const QString& path, QSize announced, double scale,
                                const QString& what) {
  const QImage image(path);
  if (image.isNull()) return {what + QStringLiteral(": no PNG written")};
  const QSize expected(static_cast<int>(std::lround(announced.width() * scale)),
                       static_cast<int>(std::lround(announced.height() * scale)));
  if (image.size() != expected) {
    return {QStringLiteral("%1: announced %2 px, the file is %3 px")
                .arg(what, sizeText(expected), sizeText(image.size()))};
  }
  return {};
}

/// An SVG file's text elements that leave its viewBox, and its declared size (mm) against
/// `announced` (points).
inline QStringList auditSvgFile(const QString& path, QSize announced, const QString& what) {
  QStringList problems;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {what + QStringLiteral(": no SVG written")};
  QXmlStreamReader xml(&file);
  QRectF viewBox;
  struct Group {
    QTransform transform;
    QString family, size, weight;
  };
  std::vector<Group> groups{Group{}};
  const auto parseMatrix = [](const QString& text) {
    static const QRegularExpression number(QStringLiteral("-?[0-9.eE+-]+"));
    QList<double> m;
    for (auto it = number.globalMatch(text); it.hasNext();) m << it.next().captured().toDouble();
    return m.size() == 6 ? QTransform(m[0], m[1], m[2], m[3], m[4], m[5]) : QTransform();
  };
  int texts = 0;
  while (!xml.atEnd()) {
    xml.readNext();
    if (xml.isEndElement() && xml.name() == QLatin1String("g") && groups.size() > 1) {
      groups.pop_back();
    }
    if (!xml.isStartElement()) continue;
    const QXmlStreamAttributes a = xml.attributes();
    if (xml.name() == QLatin1String("svg")) {
      const QStringList vb = a.value(QLatin1String("viewBox")).toString().split(QLatin1Char(' '));
      if (vb.size() == 4)
        viewBox = QRectF(vb[0].toDouble(), vb[1].toDouble(), vb[2].toDouble(), vb[3].toDouble());
      const auto points = [&](QLatin1String key) {
        QString v = a.value(key).toString();
        if (v.endsWith(QLatin1String("mm"))) return v.chopped(2).toDouble() / 25.4 * 72;
        if (v.endsWith(QLatin1String("pt"))) return v.chopped(2).toDouble();
        return v.toDouble() * 0.75;  // CSS pixels
      };
      const QSizeF declared(points(QLatin1String("width")), points(QLatin1String("height")));
      if (std::abs(declared.width() - announced.width()) > 0.5 ||
          std::abs(declared.height() - announced.height()) > 0.5) {
        problems << QStringLiteral("%1: announced %2 pt, the SVG declares %3 pt")
                        .arg(what, sizeText(announced),
                             sizeText(QSizeF(std::round(declared.width() * 10) / 10,
                                             std::round(declared.height() * 10) / 10)));
      }
    }
    Group here = groups.back();
    if (a.hasAttribute(QLatin1String("transform")))
      here.transform = parseMatrix(a.value(QLatin1String("transform")).toString());
    if (a.hasAttribute(QLatin1String("font-family")))
      here.family = a.value(QLatin1String("font-family")).toString();
    if (a.hasAttribute(QLatin1String("font-size")))
      here.size = a.value(QLatin1String("font-size")).toString();
    if (a.hasAttribute(QLatin1String("font-weight")))
      here.weight = a.value(QLatin1String("font-weight")).toString();
    if (xml.name() == QLatin1String("g")) {
      groups.push_back(here);
    } else if (xml.name() == QLatin1String("text")) {
      const QPointF at(a.value(QLatin1String("x")).toDouble(),
                       a.value(QLatin1String("y")).toDouble());
      const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements);
      QFont font(here.family);
      font.setPixelSize(std::max(1, static_cast<int>(std::lround(here.size.toDouble()))));
      font.setWeight(
          static_cast<QFont::Weight>(here.weight.toInt() > 0 ? here.weight.toInt() : 400));
      const QFontMetricsF metrics(font);
      const QRectF box = here.transform.mapRect(QRectF(at.x(), at.y() - metrics.ascent(),
                                                       metrics.horizontalAdvance(text),
                                                       metrics.ascent() + metrics.descent()));
      ++texts;
      if (!viewBox.adjusted(-1, -1, 1, 1).contains(box)) {
        problems << QStringLiteral("%1: SVG text \"%2\" (%3,%4 %5x%6) leaves the %7 viewBox")
                        .arg(what, text.left(50))
                        .arg(box.x(), 0, 'f', 0)
                        .arg(box.y(), 0, 'f', 0)
                        .arg(box.width(), 0, 'f', 0)
                        .arg(box.height(), 0, 'f', 0)
                        .arg(sizeText(viewBox.size()));
      }
    }
  }
  if (texts == 0) problems << what + QStringLiteral(": no SVG text");
  return problems;
}

}  // namespace mhaviz::ui::testing
