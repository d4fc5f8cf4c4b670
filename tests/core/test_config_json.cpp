// The configuration file: defaults, round trip, and the messages for bad files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "mhaviz/core/io/suggest.hpp"
#include "test_util.hpp"

namespace fs = std::filesystem;
using mhaviz::Config;
using mhaviz::DType;
using mhaviz::InvalidInput;
using mhaviz::io::parse_config_json;

using mhaviz::test::expect_invalid;

namespace {

void expect_config_error(const std::string& text, const std::vector<std::string>& parts) {
  expect_invalid([&] { parse_config_json(text, "config.json"); }, parts);
}

}  // namespace

TEST(ConfigJson, EmptyObjectGivesPyTorchDefaults) {
  EXPECT_EQ(parse_config_json("{}", "config.json"), Config{});
  EXPECT_EQ(parse_config_json("  {\n}\n", "config.json"), Config{});
}

TEST(ConfigJson, EveryKeyIsRead) {
  const Config c = parse_config_json(R"({
    "embed_dim": 12, "num_heads": 3, "dropout": 0.25, "bias": false, "add_bias_kv": true,
    "add_zero_attn": true, "kdim": 5, "vdim": null, "batch_first": true, "need_weights": false,
    "average_attn_weights": false, "is_causal": true, "training": true, "dtype": "float64",
    "batch_size": null, "tgt_len": 4, "src_len": 6, "seed": 18446744073709551615,
    "input_seed": 7, "dropout_seed": null})",
                                     "config.json");
  EXPECT_EQ(c.embed_dim, 12);
  EXPECT_EQ(c.num_heads, 3);
  EXPECT_EQ(c.dropout, 0.25);
  EXPECT_FALSE(c.bias);
  EXPECT_TRUE(c.add_bias_kv);
  EXPECT_TRUE(c.add_zero_attn);
  EXPECT_EQ(c.kdim, 5);
  EXPECT_EQ(c.vdim, std::nullopt);
  EXPECT_TRUE(c.batch_first);
  EXPECT_FALSE(c.need_weights);
  EXPECT_FALSE(c.average_attn_weights);
  EXPECT_TRUE(c.is_causal);
  EXPECT_TRUE(c.training);
  EXPECT_EQ(c.dtype, DType::float64);
  EXPECT_EQ(c.batch_size, std::nullopt);
  EXPECT_FALSE(c.batched());
  EXPECT_EQ(c.tgt_len, 4);
  EXPECT_EQ(c.src_len, 6);
  EXPECT_EQ(c.seed, 18446744073709551615ULL);
  EXPECT_EQ(c.input_seed, 7U);
  EXPECT_EQ(c.dropout_seed, std::nullopt);
}

TEST(ConfigJson, IntegerDropoutIsANumber) {
  EXPECT_EQ(parse_config_json(R"({"dropout": 0})", "c").dropout, 0.0);
}

TEST(ConfigJson, RoundTripIsExact) {
  Config c;
  c.embed_dim = 6;
  c.num_heads = 3;
  c.dropout = 0.1 + 0.2;  // not exactly 0.3: the writer must keep every bit
  c.kdim = 4;
  c.batch_size = std::nullopt;
  c.dtype = DType::float64;
  c.seed = 123456789012345ULL;
  c.dropout_seed = 0;
  const std::string text = mhaviz::io::config_to_json(c);
  EXPECT_EQ(parse_config_json(text, "config.json"), c);
  EXPECT_EQ(mhaviz::io::config_to_json(parse_config_json(text, "config.json")), text);
  // Stable, documented layout: Config's field order, 2-space indent, trailing newline.
  EXPECT_EQ(text.rfind("{\n  \"embed_dim\": 6,\n  \"num_heads\": 3,\n", 0), 0U) << text;
  EXPECT_NE(text.find("\n  \"batch_size\": null,\n"), std::string::npos);
  EXPECT_NE(text.find("\n  \"dtype\": \"float64\",\n"), std::string::npos);
  EXPECT_EQ(text.back(), '\n');
  EXPECT_LT(text.find("\"kdim\""), text.find("\"dropout_seed\""));
  EXPECT_EQ(parse_config_json(mhaviz::io::config_to_json(Config{}), "c"), Config{});
}

TEST(ConfigJson, UnknownKeySuggestsTheClosest) {
  expect_config_error(R"({"num_head": 2})",
                      {"config.json: unknown key \"num_head\" (did you mean \"num_heads\"?)"});
  expect_config_error(R"({"batchfirst": true})", {"did you mean \"batch_first\"?"});
  expect_config_error(R"({"colour": 1})",
                      {"unknown key \"colour\"", "the keys are embed_dim, num_heads"});
}

TEST(ConfigJson, WrongTypesNameKeyAndExpectedType) {
  expect_config_error(R"({"num_heads": "2"})",
                      {"config.json: key \"num_heads\" must be an integer, got string \"2\""});
  expect_config_error(R"({"embed_dim": 16.5})",
                      {"\"embed_dim\" must be an integer, got number 16.5"});
  expect_config_error(R"({"bias": 1})", {"\"bias\" must be true or false, got integer 1"});
  expect_config_error(R"({"dropout": "0.1"})", {"\"dropout\" must be a number"});
  expect_config_error(R"({"kdim": [4]})", {"\"kdim\" must be an integer or null, got an array"});
  expect_config_error(R"({"dtype": "float16"})",
                      {R"("dtype" must be "float32" or "float64", got string "float16")"});
  expect_config_error(R"({"batch_size": true})",
                      {"\"batch_size\" must be an integer or null, got boolean true"});
  expect_config_error(R"({"seed": -1})", {"\"seed\" must be a non-negative integer", "-1"});
  expect_config_error(R"({"tgt_len": 9223372036854775808})", {"\"tgt_len\"", "out of range"});
  expect_config_error(R"({"tgt_len": null})", {"\"tgt_len\" must be an integer, got null"});
}

TEST(ConfigJson, NullBatchSizeMeansUnbatched) {
  const Config c = parse_config_json(R"({"batch_size": null})", "c");
  EXPECT_FALSE(c.batched());
  EXPECT_EQ(parse_config_json(R"({"batch_size": 3})", "c").batch_size, 3);
}

TEST(ConfigJson, SyntaxErrorsNameFileLineAndColumn) {
  expect_config_error("{\n  \"embed_dim\": 16,\n  \"num_heads\": ,\n}",
                      {"config.json: JSON syntax error at line 3, column 16"});
  expect_config_error("{\"a\": 1", {"config.json: JSON syntax error at line 1"});
  expect_config_error("", {"config.json: JSON syntax error"});
}

TEST(ConfigJson, TopLevelMustBeAnObjectAndKeysUnique) {
  expect_config_error("[1, 2]", {"config.json: the configuration must be a JSON object"});
  expect_config_error(R"({"seed": 1, "seed": 2})", {"config.json: key \"seed\" appears twice"});
}

TEST(ConfigJson, ReadFileNamesTheFile) {
  const fs::path dir = fs::temp_directory_path() / ("mhaviz-cfg-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path p = dir / "my.json";
  {
    std::ofstream out(p);
    out << "{\"embed_dim\": 8, \"num_heads\": 4}\n";
  }
  const Config c = mhaviz::io::read_config_file(p);
  EXPECT_EQ(c.embed_dim, 8);
  EXPECT_EQ(c.num_heads, 4);
  {
    std::ofstream out(p);
    out << "{\"num_heads\": \"x\"}";
  }
  expect_invalid([&] { mhaviz::io::read_config_file(p); }, {"my.json: key \"num_heads\""});
  expect_invalid([&] { mhaviz::io::read_config_file(dir / "none.json"); },
                 {"none.json", "file not found"});
  fs::remove_all(dir);
}

TEST(Suggest, EditDistance) {
  EXPECT_EQ(mhaviz::io::edit_distance("kitten", "sitting"), 3U);
  EXPECT_EQ(mhaviz::io::edit_distance("", "abc"), 3U);
  EXPECT_EQ(mhaviz::io::edit_distance("same", "same"), 0U);
}
