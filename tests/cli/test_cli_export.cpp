// mhaviz-cli export writes real PNG, SVG and PDF files of the heatmap grid, the head view and
// the text view.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_process.hpp"
#include "mhaviz/core/io/npz.hpp"

namespace mhaviz::cli::test {
namespace {

// What the <text> elements of an SVG say (QSvgGenerator writes `<text ...\n >what</text>`):
// text drawn as text, not the document's <title>.
std::vector<std::string> svgTexts(const std::string& svg) {
  std::vector<std::string> out;
  for (std::size_t at = svg.find("<text"); at != std::string::npos; at = svg.find("<text", at)) {
    const std::size_t open = svg.find('>', at);
    const std::size_t close = svg.find("</text>", open);
    if (open == std::string::npos || close == std::string::npos) break;
    out.push_back(svg.substr(open + 1, close - open - 1));
    at = close;
  }
  return out;
}

bool anyTextHas(const std::vector<std::string>& texts, const std::string& what) {
  return std::any_of(texts.begin(), texts.end(),
                     [&](const std::string& t) { return t.find(what) != std::string::npos; });
}

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
  // Text stays text: the labels and the title are <text> elements (the document's <title>
  // alone would not do).
  const std::vector<std::string> texts = svgTexts(svg);
  for (const char* text : {"bias_k", "zero", "head view", "coverage 90 %", "query", "key"}) {
    EXPECT_TRUE(anyTextHas(texts, text)) << text;
  }
  EXPECT_TRUE(std::find(texts.begin(), texts.end(), "bias_k") != texts.end());
  EXPECT_NE(svg.find("<polyline"), std::string::npos);  // the lines
}

// --view text: the text view (the keys as running text shaded by one query's weights, the
// bias_k / zero chips with their weights); SVG text stays text.
TEST_F(Export, TextViewPngAndSvg) {
  ProcessResult r = exportTo("text.png", {"--view", "text", "--width", "700"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string png = readText(dir.file("text.png"));
  ASSERT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(bigEndian32(png, 16), 700U);
  EXPECT_LT(bigEndian32(png, 20), 400U);  // as tall as its text
  r = exportTo("text.svg", {"--view", "text", "--heads", "1", "--query", "2",
                            "--query-labels", "a,b,c,d", "--key-labels", "k0,k1,k2,k3,k4"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::vector<std::string> texts = svgTexts(readText(dir.file("text.svg")));
  for (const char* text : {"k0", "k4", "bias_k 0.", "zero 0.", "text view", "head 1",
                           "query 2 &quot;c&quot;"}) {  // quotes escaped
    EXPECT_TRUE(anyTextHas(texts, text)) << text;
  }
  // L = 4 queries, S = 5 keys: cross-attention, the queries as a text of their own.
  EXPECT_TRUE(std::find(texts.begin(), texts.end(), "a") != texts.end());
}

// Token labels of the wrong count are refused (exit 1) naming the option and the count needed.
TEST_F(Export, LabelsOfTheWrongCountAreRefused) {
  for (const char* view : {"grid", "head", "text"}) {
    ProcessResult r = exportTo("bad.png", {"--view", view, "--query-labels", "a,b,c"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("--query-labels has 3 label(s), but tgt_len (L) = 4 needs 4"),
              std::string::npos)
        << r.err;
    r = exportTo("bad.png", {"--view", view, "--key-labels", "a,b,c,d,e,f"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("--key-labels has 6 label(s), but src_len (S) = 5 needs 5"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("bad.png")));
  }
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
      {{"--view", "text", "--query", "4"}, "--query \"4\" must be a query index from 0 to 3"},
      {{"--view", "text", "--heads", "2"}, "--heads 2: the configuration has num_heads=2"},
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
  const ProcessResult text = exportTo("bad.png", {"--view", "text", "--coverage", "0.5"});
  EXPECT_EQ(text.exitCode, 2) << text.err;
  const ProcessResult query = exportTo("bad.png", {"--query", "1"});
  EXPECT_EQ(query.exitCode, 2) << query.err;
  EXPECT_NE(query.err.find("--query belongs to the head view and the text view"),
            std::string::npos)
      << query.err;
}

}  // namespace
}  // namespace mhaviz::cli::test
