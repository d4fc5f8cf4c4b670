// mhaviz-cli model --view image (model_image.hpp).

#include "cli/model_image.hpp"

#include <iostream>
#include <string>

#include "cli/colormap_option.hpp"
#include "cli/int_option.hpp"
#include "cli/output_path.hpp"
#include "cli/usage_error.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "vision/image_picture.hpp"
#include "vision/image_scene.hpp"

namespace mhaviz::cli {

namespace {

const char* const kImageOptions[] = {"opacity", "upsampling", "overlay", "colormap"};

/// --query: a token's index or its label ("[CLS]", "r2c3").
int queryToken(const QCommandLineParser& parser, const model::ImageGrid& grid) {
  if (!parser.isSet(QStringLiteral("query"))) return 0;
  const QString value = parser.value(QStringLiteral("query"));
  const std::vector<std::string> labels = model::image_token_labels(grid);
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (value.toStdString() == labels[i]) return static_cast<int>(i);
  bool ok = false;
  const int q = value.toInt(&ok);
  if (!ok || q < 0) {
    throw UsageError(QStringLiteral("--query \"%1\" is neither a token index nor a token's label "
                                    "(e.g. 0, [CLS] or r2c3)")
                         .arg(value)
                         .toStdString());
  }
  return q;
}

}  // namespace

void addModelImageOptions(QCommandLineParser& parser) {
  parser.addOptions({
      {QStringLiteral("opacity"),
       QStringLiteral("With --view image: the colour map's opacity over the picture, 0 to 1 "
                      "(default 0.6)."),
       QStringLiteral("a")},
      {QStringLiteral("upsampling"),
       QStringLiteral("With --view image: nearest (exact patches, default) or smooth (bilinear "
                      "between patch centres)."),
       QStringLiteral("how")},
      {QStringLiteral("overlay"),
       QStringLiteral("With --view image: colormap (default) or brighten (the picture "
                      "brightened by weight)."),
       QStringLiteral("style")},
      {QStringLiteral("colormap"),
       QStringLiteral("With --view image: the overlay's colour map, as export's: ") +
           colormapOptionNames(),
       QStringLiteral("name")},
  });
}

bool imageViewAsked(const QCommandLineParser& parser) {
  return parser.value(QStringLiteral("view")) == QLatin1String("image");
}

void refuseImageOptionsWithoutView(const QCommandLineParser& parser) {
  for (const char* option : kImageOptions) {
    if (parser.isSet(QString::fromLatin1(option))) {
      throw UsageError(std::string("--") + option + " belongs to the image view; add --view image");
    }
  }
}

void modelImageCommand(const QCommandLineParser& parser, const model::Model& m,
                       const model::ComputedModel& computed, int batch, QSize size) {
  const QString image = parser.value(QStringLiteral("image"));
  const QString out = parser.value(QStringLiteral("out"));
  if (image.isEmpty() && out.isEmpty())
    throw UsageError("--view image needs --image OUT.png|svg|pdf or --out F.npz (or both)");
  if (!image.isEmpty()) {
    requireSuffix(QStringLiteral("image"), image,
                  {QStringLiteral(".png"), QStringLiteral(".svg"), QStringLiteral(".pdf")});
  }
  if (!out.isEmpty()) requireSuffix(QStringLiteral("out"), out, {QStringLiteral(".npz")});
  if (!m.index.image) {
    throw InvalidInput(m.index.path.filename().string() +
                       ": --view image needs a model file with an image (format version 3); "
                       "capture a vision transformer with mhaviz_capture.capture_model(model, "
                       "name, image=...)");
  }
  const bool rollout = parser.isSet(QStringLiteral("rollout"));
  const bool flow = parser.isSet(QStringLiteral("flow"));
  if (rollout && flow) throw UsageError("--view image shows one map: give --rollout or --flow");
  ui::ImageRequest r;
  r.batch = batch;
  r.layer = intOption(parser, QStringLiteral("layer"), -1, 0);
  if (parser.value(QStringLiteral("head")) == QLatin1String("mean"))
    r.head = -1;
  else
    r.head = intOption(parser, QStringLiteral("head"), 0, 0);
  r.query = queryToken(parser, *m.index.image);
  if (parser.isSet(QStringLiteral("opacity"))) {
    bool ok = false;
    r.opacity = parser.value(QStringLiteral("opacity")).toDouble(&ok);
    if (!ok || !(r.opacity >= 0 && r.opacity <= 1)) {
      throw UsageError(QStringLiteral("--opacity \"%1\" must be a number from 0 to 1")
                           .arg(parser.value(QStringLiteral("opacity")))
                           .toStdString());
    }
  }
  const QString up = parser.value(QStringLiteral("upsampling"));
  if (up == QLatin1String("smooth")) {
    r.upsampling = model::Upsampling::smooth;
  } else if (!up.isEmpty() && up != QLatin1String("nearest")) {
    throw UsageError(
        QStringLiteral("--upsampling \"%1\" must be nearest or smooth").arg(up).toStdString());
  }
  const QString style = parser.value(QStringLiteral("overlay"));
  if (style == QLatin1String("brighten")) {
    r.style = model::OverlayStyle::brighten;
  } else if (!style.isEmpty() && style != QLatin1String("colormap")) {
    throw UsageError(
        QStringLiteral("--overlay \"%1\" must be colormap or brighten").arg(style).toStdString());
  }
  r.colormap = colormapOption(parser, ui::Colormap::viridis);
  std::optional<model::AttentionFlow> flowMap;
  if (rollout) r.source = ui::ImageSource::rollout;
  if (flow) {
    r.source = ui::ImageSource::flow;
    flowMap = model::attention_flow(m, computed.weights, batch, -1, "--flow");
  }
  const ui::ImageScene scene = ui::buildImageScene(m, computed, r, flowMap ? &*flowMap : nullptr);
  if (!image.isEmpty()) {
    const QString error = ui::writeImagePicture(image, scene, size);
    if (!error.isEmpty()) throw InvalidInput(error.toStdString());
    std::cout << "wrote " << image.toStdString() << '\n';
  }
  if (!out.isEmpty()) {
    const ui::ImageMap& map = scene.main;
    const auto h = map.overlay.height;
    const auto w = map.overlay.width;
    io::TensorMap t;
    t["weights"] = Tensor::from<double>({scene.grid.rows, scene.grid.cols}, map.weights.grid);
    t["prefix"] = Tensor::from<double>({static_cast<std::int64_t>(map.weights.prefix.size())},
                                       map.weights.prefix);
    t["pixels"] = Tensor::from<double>({h, w}, map.pixels);
    t["overlay"] = Tensor::from<std::uint8_t>({h, w, 3}, map.overlay.rgb);
    t["scale"] = Tensor::from<double>({}, {map.scale});
    t["factor"] = Tensor::from<double>({}, {static_cast<double>(scene.pixelFactor)});
    std::vector<std::uint8_t> lut;
    for (const auto& c : scene.lut) lut.insert(lut.end(), c.begin(), c.end());
    t["lut"] = Tensor::from<std::uint8_t>({256, 3}, lut);
    io::write_tensor_file(out.toStdString(), t);
    std::cout << "wrote " << out.toStdString() << '\n';
  }
  std::cout << scene.heading.toStdString() << ": " << scene.main.title.toStdString()
            << "; largest patch weight " << scene.main.scale << ", weight on the prefix tokens "
            << scene.main.weights.prefix_total() << '\n';
}

}  // namespace mhaviz::cli
