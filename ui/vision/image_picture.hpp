#pragma once
// Drawing the image view (image_scene.hpp): the main map large — the picture with the query's
// weights laid over it, the patch grid faint, the query's patch outlined, the upsampling stated
// on the picture, the weight on the prefix tokens beside it — and, as small multiples, the
// picture itself with nothing over it, then every head of the layer. One layout for painting,
// clicks and hover; the same painting for the window, its export and mhaviz-cli model --view image
// (PNG, SVG or PDF).

#include <QColor>
#include <QPainter>
#include <QRect>
#include <QSize>
#include <QString>
#include <vector>

#include "render/image_export.hpp"
#include "vision/image_scene.hpp"

namespace mhaviz::ui {

/// Paper and ink (the window passes its palette's).
struct ImagePictureColors {
  QColor background = QColor(255, 255, 255);
  QColor ink = QColor(30, 30, 30);
};

/// Where things go in a picture of `size`.
struct ImagePictureLayout {
  QRect heading;
  QRect main;                // the main map's picture
  QRect mainCaption;         // two lines under it
  QRect scale;               // the colour bar beside the main map (colormap style)
  QRect image;               // the picture itself, first of the small multiples; empty where
                             // it would cost the heads' maps more than two fifths of their side
  QRect imageCaption;
  std::vector<QRect> heads;  // each head's picture
  std::vector<QRect> headCaptions;
  int captionLines = 2;
};

ImagePictureLayout layoutImagePicture(const ImageScene& scene, QSize size);

/// A point over a map: which map (-1 the main one, or the picture itself, whose patches are the
/// main map's; else the head) and which token; token -1 when the point is over no map.
struct ImageHit {
  int map = -1;
  int token = -1;
};
ImageHit imageHitAt(const ImageScene& scene, const ImagePictureLayout& layout, QPoint point);

/// "r2c3: weight 0.123 (head 2; 0.41 of the map's largest)" for a hit; empty for none.
QString imageHitText(const ImageScene& scene, const ImageHit& hit);

/// Paints the picture over (0, 0, size).
void paintImagePicture(QPainter& painter, const ImageScene& scene, QSize size,
                       const ImagePictureColors& colors = {});

/// The picture as an image (the CLI's PNG goes through writeImagePicture).
QImage drawImagePicture(const ImageScene& scene, QSize size, const ImagePictureColors& colors = {});

/// Writes the picture to `path` (.png, .svg or .pdf) of `size` logical pixels, atomically.
/// Returns an empty string on success, else the message.
QString writeImagePicture(const QString& path, const ImageScene& scene, QSize size,
                          const ImagePictureColors& colors = {}, double scale = 1.0);

}  // namespace mhaviz::ui
