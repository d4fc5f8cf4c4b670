// The pictures of patch tokens (token_pictures.hpp).
#include "render/token_pictures.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>

#include "render/rgb_picture.hpp"

namespace mhaviz::ui {

namespace {

// A patch is enlarged (nearest) until its longer side has at least this many pixels: more than
// a view draws it at (a row of the head view, a chip of the text view), at DPI scale 2 as well,
// so that drawing it smaller only smooths the edges between its pixels.
constexpr int kEnlargedSide = 64;

}  // namespace

QImage patchPicture(const mhaviz::model::PatchPictures& pictures, int batch, std::int64_t token) {
  if (batch < 0 || static_cast<std::size_t>(batch) >= pictures.pictures.size()) return {};
  const mhaviz::model::RgbImage& picture = pictures.pictures[static_cast<std::size_t>(batch)];
  const mhaviz::model::PixelRect rect =
      mhaviz::model::patch_pixels(pictures.grid, token, picture.height, picture.width);
  if (rect.empty()) return {};
  const QImage patch = toQImage(mhaviz::model::crop(picture, rect));
  const int longer = std::max(patch.width(), patch.height());
  const int factor = std::max(1, (kEnlargedSide + longer - 1) / longer);
  return patch.scaled(patch.width() * factor, patch.height() * factor, Qt::IgnoreAspectRatio,
                      Qt::FastTransformation);
}

bool picturesFit(const mhaviz::model::PatchPictures* pictures, const mhaviz::ForwardResult& result,
                 int batch) {
  if (pictures == nullptr || batch < 0 ||
      static_cast<std::size_t>(batch) >= pictures->pictures.size()) {
    return false;
  }
  const std::int64_t tokens = pictures->grid.tokens();
  return result.L == tokens && result.S == tokens;
}

TokenPictureList tokenPictures(const mhaviz::model::PatchPictures* pictures,
                               const mhaviz::ForwardResult& result, int batch) {
  if (!picturesFit(pictures, result, batch)) return {};
  TokenPictureList out(static_cast<std::size_t>(pictures->grid.tokens()));
  for (std::size_t t = 0; t < out.size(); ++t)
    out[t] = patchPicture(*pictures, batch, static_cast<std::int64_t>(t));
  if (!hasTokenPictures(out)) return {};
  return out;
}

QImage tokenPicture(const TokenPictureList& pictures, int token) {
  if (token < 0 || static_cast<std::size_t>(token) >= pictures.size()) return {};
  return pictures[static_cast<std::size_t>(token)];
}

bool hasTokenPictures(const TokenPictureList& pictures) {
  return std::any_of(pictures.begin(), pictures.end(),
                     [](const QImage& image) { return !image.isNull(); });
}

void paintTokenPicture(QPainter& painter, const QRectF& box, const QImage& picture,
                       const QColor& frame) {
  if (picture.isNull() || box.isEmpty()) return;
  const double scale = std::min(box.width() / picture.width(), box.height() / picture.height());
  const QSizeF size(picture.width() * scale, picture.height() * scale);
  const QRectF target(box.center().x() - size.width() / 2, box.center().y() - size.height() / 2,
                      size.width(), size.height());
  painter.save();
  painter.setRenderHint(QPainter::SmoothPixmapTransform, true);
  painter.drawImage(target, picture);
  painter.setRenderHint(QPainter::Antialiasing, false);
  painter.setPen(QPen(frame, 0));
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(target);
  painter.restore();
}

}  // namespace mhaviz::ui
