#pragma once
// Writing a token view's picture to PNG, SVG or PDF (by the file's extension), atomically: the
// head view and the text view export through it, from the window and from mhaviz-cli. SVG and
// PDF keep text as text (selectable in a viewer). Also what both pictures are painted with
// (TokenLook) and how their titles wrap. GUI thread (needs a QApplication).

#include <QColor>
#include <QFont>
#include <QImage>
#include <QString>
#include <functional>

#include "render/image_export.hpp"
#include "render/token_pictures.hpp"

class QPainter;

namespace mhaviz::ui {

/// What a picture file holds and how it is drawn over width x height logical units.
struct PictureSource {
  int width = 0, height = 0;
  QString title;        // the document's title (SVG, PDF)
  QString description;  // "mhaviz head view" (SVG)
  QColor background = Qt::white;
  /// PNG only, before `paint`: draws onto the image (Format_ARGB32_Premultiplied, device pixel
  /// ratio = the export's scale, background already filled) what is faster drawn by hand.
  std::function<void(QImage& image)> raster;
  /// Paints the picture; `rasterDone` says that `raster` already drew its part.
  std::function<void(QPainter& painter, bool rasterDone)> paint;
};

/// Colours and font of a painted token view, in the window (the widget's palette) or in a file
/// (light, whatever the window's theme); HeadViewLook and TextViewLook add their own.
struct TokenLook {
  QColor background = Qt::white;
  QColor ink = Qt::black;
  QColor faint = QColor(128, 128, 128);
  QFont font;
  TokenPictureList pictures;  // the patch tokens' pictures (token_pictures.hpp); empty: none
};

/// The height `text` takes in `font` wrapped at `width` (whole pixels, rounded up): a picture's
/// title and caption wrap onto as many lines as they need.
double wrappedHeight(const QFont& font, const QString& text, double width);

/// The application's font sized in pixels (as QFontMetricsF measures it on screen): a picture's
/// text then has the size its layout measured on every device — a PNG at DPI scale 2 (whose
/// painter scales logical pixels, not points), an SVG (whose units are logical pixels).
QFont pictureFont();

/// The PNG's image before `source` is painted on it: width x height times the scale, its
/// device pixel ratio the scale, filled with the background (or transparent). The layout audit
/// paints on a device with its metrics.
QImage pictureCanvas(const PictureSource& source, const ExportOptions& options);

/// Checks `path`'s extension (png, svg, pdf) and folder; empty when fine, else the message.
QString checkPicturePath(const QString& path);

/// Writes `source` to `path` as options say (scale, transparent; width and height come from the
/// source). Returns an empty string on success, else a user-readable error (never throws).
QString writePicture(const QString& path, const PictureSource& source,
                     const ExportOptions& options);

/// Writes the picture `make` returns to `path` as writePicture does, after checking the path
/// and, with `checkSize`, options' size (a view's own limits). Empty on success, else a
/// user-readable error; never throws (what `make` throws becomes the message).
QString exportPicture(const QString& path, const ExportOptions& options,
                      const std::function<QString(const ExportOptions&)>& checkSize,
                      const std::function<PictureSource()>& make);

}  // namespace mhaviz::ui
