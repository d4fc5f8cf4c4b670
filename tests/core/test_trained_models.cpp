// The small trained models bundled under resources/examples/models
// (tests/fixtures/make_trained_models.py): each caption names a head and what it looks at; these
// tests recompute the model with mhaviz and check the promise numerically.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "mhaviz/core/model/image_overlay.hpp"
#include "mhaviz/core/model/model.hpp"

namespace mhaviz {
namespace {

const std::filesystem::path kExamples = std::filesystem::path(MHAVIZ_EXAMPLES_DIR) / "models";

struct Promise {
  std::int64_t layer = -1;
  std::int64_t head = -1;
};

/// "layer 1 head 3" in the caption.
Promise promised(const model::Model& m) {
  std::smatch match;
  const std::regex pattern("layer ([0-9]+) head ([0-9]+)");
  if (!std::regex_search(m.index.caption, match, pattern)) return {};
  return {std::stoll(match[1]), std::stoll(match[2])};
}

/// Mean weight of (layer, head), batch element 0, over the (query, key) pairs.
double mean_weight(const model::ComputedModel& c, Promise p,
                   const std::vector<std::pair<std::int64_t, std::int64_t>>& pairs) {
  const Tensor& w = c.weights.at(static_cast<std::size_t>(p.layer));
  const std::int64_t H = w.size(1), L = w.size(2), Sx = w.size(3);
  double sum = 0;
  for (const auto& [q, k] : pairs) sum += w.value(((0 * H + p.head) * L + q) * Sx + k);
  return sum / static_cast<double>(pairs.size());
}

TEST(TrainedModels, ReversalHeadLooksAtTheMirroredPosition) {
  const model::Model m = model::read_model(kExamples / "reverse.json");
  const model::ComputedModel c = model::compute_model(m);
  EXPECT_EQ(c.disagreeing(), 0U);
  const Promise p = promised(m);
  ASSERT_GE(p.layer, 0) << "caption names no head: " << m.index.caption;
  EXPECT_NE(m.index.caption.find("mirrored position"), std::string::npos);
  const std::int64_t L = m.layers.front().info.config.tgt_len;
  std::vector<std::pair<std::int64_t, std::int64_t>> mirrored;
  for (std::int64_t q = 0; q < L; ++q) mirrored.emplace_back(q, L - 1 - q);
  EXPECT_GT(mean_weight(c, p, mirrored), 0.5);
  EXPECT_EQ(m.layers.front().info.config.key_labels.size(), static_cast<std::size_t>(L));
}

TEST(TrainedModels, CopyHeadLooksAfterThePreviousOccurrence) {
  const model::Model m = model::read_model(kExamples / "copy.json");
  const model::ComputedModel c = model::compute_model(m);
  EXPECT_EQ(c.disagreeing(), 0U);
  const Promise p = promised(m);
  ASSERT_GE(p.layer, 0) << "caption names no head: " << m.index.caption;
  EXPECT_NE(m.index.caption.find("copy head"), std::string::npos);
  const std::int64_t half = m.layers.front().info.config.tgt_len / 2;
  std::vector<std::pair<std::int64_t, std::int64_t>> next;  // query half+j -> key j+1
  for (std::int64_t j = 0; j + 1 < half; ++j) next.emplace_back(half + j, j + 1);
  EXPECT_GT(mean_weight(c, p, next), 0.5);
}

// The generating decoder (capture_generation(), a KV cache): it repeats its prompt, and at every
// step the caption's head gives the newest position's weight to the token after the previous
// occurrence of the newest token, which is the token the step generates.
TEST(TrainedModels, GeneratingHeadLooksAtTheTokenItCopies) {
  const model::Model m = model::read_model(kExamples / "generate.json");
  const model::ComputedModel c = model::compute_model(m);
  EXPECT_EQ(c.disagreeing(), 0U);
  for (const model::LayerCheck& check : c.checks) EXPECT_TRUE(check.weights_diff.has_value());
  const Promise p = promised(m);
  ASSERT_GE(p.layer, 0) << "caption names no head: " << m.index.caption;
  ASSERT_GT(m.index.steps, 1);
  const std::int64_t length = m.layers.front().info.config.src_len - 1;  // the prompt: 1 + half
  double sum = 0;
  for (std::int64_t t = 0; t < m.index.steps; ++t) {
    const model::StepRows rows = model::step_rows(m, c.weights, t);
    EXPECT_EQ(rows.position, length + t);
    if (t > 0) {
      EXPECT_EQ(m.layers[rows.layers.front().layer].info.config.tgt_len, 1);
    }
    const model::StepRows::Layer& row = rows.layers.at(static_cast<std::size_t>(p.layer));
    sum += row.weights.at(static_cast<std::size_t>(p.head * row.columns + t + 1));
    // It copies: the token generated is the one after the previous occurrence.
    const auto token = [](const std::string& label) { return label.substr(0, label.find('@')); };
    EXPECT_EQ(token(rows.generated), token(m.index.tokens.at(static_cast<std::size_t>(t + 1))));
  }
  EXPECT_GT(sum / static_cast<double>(m.index.steps), 0.5);
}

// The vision transformer (torchvision's VisionTransformer, tests/fixtures/make_trained_vision.py)
// names the colour of the small square of two on a grey background. Its caption names a layer
// and, per colour, the head whose class token looks at a small square of that colour. The test
// finds the small square in each stored image itself (the coloured pixels fewer in number), names
// its colour (the script's palette), and the caption's head for that colour must give it most of
// the class token's weight, summed over the patches the square touches.
TEST(TrainedModels, VisionHeadFindsTheSmallSquare) {
  const model::Model m = model::read_model(kExamples / "squares.json");
  const model::ComputedModel c = model::compute_model(m);
  EXPECT_EQ(c.disagreeing(), 0U);
  ASSERT_TRUE(m.index.image);
  const model::ImageGrid& g = *m.index.image;
  std::smatch match;
  ASSERT_TRUE(std::regex_search(m.index.caption, match, std::regex("^layer ([0-9]+):")))
      << m.index.caption;
  const auto layer = static_cast<std::size_t>(std::stoll(match[1]));
  // make_trained_vision.py's COLOURS and NAMES
  const std::vector<std::pair<std::string, std::array<float, 3>>> palette = {
      {"red", {0.9F, 0.15F, 0.1F}},
      {"green", {0.1F, 0.75F, 0.2F}},
      {"blue", {0.15F, 0.3F, 0.95F}},
      {"yellow", {0.95F, 0.85F, 0.1F}}};
  std::map<std::string, std::int64_t> head_of;
  const std::regex per_colour("(red|green|blue|yellow): head ([0-9]+)");
  for (auto it = std::sregex_iterator(m.index.caption.begin(), m.index.caption.end(), per_colour);
       it != std::sregex_iterator(); ++it)
    head_of[(*it)[1]] = std::stoll((*it)[2]);
  ASSERT_EQ(head_of.size(), palette.size()) << m.index.caption;
  const Tensor& image = m.image.input.to(ElemType::f32);  // (N, 3, H, W)
  const auto pixels = image.data<float>();
  const std::int64_t n = image.size(0), h = g.height, w = g.width;
  for (std::int64_t b = 0; b < n; ++b) {
    std::map<std::string, std::vector<std::int64_t>> squares;  // colour name -> its pixels
    for (std::int64_t i = 0; i < h * w; ++i) {
      std::array<float, 3> rgb{};
      for (std::size_t ch = 0; ch < 3; ++ch)
        rgb[ch] =
            pixels[static_cast<std::size_t>((b * 3 + static_cast<std::int64_t>(ch)) * h * w + i)];
      for (const auto& [name, colour] : palette)
        if (rgb == colour) squares[name].push_back(i);
    }
    ASSERT_EQ(squares.size(), 2U) << "image " << b << " holds two coloured squares";
    const auto small = std::min_element(
        squares.begin(), squares.end(),
        [](const auto& x, const auto& y) { return x.second.size() < y.second.size(); });
    std::set<std::int64_t> patches;
    for (const std::int64_t i : small->second)
      patches.insert(g.token((i / w) / g.patch_height, (i % w) / g.patch_width));
    const std::int64_t head = head_of.at(small->first);
    const model::PatchWeights weights =
        model::head_patch_weights(g, c.weights.at(layer), head, 0, b);
    double inside = 0;
    for (const std::int64_t t : patches) inside += weights.grid.at(static_cast<std::size_t>(t - 1));
    EXPECT_GT(inside, 0.5) << "image " << b << ": the " << small->first << " square, head " << head;
  }
}

}  // namespace
}  // namespace mhaviz
