// mhaviz-cli export writes real PNG, SVG and PDF files of the heatmap grid.

#include <gtest/gtest.h>

#include <cstdint>

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

}  // namespace
}  // namespace mhaviz::cli::test
