// The image view's content (image_scene.hpp).

#include "vision/image_scene.hpp"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

#include "mhaviz/core/base/errors.hpp"
#include "render/colormaps.hpp"
#include "render/rgb_picture.hpp"
#include "stages/layer_name.hpp"

namespace mhaviz::ui {

namespace {

/// The picture enlarged `factor` times, each pixel a factor × factor block.
model::RgbImage enlarge(const model::RgbImage& p, int factor) {
  if (factor == 1) return p;
  model::RgbImage out{p.height * factor, p.width * factor, {}};
  out.rgb.resize(static_cast<std::size_t>(out.height * out.width * 3));
  for (std::int64_t y = 0; y < out.height; ++y)
    for (std::int64_t x = 0; x < out.width; ++x)
      for (std::int64_t c = 0; c < 3; ++c)
        out.rgb[static_cast<std::size_t>((y * out.width + x) * 3 + c)] =
            p.rgb[static_cast<std::size_t>(((y / factor) * p.width + x / factor) * 3 + c)];
  return out;
}

ImageMap makeMap(QString title, model::PatchWeights weights, const model::ImageGrid& grid,
                 const model::RgbImage& base, const ImageRequest& r,
                 const std::array<std::array<std::uint8_t, 3>, 256>& lut) {
  ImageMap map;
  map.title = std::move(title);
  map.weights = std::move(weights);
  const double top = map.weights.grid_max();
  map.scale = top > 0 ? top : 1.0;
  map.pixels = model::upsample(grid, map.weights.grid, base.height, base.width, r.upsampling);
  model::OverlayOptions o;
  o.style = r.style;
  o.upsampling = r.upsampling;
  o.opacity = r.opacity;
  o.scale = map.scale;
  o.lut = lut;
  map.overlay = model::overlay(base, map.pixels, o);
  map.picture = toQImage(map.overlay);
  return map;
}

[[noreturn]] void refuse(const char* what, const QString& text) {
  throw InvalidInput(std::string(what) + ": " + text.toStdString());
}

}  // namespace

std::pair<int, int> ImageScene::queryPatch() const {
  const auto prefix = static_cast<int>(grid.prefix.size());
  if (request.query < prefix) return {-1, -1};
  const int p = request.query - prefix;
  return {p / static_cast<int>(grid.cols), p % static_cast<int>(grid.cols)};
}

std::array<std::array<std::uint8_t, 3>, 256> colormapLut(Colormap colormap) {
  QCPColorGradient gradient = makeGradient(colormap);
  std::array<std::array<std::uint8_t, 3>, 256> lut{};
  const QCPRange range(0.0, 1.0);
  for (std::size_t i = 0; i < 256; ++i) {
    const QRgb c = gradient.color(static_cast<double>(i) / 255.0, range);
    lut[i] = {static_cast<std::uint8_t>(qRed(c)), static_cast<std::uint8_t>(qGreen(c)),
              static_cast<std::uint8_t>(qBlue(c))};
  }
  return lut;
}

int overlayFactor(const model::RgbImage& picture) {
  const std::int64_t side = std::max<std::int64_t>({picture.height, picture.width, 1});
  return static_cast<int>(std::clamp<std::int64_t>((256 + side - 1) / side, 1, 16));
}

ImageScene buildImageScene(const model::Model& m, const model::ComputedModel& computed,
                           ImageRequest r, const model::AttentionFlow* flow) {
  if (!m.index.image) {
    throw InvalidInput(
        QCoreApplication::translate(
            "mhaviz::ui::ImageScene",
            "this model file has no image (it is not format version 3); capture a vision "
            "transformer with mhaviz_capture.capture_model(model, name, image=...)")
            .toStdString());
  }
  ImageScene s;
  s.grid = *m.index.image;
  s.layers = model::image_layers(m.index);
  const auto batches = static_cast<int>(m.image.input.size(0));
  if (r.batch < 0 || r.batch >= batches)
    refuse("--batch", QCoreApplication::translate("mhaviz::ui::ImageScene",
                                                  "image %1 does not exist (0 to %2)")
                          .arg(r.batch)
                          .arg(batches - 1));
  if (r.layer == -1) r.layer = static_cast<int>(s.layers.front());
  const auto at = std::find(s.layers.begin(), s.layers.end(), static_cast<std::size_t>(r.layer));
  if (at == s.layers.end()) {
    QStringList names;
    for (const std::size_t l : s.layers) names << QString::number(l);
    refuse("--layer",
           QCoreApplication::translate("mhaviz::ui::ImageScene",
                                       "layer %1 does not attend over the image; these do: %2")
               .arg(r.layer)
               .arg(names.join(QStringLiteral(", "))));
  }
  s.layerPosition = static_cast<int>(at - s.layers.begin());
  const Tensor& w = computed.weights.at(static_cast<std::size_t>(r.layer));
  const auto heads = static_cast<int>(w.size(1));
  if (r.head < -1 || r.head >= heads)
    refuse("--head", QCoreApplication::translate("mhaviz::ui::ImageScene",
                                                 "head %1 does not exist (0 to %2, or mean)")
                         .arg(r.head)
                         .arg(heads - 1));
  const auto tokens = static_cast<int>(s.grid.tokens());
  if (r.query < 0 || r.query >= tokens)
    refuse("--query", QCoreApplication::translate("mhaviz::ui::ImageScene",
                                                  "token %1 does not exist (0 to %2)")
                          .arg(r.query)
                          .arg(tokens - 1));
  if (!(r.opacity >= 0 && r.opacity <= 1))
    refuse("--opacity",
           QCoreApplication::translate("mhaviz::ui::ImageScene", "%1 is not between 0 and 1")
               .arg(r.opacity));
  s.request = r;
  for (const std::string& label : model::image_token_labels(s.grid))
    s.labels << QString::fromStdString(label);
  s.lut = colormapLut(r.colormap);
  const model::RgbImage shown = model::display_image(m.image, r.batch);
  s.pixelFactor = overlayFactor(shown);
  const model::RgbImage base = enlarge(shown, s.pixelFactor);
  s.image = toQImage(base);
  s.heading =
      QCoreApplication::translate("mhaviz::ui::ImageScene", "%1 \u00b7 query %2 \u00b7 image %3")
          .arg(modelLayerName(m.index, static_cast<std::size_t>(r.layer)))
          .arg(s.labels[r.query])
          .arg(r.batch);
  s.upsamplingNote =
      r.upsampling == model::Upsampling::nearest
          ? QCoreApplication::translate("mhaviz::ui::ImageScene", "nearest: exact patches")
          : QCoreApplication::translate("mhaviz::ui::ImageScene",
                                        "smooth: bilinear between patch centres");
  if (r.style == model::OverlayStyle::colormap)
    s.colormapNote = QCoreApplication::translate("mhaviz::ui::ImageScene", "%1 colour map")
                         .arg(colormapName(r.colormap));
  switch (r.source) {
    case ImageSource::head:
      s.main = makeMap(
          r.head == -1
              ? QCoreApplication::translate("mhaviz::ui::ImageScene", "mean of %1 heads").arg(heads)
              : QCoreApplication::translate("mhaviz::ui::ImageScene", "head %1").arg(r.head),
          model::head_patch_weights(s.grid, w, r.head, r.query, r.batch), s.grid, base, r, s.lut);
      break;
    case ImageSource::rollout: {
      const model::Rollout ro = model::attention_rollout(m, computed.weights, r.batch);
      s.main = makeMap(
          QCoreApplication::translate("mhaviz::ui::ImageScene", "attention rollout over %1 layers")
              .arg(ro.layers.size()),
          model::map_patch_weights(s.grid, ro.map, ro.tokens, r.query), s.grid, base, r, s.lut);
      break;
    }
    case ImageSource::flow:
      if (flow == nullptr)
        refuse("--flow", QCoreApplication::translate("mhaviz::ui::ImageScene",
                                                     "the attention flow is not computed yet"));
      s.main = makeMap(
          QCoreApplication::translate("mhaviz::ui::ImageScene", "attention flow over %1 layers")
              .arg(flow->layers.size()),
          model::map_patch_weights(s.grid, flow->map, flow->tokens, r.query), s.grid, base, r,
          s.lut);
      break;
  }
  for (int h = 0; h < heads; ++h) {
    s.heads.push_back(
        makeMap(QCoreApplication::translate("mhaviz::ui::ImageScene", "head %1").arg(h),
                model::head_patch_weights(s.grid, w, h, r.query, r.batch), s.grid, base, r, s.lut));
  }
  return s;
}

}  // namespace mhaviz::ui
