#pragma once
// The core's 8-bit RGB pictures (model::RgbImage: an image file's picture, a patch of it, an
// overlay) as QImages to draw. Any thread.

#include <QImage>

#include "mhaviz/core/model/image_grid.hpp"

namespace mhaviz::ui {

/// `rgb` as an image of the same size, pixel for pixel.
QImage toQImage(const mhaviz::model::RgbImage& rgb);

}  // namespace mhaviz::ui
