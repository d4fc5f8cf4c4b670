// Vision transformers in a model file (format version 3, image_grid.hpp, image_overlay.hpp):
// torchvision's VisionTransformer captured by tests/fixtures/make_vision_fixtures.py, its image
// and patch grid read back, the token labels, the bad inputs of the issue, and the overlay's
// arithmetic (split by the grid, upsampling, blending).

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/model/image_overlay.hpp"
#include "mhaviz/core/model/model.hpp"
#include "test_util.hpp"

namespace mhaviz {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const fs::path kModels = fs::path(MHAVIZ_FIXTURE_DIR) / "models";

json read_json(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

/// The message parse_model_index throws for `doc`, or "" when it parses.
std::string refusal(const json& doc) {
  try {
    (void)model::parse_model_index(doc.dump(), kModels / "vit.json");
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "";
}

TEST(ModelImage, TorchvisionViTIsReadWithItsGridAndImage) {
  const model::Model m = model::read_model(kModels / "vit.json");
  ASSERT_TRUE(m.index.image);
  const model::ImageGrid& g = *m.index.image;
  EXPECT_EQ(g.rows, 4);
  EXPECT_EQ(g.cols, 4);
  EXPECT_EQ(g.patch_height, 4);
  EXPECT_EQ(g.height, 16);
  EXPECT_EQ(g.prefix, std::vector<std::string>{"[CLS]"});
  EXPECT_EQ(g.tokens(), 17);
  EXPECT_EQ(m.image.input.shape(), (Shape{2, 3, 16, 16}));
  EXPECT_EQ(m.image.picture.shape(), (Shape{2, 16, 16, 3}));
  for (const model::Layer& layer : m.layers) {
    EXPECT_EQ(layer.info.config.query_labels, model::image_token_labels(g));
    const ForwardResult r =
        forward(layer.problem.config, layer.problem.params, layer.problem.inputs);
    EXPECT_LT(model::check_layer(layer, r).output_diff, 1e-6);
  }
}

TEST(ModelImage, LabelsNameThePrefixThenRowAndColumn) {
  model::ImageGrid g;
  g.rows = 2;
  g.cols = 3;
  g.prefix = {"[CLS]", "reg0"};
  const std::vector<std::string> labels = model::image_token_labels(g);
  ASSERT_EQ(labels.size(), 8U);
  EXPECT_EQ(labels[0], "[CLS]");
  EXPECT_EQ(labels[1], "reg0");
  EXPECT_EQ(labels[2], "r0c0");
  EXPECT_EQ(labels[7], "r1c2");
  EXPECT_EQ(labels[static_cast<std::size_t>(g.token(1, 0))], "r1c0");
}

TEST(ModelImage, LayersWithoutLabelsGetThePatchNames) {
  json doc = read_json(kModels / "vit_gray.json");
  doc.erase("tokens");
  for (json& layer : doc["layers"]) {
    layer["config"].erase("query_labels");
    layer["config"].erase("key_labels");
  }
  const model::ModelIndex index = model::parse_model_index(doc.dump(), kModels / "vit_gray.json");
  ASSERT_TRUE(index.image);
  EXPECT_EQ(index.image->channels, 1);
  EXPECT_FALSE(index.image->picture);
  for (const model::LayerInfo& layer : index.layers) {
    EXPECT_EQ(layer.config.key_labels, model::image_token_labels(*index.image));
  }
}

TEST(ModelImage, BadGridsAreRefusedWithTheFix) {
  const json good = read_json(kModels / "vit.json");
  ASSERT_EQ(refusal(good), "");
  json doc = good;
  doc["image"]["size"] = {17, 16};
  EXPECT_NE(refusal(doc).find("the image is 17\u00d716 pixels"), std::string::npos) << refusal(doc);
  doc = good;
  doc["image"]["grid"] = {1, 1};
  doc["image"]["size"] = {4, 4};
  EXPECT_NE(refusal(doc).find("1\u00d71 grid"), std::string::npos) << refusal(doc);
  doc = good;
  doc["image"]["grid"] = {100, 100};
  doc["image"]["size"] = {400, 400};
  EXPECT_NE(refusal(doc).find("10000 patches"), std::string::npos) << refusal(doc);
  doc = good;
  doc["image"]["prefix_tokens"] = {"[CLS]", "reg0"};
  EXPECT_NE(refusal(doc).find("has 17 tokens, but the image's grid gives 2 prefix + 4\u00d74"),
            std::string::npos)
      << refusal(doc);
  doc = good;
  doc.erase("image");
  EXPECT_NE(refusal(doc).find("key \"image\" is missing"), std::string::npos) << refusal(doc);
  doc = good;
  doc["image"]["patch_size"] = "4";
  EXPECT_NE(refusal(doc).find("\"patch_size\" must be two integers"), std::string::npos);
  doc = good;
  doc["version"] = 2;  // an older file with an image key: the key is not read
  EXPECT_EQ(refusal(doc), "");
}

class ModelImageFiles : public test::TempDirTest {
 protected:
  /// Copies vit.json into dir_ and writes its tensors with `change` applied.
  std::string refusal(const std::function<void(io::TensorMap&)>& change) {
    fs::copy_file(kModels / "vit.json", dir_ / "vit.json", fs::copy_options::overwrite_existing);
    io::TensorMap tensors = io::read_tensor_file(kModels / "vit.npz");
    change(tensors);
    io::write_tensor_file(dir_ / "vit.npz", tensors);
    try {
      (void)model::read_model(dir_ / "vit.json");
    } catch (const InvalidInput& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(ModelImageFiles, MissingOrCorruptImageMembersAreRefused) {
  EXPECT_EQ(refusal([](io::TensorMap&) {}), "");
  std::string why = refusal([](io::TensorMap& t) { t.erase("image/input"); });
  EXPECT_NE(why.find("member \"image/input\" is missing"), std::string::npos) << why;
  why = refusal([](io::TensorMap& t) { t["image/input"] = Tensor(ElemType::f32, {2, 3, 16, 12}); });
  EXPECT_NE(why.find("(2, 3, 16, 16)"), std::string::npos) << why;
  why = refusal([](io::TensorMap& t) { t["image/input"] = Tensor(ElemType::u8, {2, 3, 16, 16}); });
  EXPECT_NE(why.find("uint8"), std::string::npos) << why;
  why = refusal([](io::TensorMap& t) { t.erase("image/picture"); });
  EXPECT_NE(why.find("member \"image/picture\" is missing"), std::string::npos) << why;
  why = refusal([](io::TensorMap& t) {
    t["image/picture"] = Tensor(ElemType::f32, {2, 16, 16, 3});
  });
  EXPECT_NE(why.find("uint8"), std::string::npos) << why;
}

TEST(ModelImage, HeadWeightsSplitIntoPrefixAndGridAndTheMeanIsTheMeanOfHeads) {
  const model::Model m = model::read_model(kModels / "vit.json");
  const model::Layer& layer = m.layers[1];
  const Tensor w =
      forward(layer.problem.config, layer.problem.params, layer.problem.inputs).weights;
  const model::ImageGrid& g = *m.index.image;
  const auto h0 = model::head_patch_weights(g, w, 0, 0, 1);
  const auto h1 = model::head_patch_weights(g, w, 1, 0, 1);
  const auto mean = model::head_patch_weights(g, w, -1, 0, 1);
  ASSERT_EQ(h0.grid.size(), 16U);
  ASSERT_EQ(h0.prefix.size(), 1U);
  double total = h0.prefix_total();
  for (const double v : h0.grid) total += v;
  EXPECT_NEAR(total, 1.0, 1e-6);                                           // a softmax row
  EXPECT_DOUBLE_EQ(h0.grid[5], w.value(((1 * 2 + 0) * 17 + 0) * 17 + 6));  // r1c1 = token 6
  for (std::size_t i = 0; i < 16; ++i)
    EXPECT_NEAR(mean.grid[i], (h0.grid[i] + h1.grid[i]) / 2, 1e-12);
  EXPECT_THROW((void)model::head_patch_weights(g, w, 2, 0, 0), InvalidInput);
  EXPECT_THROW((void)model::head_patch_weights(g, w, 0, 17, 0), InvalidInput);
}

model::ImageGrid grid(std::int64_t rows, std::int64_t cols, std::int64_t patch) {
  model::ImageGrid g;
  g.rows = rows;
  g.cols = cols;
  g.patch_height = g.patch_width = patch;
  g.height = rows * patch;
  g.width = cols * patch;
  g.prefix = {"[CLS]"};
  return g;
}

TEST(ModelImage, NearestUpsamplingGivesEachPixelItsPatch) {
  const model::ImageGrid g = grid(2, 3, 4);
  const std::vector<double> w{1, 2, 3, 4, 5, 6};
  const auto px = model::upsample(g, w, 8, 12, model::Upsampling::nearest);
  for (std::int64_t y = 0; y < 8; ++y)
    for (std::int64_t x = 0; x < 12; ++x)
      EXPECT_EQ(px[static_cast<std::size_t>(y * 12 + x)],
                w[static_cast<std::size_t>((y / 4) * 3 + x / 4)]);
  // a picture twice the image's size: patches of 8 pixels
  const auto big = model::upsample(g, w, 16, 24, model::Upsampling::nearest);
  EXPECT_EQ(big[15 * 24 + 23], 6);
  EXPECT_EQ(big[7 * 24 + 8], 2);
}

TEST(ModelImage, SmoothUpsamplingIsBilinearBetweenPatchCentres) {
  // patches of 3 pixels: pixel 1 of each patch sits on its centre
  const model::ImageGrid g = grid(1, 2, 3);
  const std::vector<double> w{0, 1};
  const auto px = model::upsample(g, w, 3, 6, model::Upsampling::smooth);
  EXPECT_DOUBLE_EQ(px[1], 0);  // centre of patch 0
  EXPECT_DOUBLE_EQ(px[4], 1);  // centre of patch 1
  EXPECT_DOUBLE_EQ(px[0], 0);  // outside the centres: clamped
  EXPECT_DOUBLE_EQ(px[5], 1);
  EXPECT_NEAR(px[2], 1.0 / 3, 1e-12);  // 1 pixel of the 3 from centre 0 to centre 1
  EXPECT_NEAR(px[3], 2.0 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(px[3 + 6], px[3]);  // rows alike: one row of patches
}

TEST(ModelImage, OverlayBlendsTheColourMapOrBrightens) {
  model::RgbImage picture{1, 2, {100, 150, 200, 10, 20, 30}};
  std::vector<std::array<std::uint8_t, 3>> lut(256);
  for (std::size_t i = 0; i < 256; ++i)
    lut[i] = {static_cast<std::uint8_t>(i), 0, static_cast<std::uint8_t>(255 - i)};
  model::OverlayOptions o;
  o.lut = lut;
  o.opacity = 0.5;
  o.scale = 0.5;
  const std::vector<double> w{0.5, 0.25};  // 1 and 0.5 of the scale
  const model::RgbImage blended = model::overlay(picture, w, o);
  EXPECT_EQ(blended.rgb[0], std::lround(0.5 * 100 + 0.5 * 255));
  EXPECT_EQ(blended.rgb[2], std::lround(0.5 * 200 + 0.5 * 0));
  EXPECT_EQ(blended.rgb[3], std::lround(0.5 * 10 + 0.5 * 128));  // entry round(0.5 * 255)
  o.opacity = 0;
  EXPECT_EQ(model::overlay(picture, w, o).rgb, picture.rgb);
  o.style = model::OverlayStyle::brighten;
  const model::RgbImage bright = model::overlay(picture, w, o);
  EXPECT_EQ(bright.rgb[1], 150);
  EXPECT_EQ(bright.rgb[4], 10);
  o.opacity = 1.5;
  EXPECT_THROW((void)model::overlay(picture, w, o), InvalidInput);
}

TEST(ModelImage, DisplayImageStretchesTheTensorOrShowsThePicture) {
  const model::Model m = model::read_model(kModels / "vit_gray.json");
  const model::RgbImage shown = model::display_image(m.image, 0);
  ASSERT_EQ(shown.rgb.size(), 16U * 16 * 3);
  std::uint8_t lo = 255, hi = 0;
  for (std::size_t i = 0; i < shown.rgb.size(); i += 3) {
    EXPECT_EQ(shown.rgb[i], shown.rgb[i + 1]);  // one channel: grey
    lo = std::min(lo, shown.rgb[i]);
    hi = std::max(hi, shown.rgb[i]);
  }
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 255);
  const model::Model colour = model::read_model(kModels / "vit.json");
  const model::RgbImage picture = model::display_image(colour.image, 1);
  EXPECT_EQ(picture.rgb[5], colour.image.picture.value(16 * 16 * 3 + 5));
}

TEST(ModelImage, PatchPixelsAreThePixelsNearestUpsamplingGivesThePatch) {
  // Pictures the patches tile, and pictures they do not (a display picture of any size).
  for (const auto& [rows, cols, height, width] : std::vector<std::array<std::int64_t, 4>>{
           {4, 4, 32, 32}, {3, 5, 17, 23}, {2, 7, 100, 9}, {14, 14, 224, 224}, {4, 4, 3, 5}}) {
    model::ImageGrid g;
    g.rows = rows;
    g.cols = cols;
    g.prefix = {"[CLS]", "reg0"};
    std::vector<std::int64_t> owner(static_cast<std::size_t>(height * width), -1);
    for (std::int64_t p = 0; p < g.patches(); ++p) {
      const model::PixelRect r = model::patch_pixels(g, std::ssize(g.prefix) + p, height, width);
      std::vector<double> onehot(static_cast<std::size_t>(g.patches()), 0.0);
      onehot[static_cast<std::size_t>(p)] = 1.0;
      const std::vector<double> up =
          model::upsample(g, onehot, height, width, model::Upsampling::nearest);
      for (std::int64_t y = 0; y < height; ++y) {
        for (std::int64_t x = 0; x < width; ++x) {
          const bool inside = x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
          EXPECT_EQ(inside, up[static_cast<std::size_t>(y * width + x)] == 1.0)
              << rows << "x" << cols << " over " << height << "x" << width << ", patch " << p
              << ", pixel (" << y << ", " << x << ")";
        }
      }
    }
  }
  model::ImageGrid g;
  g.rows = g.cols = 2;
  g.prefix = {"[CLS]"};
  EXPECT_TRUE(model::patch_pixels(g, 0, 8, 8).empty());  // the class token has no patch
  EXPECT_TRUE(model::patch_pixels(g, 5, 8, 8).empty());  // past the patches
  EXPECT_EQ(model::patch_pixels(g, 4, 8, 8), (model::PixelRect{4, 4, 4, 4}));  // r1c1
}

TEST(ModelImage, PatchPicturesCutEachBatchElementsPicture) {
  const model::Model m = model::read_model(kModels / "vit.json");
  const model::PatchPictures pictures = model::patch_pictures(*m.index.image, m.image);
  ASSERT_EQ(pictures.pictures.size(), 2U);  // one per image
  EXPECT_EQ(pictures.grid.tokens(), 17);
  const model::RgbImage& second = pictures.pictures[1];
  EXPECT_EQ(second.rgb, model::display_image(m.image, 1).rgb);
  // Token 7 = r1c2: rows 4..7, columns 8..11 of the 16 x 16 picture.
  const model::RgbImage patch =
      model::crop(second, model::patch_pixels(pictures.grid, 7, second.height, second.width));
  ASSERT_EQ(patch.height, 4);
  ASSERT_EQ(patch.width, 4);
  for (std::int64_t y = 0; y < 4; ++y) {
    for (std::int64_t x = 0; x < 4; ++x) {
      for (std::int64_t c = 0; c < 3; ++c) {
        EXPECT_EQ(patch.rgb[static_cast<std::size_t>((y * 4 + x) * 3 + c)],
                  second.rgb[static_cast<std::size_t>(((4 + y) * 16 + 8 + x) * 3 + c)]);
      }
    }
  }
  EXPECT_EQ(model::crop(second, {14, 14, 8, 8}).width, 2);  // clipped to the picture
}

}  // namespace
}  // namespace mhaviz
