// mhaviz-cli model against the whole-model fixtures of tests/fixtures/make_model_fixtures.py:
// --check, --stats, --rollout, --flow and the pictures (--image, with --rollout or --flow).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <QImage>
#include <QSet>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "cli_process.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/model/model.hpp"

namespace mhaviz::cli::test {
namespace {

std::string model(const std::string& name) {
  return (std::filesystem::path(MHAVIZ_FIXTURE_DIR) / "models" / (name + ".json")).string();
}

int colours(const QImage& image) {
  QSet<QRgb> seen;
  for (int y = 0; y < image.height(); y += 2) {
    for (int x = 0; x < image.width(); x += 2) seen.insert(image.pixel(x, y));
  }
  return static_cast<int>(seen.size());
}

TEST(ModelCommand, CheckPrintsEveryLayerAndPasses) {
  const ProcessResult r = runCli({"model", "--model", model("encoder"), "--check"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (int i = 0; i < 4; ++i) {
    EXPECT_NE(r.out.find("layer " + std::to_string(i) + " (layers." + std::to_string(i) +
                         ".self_attn): attn_output "),
              std::string::npos)
        << r.out;
  }
  EXPECT_NE(r.out.find("all 4 layers match PyTorch within 0.0001"), std::string::npos) << r.out;
}

// --stats: each layer's sink rate and the overall one equal NumPy's (<name>.sinks.npz, from
// make_measure_fixtures.py), at the default threshold and another.
TEST(ModelCommand, StatsPrintsTheSinkRatesOfNumPy) {
  for (const std::string name : {"decoder", "encoder"}) {
    const io::TensorMap want =
        io::read_npz(std::filesystem::path(MHAVIZ_FIXTURE_DIR) / "models" / (name + ".sinks.npz"));
    for (const std::string eps : {"0.3", "0.1"}) {
      SCOPED_TRACE(name + " eps " + eps);
      std::vector<std::string> args = {"model", "--model", model(name), "--stats"};
      if (eps != "0.3") args.insert(args.end(), {"--sink-eps", eps});
      const ProcessResult r = runCli(args);
      ASSERT_EQ(r.exitCode, 0) << r.err;
      const Tensor& rate = want.at("rate." + eps);
      std::vector<double> got;
      for (std::size_t at = r.out.find("sink rate "); at != std::string::npos;
           at = r.out.find("sink rate ", at + 1)) {
        const std::string rest = r.out.substr(at + 10);
        if (rest.rfind("(Gu", 0) == 0) continue;  // the heading
        got.push_back(std::stod(rest));
      }
      ASSERT_EQ(static_cast<std::int64_t>(got.size()), rate.numel()) << r.out;
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_NEAR(got[i], rate.value(static_cast<std::int64_t>(i)), 1e-3) << r.out;
      }
      EXPECT_NE(r.out.find("overall sink rate"), std::string::npos) << r.out;
    }
  }
}

TEST(ModelCommand, CheckOfTheDecoderShowsWeightsWhereStored) {
  const ProcessResult r = runCli({"model", "--model", model("decoder"), "--check"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("layer 1 (layers.0.multihead_attn): attn_output"), std::string::npos);
  EXPECT_NE(r.out.find("all 4 layers match PyTorch"), std::string::npos) << r.out;
}

TEST(ModelCommand, CheckFailsWhenAStoredOutputDisagrees) {
  const ScratchDir dir;
  io::TensorMap t =
      io::read_npz(std::filesystem::path(MHAVIZ_FIXTURE_DIR) / "models" / "encoder.npz");
  t["2/attn_output"].data<float>()[0] += 0.25F;
  io::write_npz(dir.file("encoder.npz"), t);
  std::filesystem::copy_file(model("encoder"), dir.file("encoder.json"));
  const ProcessResult r = runCli({"model", "--model", dir.file("encoder.json"), "--check"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.out.find("layer 2 (layers.2.self_attn): attn_output 0.25"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("ABOVE TOLERANCE"), std::string::npos);
  EXPECT_NE(r.err.find("1 layer(s)"), std::string::npos) << r.err;
  // A looser tolerance accepts it.
  EXPECT_EQ(runCli({"model", "--model", dir.file("encoder.json"), "--check", "--tolerance", "0.3"})
                .exitCode,
            0);
}

// A capture under PyTorch 2.x records the path PyTorch took ("torch_path" in the layer's
// configuration); a layer whose configuration leads mhaviz to another path fails the check,
// whatever the numbers say.
TEST(ModelCommand, CheckFailsWhenALayerWouldTakeAnotherPath) {
  const ScratchDir dir;
  std::filesystem::copy_file(
      std::filesystem::path(MHAVIZ_FIXTURE_DIR) / "models" / "encoder.npz", dir.file("encoder.npz"));
  nlohmann::json index = nlohmann::json::parse(readText(model("encoder")));
  index["layers"][1]["config"]["torch_path"] = "fast";  // eval, but grad enabled: the SDPA path
  index["layers"][2]["config"]["torch_path"] = "sdpa";  // what mhaviz decides too
  std::ofstream(dir.file("encoder.json")) << index.dump(1);
  const ProcessResult r = runCli({"model", "--model", dir.file("encoder.json"), "--check"});
  EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("layer 1 (layers.1.self_attn): attn_output"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PyTorch took its fast path, mhaviz computed the sdpa path  OTHER PATH"),
            std::string::npos)
      << r.out;
  const auto layer2 = r.out.find("layer 2 (layers.2.self_attn)");
  ASSERT_NE(layer2, std::string::npos);
  EXPECT_EQ(r.out.substr(r.out.find('\n', layer2) - 4, 4), "  ok") << r.out;
  EXPECT_NE(r.err.find("1 layer(s)"), std::string::npos) << r.err;
}

TEST(ModelCommand, RolloutPrintsPerTokenAndExtraShare) {
  const ProcessResult r = runCli({"model", "--model", model("extras"), "--rollout"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("rollout over layers 0 1 (batch element 0); per input token:"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("weight on appended bias_k/zero columns per layer:"), std::string::npos);
}

// --flow prints each input token's mean share of the normalised flow: the column means of
// tests/fixtures/flow/encoder.npz (Edmonds-Karp in make_flow_fixtures.py), batch element 1.
TEST(ModelCommand, FlowPrintsThePerTokenShareOfTheReference) {
  const ProcessResult r = runCli({"model", "--model", model("encoder"), "--flow", "--batch", "1"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string head = "attention flow (36 maximum flows over ";
  ASSERT_NE(r.out.find(head), std::string::npos) << r.out;
  const std::string per = "over layers 0 1 2 3 (batch element 1); per input token:";
  const std::size_t at = r.out.find(per);
  ASSERT_NE(at, std::string::npos) << r.out;
  std::istringstream values(r.out.substr(at + per.size()));
  const Tensor map =
      io::read_npz(std::filesystem::path(MHAVIZ_FIXTURE_DIR) / "flow" / "encoder.npz").at("map");
  for (std::int64_t k = 0; k < 6; ++k) {
    double want = 0;
    for (std::int64_t q = 0; q < 6; ++q) want += map.value(36 + q * 6 + k) / 6;
    double got = -1;
    values >> got;
    EXPECT_NEAR(got, want, 1e-3) << r.out;
  }
  EXPECT_NE(r.out.find("weight on appended bias_k/zero columns per layer: 0 0 0 0"),
            std::string::npos)
      << r.out;
}

TEST(ModelCommand, DrawsTheGridAndTheRollout) {
  const ScratchDir dir;
  ProcessResult r = runCli({"model", "--model", model("encoder"), "--image", dir.file("g.png"),
                            "--width", "800", "--height", "600"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  QImage grid(QString::fromStdString(dir.file("g.png")));
  ASSERT_FALSE(grid.isNull());
  EXPECT_EQ(grid.size(), QSize(800, 600));
  EXPECT_GT(colours(grid), 50);  // 4 x 4 maps of weights, not a blank page

  r = runCli({"model", "--model", model("encoder"), "--image", dir.file("r.png"), "--rollout"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const QImage rollout(QString::fromStdString(dir.file("r.png")));
  ASSERT_FALSE(rollout.isNull());
  EXPECT_EQ(rollout.size(), QSize(1600, 1000));
  EXPECT_GT(colours(rollout), 20);

  r = runCli({"model", "--model", model("encoder"), "--image", dir.file("f.png"), "--flow"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const QImage flow(QString::fromStdString(dir.file("f.png")));
  ASSERT_FALSE(flow.isNull());
  EXPECT_GT(colours(flow), 20);
  EXPECT_NE(flow, rollout);

  r = runCli({"model", "--model", model("encoder"), "--image", dir.file("x.png"), "--flow",
              "--rollout"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("give --rollout or --flow, not both"), std::string::npos) << r.err;
}

TEST(ModelCommand, BatchOutOfRange) {
  const ProcessResult r =
      runCli({"model", "--model", model("encoder"), "--rollout", "--batch", "2"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("--batch 2: the model's inputs have 2 batch elements (0 to 1)"),
            std::string::npos)
      << r.err;
}

// --view serves the layer views (grid, head, text) and a vision transformer's image view; --layer,
// --head and --query belong to either, --coverage to the head view, --opacity to the image view.
TEST(ModelCommand, ViewIsOneOptionForTheLayerViewsAndTheImageView) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "mhaviz_cli_views";
  std::filesystem::create_directories(dir);
  const std::string vit = model("vit");
  const ProcessResult unknown =
      runCli({"model", "--model", vit, "--view", "map", "--image", (dir / "m.png").string()});
  EXPECT_EQ(unknown.exitCode, 2);
  EXPECT_NE(unknown.err.find("--view \"map\" is not a view of model: use grid, head or text "
                             "(one layer), or image"),
            std::string::npos)
      << unknown.err;
  const ProcessResult layerAlone = runCli({"model", "--model", vit, "--layer", "1"});
  EXPECT_EQ(layerAlone.exitCode, 2);
  EXPECT_NE(layerAlone.err.find("--layer belongs to --view; add --view grid|head|text|image"),
            std::string::npos)
      << layerAlone.err;
  const ProcessResult coverage = runCli({"model", "--model", vit, "--view", "image", "--coverage",
                                         "0.5", "--image", (dir / "c.png").string()});
  EXPECT_EQ(coverage.exitCode, 2);
  EXPECT_NE(coverage.err.find("--coverage belongs to --view head"), std::string::npos)
      << coverage.err;
  const ProcessResult opacity = runCli({"model", "--model", vit, "--layer", "0", "--view", "grid",
                                        "--opacity", "0.5", "--image", (dir / "o.png").string()});
  EXPECT_EQ(opacity.exitCode, 2);
  EXPECT_NE(opacity.err.find("--opacity belongs to the image view; add --view image"),
            std::string::npos)
      << opacity.err;
  // The same options draw both: layer 1's head view and its image view, query and head given.
  const ProcessResult head =
      runCli({"model", "--model", vit, "--layer", "1", "--view", "head", "--query", "2",
              "--image", (dir / "head.svg").string()});
  ASSERT_EQ(head.exitCode, 0) << head.err;
  EXPECT_TRUE(std::filesystem::is_regular_file(dir / "head.svg"));
  const ProcessResult image =
      runCli({"model", "--model", vit, "--layer", "1", "--view", "image", "--query", "r0c1",
              "--head", "mean", "--image", (dir / "image.png").string()});
  ASSERT_EQ(image.exitCode, 0) << image.err;
  EXPECT_NE(image.out.find("query r0c1"), std::string::npos) << image.out;
  EXPECT_FALSE(QImage(QString::fromStdString((dir / "image.png").string())).isNull());
  std::filesystem::remove_all(dir);
}

// --weights: the encoder fixture's recomputed weights as plain arrays give the model file's sink
// rates; --layer --view draws one layer's head view and text view with the tokens as SVG text;
// --kv-heads labels the grouped heads in the grid's SVG.
TEST(ModelCommand, PlainWeightsGiveTheModelsSinkRatesAndPictures) {
  const ScratchDir dir;
  const model::Model m = model::read_model(model("encoder"));
  const model::ComputedModel computed = model::compute_model(m);
  io::TensorMap arrays;
  for (std::size_t i = 0; i < computed.weights.size(); ++i)
    arrays.emplace("attentions." + std::to_string(i), computed.weights[i]);
  io::write_npz(dir.file("w.npz"), arrays);
  const auto sinkLines = [](const std::string& out) {
    std::vector<std::string> lines;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
      const auto at = line.find("): sink rate ");
      if (at != std::string::npos) lines.push_back(line.substr(at));
    }
    return lines;
  };
  const ProcessResult captured = runCli({"model", "--model", model("encoder"), "--stats"});
  const ProcessResult stored = runCli({"model", "--weights", dir.file("w.npz"), "--stats"});
  ASSERT_EQ(stored.exitCode, 0) << stored.err;
  EXPECT_EQ(sinkLines(stored.out), sinkLines(captured.out));
  EXPECT_EQ(sinkLines(stored.out).size(), 4U);
  EXPECT_NE(stored.out.find("attentions.3): entropy "), std::string::npos) << stored.out;

  const std::int64_t L = computed.weights[0].size(2);
  std::string tokens;
  for (std::int64_t i = 0; i < L; ++i) tokens += "tok" + std::to_string(i) + "\n";
  {
    std::ofstream(dir.file("t.txt")) << tokens;
  }
  for (const std::string view : {"head", "text"}) {
    const std::string image = dir.file(view + ".svg");
    const ProcessResult r = runCli({"model", "--weights", dir.file("w.npz"), "--tokens",
                                    dir.file("t.txt"), "--layer", "2", "--view", view,
                                    "--image", image});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::ifstream in(image);
    const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::int64_t i = 0; i < L; ++i) {
      EXPECT_NE(svg.find(">tok" + std::to_string(i) + "<"), std::string::npos) << view << " " << i;
    }
  }
  const ProcessResult grid = runCli({"model", "--weights", dir.file("w.npz"), "--kv-heads", "2",
                                     "--image", dir.file("grid.svg")});
  ASSERT_EQ(grid.exitCode, 0) << grid.err;
  std::ifstream in(dir.file("grid.svg"));
  const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(svg.find(">head 3 \u00b7 kv 1<"), std::string::npos);
  EXPECT_NE(svg.find("stored weights (weights-only file)"), std::string::npos);
}

// --compare-with: a weights-only model file compared with plain arrays read with the same
// --tokens prints each layer's and head's largest |B - A| and where the largest is, a note where
// the tokens differ, and refuses arrays of another length naming what differs and the fix.
// Plain arrays given to --model (which reads a model index) are refused with the option that
// reads them (it was a JSON parse error).
TEST(ModelCommand, AnArchiveGivenAsAModelNamesWeights) {
  const ScratchDir dir;
  io::write_npz(dir.file("w.npz"),
                {{"attentions.0", Tensor::from({1, 1, 2, 2}, std::vector<float>(4, 0.5F))}});
  const ProcessResult r = runCli({"model", "--model", dir.file("w.npz"), "--stats"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--model takes a model index (.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("give --weights " + dir.file("w.npz")), std::string::npos) << r.err;
  const ProcessResult ok = runCli({"model", "--weights", dir.file("w.npz"), "--stats"});
  EXPECT_EQ(ok.exitCode, 0) << ok.err;
}

TEST(ModelCommand, CompareWithNamesTheLargestDifferenceNotesAndMismatches) {
  const ScratchDir dir;
  const auto thirds = [](const Shape& shape) {
    return Tensor::from(shape, std::vector<float>(static_cast<std::size_t>(numel(shape)),
                                                  1.0F / static_cast<float>(shape.back())));
  };
  Tensor changed = thirds({1, 2, 3, 3});
  changed.data<float>()[9 + 3 + 0] = 0.5F;  // layer 1, head 1, query 1: 0.5 0.1667 0.3333
  changed.data<float>()[9 + 3 + 1] = 1.0F / 6.0F;
  io::write_npz(dir.file("a.npz"), {{"attentions.0", thirds({1, 2, 3, 3})},
                                    {"attentions.1", thirds({1, 2, 3, 3})}});
  io::write_npz(dir.file("b.npz"), {{"0/weights", thirds({1, 2, 3, 3})}, {"1/weights", changed}});
  {
    std::ofstream(dir.file("b.json"))
        << R"({"format": "mhaviz-model", "version": 4, "tensors": "b.npz",
               "tokens": ["the", "dog", "sat"],
               "layers": [{"name": "attentions.0", "shape": [1, 2, 3, 3]},
                          {"name": "attentions.1", "shape": [1, 2, 3, 3]}]})";
    std::ofstream(dir.file("t.txt")) << "the\ncat\nsat\n";
  }
  const ProcessResult r = runCli({"model", "--model", dir.file("b.json"), "--compare-with",
                                  dir.file("a.npz"), "--tokens", dir.file("t.txt")});
  // --tokens belongs to --weights: with --model it is refused, so A is read without them.
  EXPECT_NE(r.exitCode, 0);
  const ProcessResult c =
      runCli({"model", "--model", dir.file("b.json"), "--compare-with", dir.file("a.npz")});
  ASSERT_EQ(c.exitCode, 0) << c.err;
  EXPECT_NE(c.out.find("largest difference 0.167 at layer 1 (attentions.1), head 1"),
            std::string::npos)
      << c.out;
  EXPECT_NE(c.out.find("note: A has no tokens (its positions are numbered) and B has 3"),
            std::string::npos)
      << c.out;
  // B read as plain arrays with other tokens, A the model file: the tokens that differ.
  io::write_npz(dir.file("b2.npz"), {{"attentions.0", thirds({1, 2, 3, 3})}, {"attentions.1", changed}});
  const ProcessResult n = runCli({"model", "--weights", dir.file("b2.npz"), "--tokens",
                                  dir.file("t.txt"), "--compare-with", dir.file("b.json")});
  ASSERT_EQ(n.exitCode, 0) << n.err;
  EXPECT_NE(n.out.find("note: the tokens differ at 1 of 3 positions (first at position 1: "
                       "\"dog\" in A, \"cat\" in B); the maps are compared position by position"),
            std::string::npos)
      << n.out;
  EXPECT_NE(n.out.find("largest difference 0 at"), std::string::npos) << n.out;
  // Another length: refused with what differs and the fix.
  io::write_npz(dir.file("c.npz"), {{"attentions.0", thirds({1, 2, 4, 4})},
                                    {"attentions.1", thirds({1, 2, 4, 4})}});
  const ProcessResult m =
      runCli({"model", "--model", dir.file("b.json"), "--compare-with", dir.file("c.npz")});
  EXPECT_EQ(m.exitCode, 1);
  for (const char* part : {"--compare-with", "layer 0 (attentions.0) has shape (1, 2, 4, 4)",
                           "the inputs differ in length (A: 4 queries and 4 keys, B: 3 queries "
                           "and 3 keys)",
                           "compare two inputs of one length"}) {
    EXPECT_NE(m.err.find(part), std::string::npos) << part << "\n" << m.err;
  }
}

}  // namespace
}  // namespace mhaviz::cli::test
