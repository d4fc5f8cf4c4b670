// RGB pictures as QImages (rgb_picture.hpp).
#include "render/rgb_picture.hpp"

namespace mhaviz::ui {

QImage toQImage(const mhaviz::model::RgbImage& rgb) {
  QImage image(static_cast<int>(rgb.width), static_cast<int>(rgb.height), QImage::Format_RGB32);
  for (int y = 0; y < image.height(); ++y) {
    auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
    for (int x = 0; x < image.width(); ++x) {
      const auto at = static_cast<std::size_t>((y * image.width() + x) * 3);
      line[x] = qRgb(rgb.rgb[at], rgb.rgb[at + 1], rgb.rgb[at + 2]);
    }
  }
  return image;
}

}  // namespace mhaviz::ui
