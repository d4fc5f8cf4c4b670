// Token views' picture files (picture_file.hpp).
#include "tokens/picture_file.hpp"

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>

#include "mhaviz/core/io/file_bytes.hpp"

namespace mhaviz::ui {

QString checkPicturePath(const QString& path) {
  const QString ext = QFileInfo(path).suffix().toLower();
  if (ext != QLatin1String("png") && ext != QLatin1String("svg") && ext != QLatin1String("pdf")) {
    return QCoreApplication::translate(
               "mhaviz::ui::PictureFile",
               "cannot export to '%1': unknown image type '%2'; use a file name ending in .png, "
               ".svg or .pdf")
        .arg(path, ext.isEmpty()
                       ? QCoreApplication::translate("mhaviz::ui::PictureFile", "(no extension)")
                       : QStringLiteral(".") + ext);
  }
  const QDir dir = QFileInfo(path).absoluteDir();
  if (!dir.exists()) {
    return QCoreApplication::translate(
               "mhaviz::ui::PictureFile",
               "cannot write '%1': the folder '%2' does not exist; create it or choose another "
               "folder")
        .arg(path, dir.path());
  }
  return {};
}

double wrappedHeight(const QFont& font, const QString& text, double width) {
  return std::ceil(
      QFontMetricsF(font)
          .boundingRect(QRectF(0, 0, width, 1e6), Qt::AlignLeft | Qt::TextWordWrap, text)
          .height());
}

QFont pictureFont() {
  QFont font = QApplication::font();
  const QFontInfo shown(font);
  font.setPixelSize(std::max(1, shown.pixelSize()));
  return font;
}

QImage pictureCanvas(const PictureSource& source, const ExportOptions& options) {
  QImage image(QSize(static_cast<int>(std::lround(source.width * options.scale)),
                     static_cast<int>(std::lround(source.height * options.scale))),
               QImage::Format_ARGB32_Premultiplied);
  image.setDevicePixelRatio(options.scale);
  image.fill(options.transparent ? QColor(Qt::transparent) : source.background);
  return image;
}

QString writePicture(const QString& path, const PictureSource& source,
                     const ExportOptions& options) {
  if (QString bad = checkPicturePath(path); !bad.isEmpty()) return bad;
  if (source.width < 1 || source.height < 1 || source.width > 20000 || source.height > 20000) {
    return QCoreApplication::translate(
               "mhaviz::ui::PictureFile",
               "cannot export a %1x%2 picture: each side must be 1 to 20000 pixels")
        .arg(source.width)
        .arg(source.height);
  }
  if (!(options.scale > 0 && options.scale <= 16)) {
    return QCoreApplication::translate(
               "mhaviz::ui::PictureFile",
               "cannot export with scale %1: use a scale above 0 and at most 16")
        .arg(options.scale);
  }
  if (qobject_cast<QApplication*>(QCoreApplication::instance()) == nullptr) {
    return QCoreApplication::translate("mhaviz::ui::PictureFile",
                                       "image export needs a QApplication (run with a display or "
                                       "QT_QPA_PLATFORM=offscreen)");
  }
  const QString ext = QFileInfo(path).suffix().toLower();
  const int width = source.width;
  const int height = source.height;
  QString failure;
  struct WriteFailed {};
  try {
    mhaviz::io::replace_file_atomic(
        QFile::encodeName(path).toStdString(), [&](const std::filesystem::path& tmp) {
          const QString part = QFile::decodeName(tmp.c_str());
          bool ok = true;
          if (ext == QLatin1String("png")) {
            QImage image = pictureCanvas(source, options);
            if (source.raster) source.raster(image);
            QPainter painter(&image);
            source.paint(painter, static_cast<bool>(source.raster));
            painter.end();
            // The file says its DPI; painting used the screen's, as the layout measured.
            image.setDotsPerMeterX(static_cast<int>(96 * options.scale / 0.0254));
            image.setDotsPerMeterY(static_cast<int>(96 * options.scale / 0.0254));
            ok = image.save(part, "PNG");
          } else if (ext == QLatin1String("svg")) {
            QSvgGenerator generator;  // text stays text
            generator.setFileName(part);
            generator.setSize(QSize(width, height));
            generator.setViewBox(QRect(0, 0, width, height));
            generator.setTitle(source.title);
            generator.setDescription(source.description);
            QPainter painter;
            ok = painter.begin(&generator);
            if (ok) {
              if (!options.transparent)
                painter.fillRect(QRect(0, 0, width, height), source.background);
              source.paint(painter, false);
              painter.end();
            }
          } else {
            QPdfWriter writer(part);
            writer.setTitle(source.title);
            writer.setCreator(QStringLiteral("mhaviz"));
            writer.setResolution(96);
            writer.setPageSize(QPageSize(QSizeF(width, height), QPageSize::Point));
            writer.setPageMargins(QMarginsF(0, 0, 0, 0));
            QPainter painter;
            ok = painter.begin(&writer);
            if (ok) {
              const double s = writer.width() / static_cast<double>(width);
              painter.scale(s, s);
              painter.fillRect(QRect(0, 0, width, height), source.background);
              source.paint(painter, false);
              painter.end();
            }
          }
          if (ok && QFileInfo(part).size() > 0) return;
          failure = QCoreApplication::translate(
                        "mhaviz::ui::PictureFile",
                        "cannot write '%1': the %2 file could not be written (disk full or no "
                        "permission?)")
                        .arg(path, ext.toUpper());
          throw WriteFailed{};
        });
  } catch (const WriteFailed&) {
    return failure;
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

QString exportPicture(const QString& path, const ExportOptions& options,
                      const std::function<QString(const ExportOptions&)>& checkSize,
                      const std::function<PictureSource()>& make) {
  try {
    if (QString bad = checkPicturePath(path); !bad.isEmpty()) return bad;
    if (QString bad = checkSize(options); !bad.isEmpty()) return bad;
    return writePicture(path, make(), options);
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
}

}  // namespace mhaviz::ui
