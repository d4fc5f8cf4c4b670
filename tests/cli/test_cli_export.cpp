// mhaviz-cli export writes real PNG, SVG and PDF files of the heatmap grid.

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>

#include "cli_process.hpp"
#include "mhaviz/core/io/npz.hpp"

namespace mhaviz::cli::test {
namespace {

std::uint32_t bigEndian32(const std::string& s, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(s.at(at + i));
  return v;
}

class Export : public ::testing::Test {
 protected:
  void SetUp() override {
    io::write_npz(dir.file("t.npz"), fixtureInputs("bias_kv_and_zero_attn"));
  }
  ProcessResult exportTo(const std::string& image, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {
        "export",       "--config",        fixture("bias_kv_and_zero_attn.json"),
        "--tensors",    dir.file("t.npz"), "--image",
        dir.file(image)};
    args.insert(args.end(), extra.begin(), extra.end());
    return runCli(args);
  }
  ScratchDir dir;
};

TEST_F(Export, PngHasRequestedPixelSize) {
  ProcessResult r = exportTo("a.png");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::string png = readText(dir.file("a.png"));
  ASSERT_GT(png.size(), 1000U);
  ASSERT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  ASSERT_EQ(png.substr(12, 4), "IHDR");
  EXPECT_EQ(bigEndian32(png, 16), 1600U);
  EXPECT_EQ(bigEndian32(png, 20), 1000U);

  // 800x500 logical pixels at scale 2: 1600x1000 device pixels.
  r = exportTo("b.png", {"--width", "800", "--height", "500", "--dpi-scale", "2", "--stage",
                         "scores", "--heads", "1", "--colormap", "magma", "--no-average",
                         "--per-head-scale", "--auto-range", "--transparent"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  png = readText(dir.file("b.png"));
  ASSERT_EQ(png.substr(12, 4), "IHDR");
  EXPECT_EQ(bigEndian32(png, 16), 1600U);
  EXPECT_EQ(bigEndian32(png, 20), 1000U);
}

TEST_F(Export, SvgShowsTheHeadsAndExtraColumns) {
  const ProcessResult r = exportTo("a.svg");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string svg = readText(dir.file("a.svg"));
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  for (const char* text : {"head 0", "head 1", "bias_k", "zero"}) {
    EXPECT_NE(svg.find(text), std::string::npos) << text;
  }
}

TEST_F(Export, Pdf) {
  const ProcessResult r = exportTo("a.pdf", {"--stage", "k", "--colormap", "grayscale"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string pdf = readText(dir.file("a.pdf"));
  EXPECT_EQ(pdf.substr(0, 5), "%PDF-");
  EXPECT_NE(pdf.find("%%EOF"), std::string::npos);
}


// --view head: the head view (a line per query, key and head), the same picture as the
// window's; SVG text stays text, the appended keys are labelled.
TEST_F(Export, HeadViewPngAndSvg) {
  ProcessResult r = exportTo("head.png", {"--view", "head", "--width", "900", "--height", "600"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  const std::string png = readText(dir.file("head.png"));
  ASSERT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(bigEndian32(png, 16), 900U);
  r = exportTo("head.svg", {"--view", "head", "--heads", "0,1", "--coverage", "0.9", "--query",
                            "2"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string svg = readText(dir.file("head.svg"));
  for (const char* text : {"bias_k", "zero", "head view", "coverage 90 %"}) {
    EXPECT_NE(svg.find(text), std::string::npos) << text;
  }
  EXPECT_NE(svg.find("<polyline"), std::string::npos);  // the lines
}

TEST_F(Export, HeadViewRefusesBadOptions) {
  struct Case {
    std::vector<std::string> args;
    const char* says;
  };
  const std::vector<Case> cases = {
      {{"--view", "head", "--coverage", "0"}, "--coverage \"0\" must be a share above 0"},
      {{"--view", "head", "--coverage", "1.5"}, "--coverage \"1.5\""},
      {{"--view", "head", "--query", "99"}, "--query \"99\" must be a query index from 0 to"},
      {{"--view", "head", "--heads", "0,7"}, "--heads 7: the configuration has num_heads="},
  };
  for (const Case& c : cases) {
    const ProcessResult r = exportTo("bad.png", c.args);
    EXPECT_EQ(r.exitCode, 1) << c.says << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("bad.png")));
  }
  // Usage errors (exit 2, as a --stage that is not one): a view that is not one, and a head view
  // option without --view head.
  const ProcessResult view = exportTo("bad.png", {"--view", "heads"});
  EXPECT_EQ(view.exitCode, 2) << view.err;
  EXPECT_NE(view.err.find("--view \"heads\" is not a view: use grid"), std::string::npos)
      << view.err;
  const ProcessResult r = exportTo("bad.png", {"--coverage", "0.5"});
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("--coverage belongs to the head view; add --view head"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace mhaviz::cli::test
