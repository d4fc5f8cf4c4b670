// Drawing the image view (image_picture.hpp).

#include "vision/image_picture.hpp"

#include <QCoreApplication>
#include <QFont>
#include <QFontMetrics>
#include <algorithm>
#include <cmath>

#include "tokens/picture_file.hpp"

namespace mhaviz::ui {

namespace {

constexpr int kMargin = 8;
constexpr int kGap = 10;

QFont pictureFont(int pixels) {
  QFont font;
  font.setPixelSize(pixels);
  return font;
}

QString number(double v) { return QString::number(v, 'g', 2); }

/// The largest rect of the image's aspect inside `box`, centred horizontally, at its top.
QRect fit(const QRect& box, double aspect) {
  int w = box.width();
  int h = static_cast<int>(std::lround(w / aspect));
  if (h > box.height()) {
    h = box.height();
    w = static_cast<int>(std::lround(h * aspect));
  }
  return {box.x() + (box.width() - w) / 2, box.y(), std::max(w, 1), std::max(h, 1)};
}

/// "[CLS] 0.12" or "prefix 0.40: [CLS] 0.10, reg0 0.30".
QString prefixText(const ImageScene& s, const model::PatchWeights& w) {
  if (w.prefix.empty())
    return QCoreApplication::translate("mhaviz::ui::ImagePicture", "no prefix tokens");
  if (w.prefix.size() == 1)
    return QCoreApplication::translate("mhaviz::ui::ImagePicture", "to %1: %2")
        .arg(s.labels[0], number(w.prefix[0]));
  QStringList parts;
  for (std::size_t i = 0; i < w.prefix.size(); ++i)
    parts << QStringLiteral("%1 %2").arg(s.labels[static_cast<int>(i)], number(w.prefix[i]));
  return QCoreApplication::translate("mhaviz::ui::ImagePicture", "to prefix %1: %2")
      .arg(number(w.prefix_total()), parts.join(QStringLiteral(", ")));
}

void paintMap(QPainter& p, const ImageScene& s, const QImage& picture, const QRect& rect,
              const ImagePictureColors& colors, int gridAlpha) {
  p.save();
  p.setRenderHint(QPainter::SmoothPixmapTransform, false);
  p.drawImage(rect, picture);
  const auto rows = static_cast<int>(s.grid.rows);
  const auto cols = static_cast<int>(s.grid.cols);
  const double cw = rect.width() / static_cast<double>(cols);
  const double ch = rect.height() / static_cast<double>(rows);
  if (cw >= 5 && ch >= 5) {
    QColor line = colors.ink;
    line.setAlpha(gridAlpha);
    p.setPen(QPen(line, 0));
    for (int c = 1; c < cols; ++c)
      p.drawLine(QPointF(rect.x() + c * cw, rect.top()),
                 QPointF(rect.x() + c * cw, rect.bottom() + 1));
    for (int r = 1; r < rows; ++r)
      p.drawLine(QPointF(rect.left(), rect.y() + r * ch),
                 QPointF(rect.right() + 1, rect.y() + r * ch));
  }
  const auto [qr, qc] = s.queryPatch();
  if (qr >= 0) {
    const QRectF cell(rect.x() + qc * cw, rect.y() + qr * ch, cw, ch);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(Qt::black, 3));
    p.drawRect(cell);
    p.setPen(QPen(Qt::white, 1.5));
    p.drawRect(cell);
  }
  p.restore();
}

void paintCaption(QPainter& p, const QRect& box, const QStringList& lines, const QFont& font,
                  const QColor& ink) {
  p.setFont(font);
  p.setPen(ink);
  const QFontMetrics fm(font);
  int y = box.y();
  for (const QString& line : lines) {
    p.drawText(QRect(box.x(), y, box.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(line, Qt::ElideRight, box.width()));
    y += fm.height();
  }
}

// The lines under the main map: its title and largest weight, the colour map, the weight the
// query gives the prefix tokens.
QStringList mainCaption(const ImageScene& s) {
  QStringList lines{QCoreApplication::translate("mhaviz::ui::ImagePicture", "%1 \u00b7 max %2")
                        .arg(s.main.title, number(s.main.scale))};
  if (!s.colormapNote.isEmpty()) lines << s.colormapNote;
  lines << QCoreApplication::translate("mhaviz::ui::ImagePicture", "weight %1")
               .arg(prefixText(s, s.main.weights));
  return lines;
}

// The two lines under a head's small map.
QStringList headCaption(const ImageScene& s, const ImageMap& map) {
  return {QCoreApplication::translate("mhaviz::ui::ImagePicture", "%1 \u00b7 max %2")
              .arg(map.title, number(map.scale)),
          prefixText(s, map.weights)};
}

// The two lines under the picture itself: which image, and its patch grid.
QStringList imageCaption(const ImageScene& s) {
  return {QCoreApplication::translate("mhaviz::ui::ImagePicture", "image %1").arg(s.request.batch),
          QCoreApplication::translate("mhaviz::ui::ImagePicture", "%1 \u00d7 %2 patches")
              .arg(s.grid.rows)
              .arg(s.grid.cols)};
}

}  // namespace

ImagePictureLayout layoutImagePicture(const ImageScene& s, QSize size) {
  ImagePictureLayout l;
  const QFontMetrics big(pictureFont(13));
  const QFontMetrics small(pictureFont(11));
  const double aspect = static_cast<double>(s.grid.width) / static_cast<double>(s.grid.height);
  l.heading = QRect(kMargin, kMargin, size.width() - 2 * kMargin, big.height());
  const QRect body(kMargin, l.heading.bottom() + kGap, size.width() - 2 * kMargin,
                   size.height() - l.heading.bottom() - kGap - kMargin);
  const int mainCaptionH = static_cast<int>(mainCaption(s).size()) * big.height();
  const int headCaptionH = 2 * small.height();
  const int scaleW = s.request.style == model::OverlayStyle::colormap
                         ? 14 + big.horizontalAdvance(QStringLiteral("0.00")) + 8
                         : 0;
  const bool wide = body.width() >= body.height() * 1.25;
  QRect mainBox;
  QRect restBox;
  if (wide) {
    const int mainW = std::min(body.width() * 55 / 100 - scaleW,
                               static_cast<int>((body.height() - mainCaptionH) * aspect));
    mainBox = QRect(body.x(), body.y(), std::max(mainW, 16), body.height() - mainCaptionH);
    const int restX = mainBox.right() + scaleW + 2 * kGap;
    restBox = QRect(restX, body.y(), body.right() - restX, body.height());
  } else {
    const int mainH = std::min(body.height() * 58 / 100 - mainCaptionH,
                               static_cast<int>((body.width() - scaleW) / aspect));
    mainBox = QRect(body.x(), body.y(), body.width() - scaleW, std::max(mainH, 16));
    const int restY = mainBox.bottom() + mainCaptionH + kGap;
    restBox = QRect(body.x(), restY, body.width(), body.bottom() - restY);
  }
  l.main = fit(mainBox, aspect);
  if (!wide) l.main.moveLeft(body.x());
  l.mainCaption =
      QRect(l.main.x(), l.main.bottom() + 2, std::max(l.main.width() + scaleW, 200), mainCaptionH);
  if (scaleW > 0) l.scale = QRect(l.main.right() + 8, l.main.y(), 14, l.main.height());
  // the picture itself, then the heads: the number of columns that gives each the largest
  // picture, among those whose columns hold the captions whole (the weight on the prefix
  // tokens, cut to "to [CLS]:…" in four narrow columns at 1280x720), else among all
  int captionW = 0;
  for (const QString& line : imageCaption(s))
    captionW = std::max(captionW, small.horizontalAdvance(line));
  for (const ImageMap& map : s.heads)
    for (const QString& line : headCaption(s, map))
      captionW = std::max(captionW, small.horizontalAdvance(line));
  struct Arrangement {
    int side = 0;
    int cols = 1;
  };
  const auto arrange = [&](int n) {
    Arrangement best;
    bool bestFits = false;
    for (int cols = 1; cols <= n; ++cols) {
      const int rows = (n + cols - 1) / cols;
      const int cellW = (restBox.width() - (cols - 1) * kGap) / cols;
      const int cellH = (restBox.height() - (rows - 1) * kGap) / rows - headCaptionH;
      const int side = std::min(static_cast<int>(cellW / aspect), cellH);
      const bool fits = cellW >= captionW && side >= 8;
      if ((fits && !bestFits) || (fits == bestFits && side > best.side)) {
        best = {side, cols};
        bestFits = fits;
      }
    }
    return best;
  };
  // The picture itself where the heads' maps keep at least three fifths of their side (in
  // the dock at 1920x1080 100 pixels instead of 155; at 1280x720 they would halve to 20, and
  // there Overlay's opacity shows the picture).
  const int heads = static_cast<int>(s.heads.size());
  const Arrangement without = arrange(heads);
  const Arrangement with = arrange(heads + 1);
  const bool withImage = with.side * 5 >= without.side * 3;
  const Arrangement a = withImage ? with : without;
  if (a.side >= 8) {
    const int cellW = (restBox.width() - (a.cols - 1) * kGap) / a.cols;
    const int pictureW = std::min(cellW, static_cast<int>(std::lround(a.side * aspect)));
    for (int i = 0; i < heads + (withImage ? 1 : 0); ++i) {
      const QRect pic(restBox.x() + (i % a.cols) * (cellW + kGap),
                      restBox.y() + (i / a.cols) * (a.side + headCaptionH + kGap), pictureW,
                      a.side);
      const QRect caption(pic.x(), pic.bottom() + 1, cellW, headCaptionH);
      if (withImage && i == 0) {
        l.image = pic;
        l.imageCaption = caption;
      } else {
        l.heads.push_back(pic);
        l.headCaptions.push_back(caption);
      }
    }
  }
  return l;
}

ImageHit imageHitAt(const ImageScene& s, const ImagePictureLayout& l, QPoint point) {
  const auto tokenAt = [&](const QRect& r) {
    if (!r.contains(point)) return -1;
    const auto col = static_cast<int>((point.x() - r.x()) * s.grid.cols / r.width());
    const auto row = static_cast<int>((point.y() - r.y()) * s.grid.rows / r.height());
    return static_cast<int>(s.grid.token(std::min<std::int64_t>(row, s.grid.rows - 1),
                                         std::min<std::int64_t>(col, s.grid.cols - 1)));
  };
  if (const int t = tokenAt(l.main); t >= 0) return {-1, t};
  if (const int t = tokenAt(l.image); t >= 0) return {-1, t};
  for (std::size_t h = 0; h < l.heads.size(); ++h)
    if (const int t = tokenAt(l.heads[h]); t >= 0) return {static_cast<int>(h), t};
  return {};
}

QString imageHitText(const ImageScene& s, const ImageHit& hit) {
  if (hit.token < 0) return {};
  const ImageMap& map = hit.map < 0 ? s.main : s.heads[static_cast<std::size_t>(hit.map)];
  const auto patch = static_cast<std::size_t>(hit.token - static_cast<int>(s.grid.prefix.size()));
  const double w = map.weights.grid[patch];
  return QCoreApplication::translate(
             "mhaviz::ui::ImagePicture",
             "%1 (token %2): weight %3 from query %4 in %5 (%6 of the map's largest)")
      .arg(s.labels[hit.token])
      .arg(hit.token)
      .arg(QString::number(w, 'g', 3), s.labels[s.request.query], map.title)
      .arg(QString::number(w / map.scale, 'f', 2));
}

void paintImagePicture(QPainter& p, const ImageScene& s, QSize size,
                       const ImagePictureColors& colors) {
  const ImagePictureLayout l = layoutImagePicture(s, size);
  const QFont big = pictureFont(13);
  const QFont small = pictureFont(11);
  paintCaption(p, l.heading, {s.heading}, big, colors.ink);
  paintMap(p, s, s.main.picture, l.main, colors, 70);
  // the upsampling, stated on the picture
  {
    p.save();
    p.setFont(small);
    const QFontMetrics fm(small);
    // wrapped where the map is narrow (at 1280x720 it read "nearest: exact pat…")
    const int flags = Qt::AlignCenter | Qt::TextWordWrap;
    const QRect need = fm.boundingRect(QRect(0, 0, std::max(8, l.main.width() - 16), 1000), flags,
                                       s.upsamplingNote);
    const QRect box(l.main.x() + 4, l.main.bottom() - need.height() - 4, need.width() + 8,
                    need.height() + 2);
    p.fillRect(box, QColor(0, 0, 0, 150));
    p.setPen(Qt::white);
    p.drawText(box, flags, s.upsamplingNote);
    p.restore();
  }
  if (!l.scale.isEmpty()) {
    for (int y = 0; y < l.scale.height(); ++y) {
      const auto entry = static_cast<std::size_t>(
          std::lround(255.0 * (l.scale.height() - 1 - y) / std::max(1, l.scale.height() - 1)));
      const auto& c = s.lut[entry];
      p.fillRect(QRect(l.scale.x(), l.scale.y() + y, l.scale.width(), 1), QColor(c[0], c[1], c[2]));
    }
    p.setFont(small);
    p.setPen(colors.ink);
    const QFontMetrics fm(small);
    p.drawText(QPoint(l.scale.right() + 4, l.scale.top() + fm.ascent()), number(s.main.scale));
    p.drawText(QPoint(l.scale.right() + 4, l.scale.bottom()), QStringLiteral("0"));
  }
  paintCaption(p, l.mainCaption, mainCaption(s), big, colors.ink);
  if (!l.image.isEmpty()) {
    paintMap(p, s, s.image, l.image, colors, 45);
    paintCaption(p, l.imageCaption, imageCaption(s), small, colors.ink);
  }
  for (std::size_t h = 0; h < l.heads.size(); ++h) {
    const ImageMap& map = s.heads[h];
    paintMap(p, s, map.picture, l.heads[h], colors, 45);
    paintCaption(p, l.headCaptions[h], headCaption(s, map), small, colors.ink);
  }
}

QImage drawImagePicture(const ImageScene& s, QSize size, const ImagePictureColors& colors) {
  QImage image(size, QImage::Format_RGB32);
  image.fill(colors.background);
  QPainter p(&image);
  paintImagePicture(p, s, size, colors);
  return image;
}

QString writeImagePicture(const QString& path, const ImageScene& s, QSize size,
                          const ImagePictureColors& colors, double scale) {
  PictureSource source;
  source.width = size.width();
  source.height = size.height();
  source.title = s.heading;
  source.description = QStringLiteral("mhaviz image view");
  source.background = colors.background;
  source.paint = [&](QPainter& p, bool) { paintImagePicture(p, s, size, colors); };
  ExportOptions options;
  options.width = size.width();
  options.height = size.height();
  options.scale = scale;
  return writePicture(path, source, options);
}

}  // namespace mhaviz::ui
