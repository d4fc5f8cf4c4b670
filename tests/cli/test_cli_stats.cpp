// mhaviz-cli stats: the CSV and JSON tables against the torch computations of
// tests/fixtures/measures (made by tests/fixtures/make_measure_fixtures.py).

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_process.hpp"
#include "mhaviz/core/io/npz.hpp"

namespace mhaviz::cli::test {
namespace {

io::TensorMap reference(const std::string& name) {
  return io::read_npz(std::string(MHAVIZ_FIXTURE_DIR) + "/measures/" + name + ".npz");
}

std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::istringstream cellIn(line);
    for (std::string cell; std::getline(cellIn, cell, ',');) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    rows.push_back(cells);
  }
  return rows;
}

void expectNear(double got, double want, const std::string& what) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << what << ": " << got;
  } else {
    EXPECT_LE(std::abs(got - want), 2e-5 + 2e-4 * std::abs(want))
        << what << ": " << got << " vs torch " << want;
  }
}

ProcessResult stats(const ScratchDir& dir, const std::string& name, const std::string& format) {
  io::write_npz(dir.file("t.npz"), fixtureInputs(name));
  return runCli({"stats", "--config", fixture(name + ".json"), "--tensors", dir.file("t.npz"),
                 "--format", format});
}

// Every query row and head average of the CSV equals torch's values; each measure is a named
// column, the sink columns appear with their key columns.
TEST(CliStats, CsvEqualsTorch) {
  for (const std::string name : {"bias_kv_and_zero_attn", "fully_masked_row", "larger_f32"}) {
    SCOPED_TRACE(name);
    const ScratchDir dir;
    const ProcessResult r = stats(dir, name, "csv");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = parseCsv(r.out);
    ASSERT_FALSE(rows.empty());
    std::map<std::string, std::size_t> col;
    for (std::size_t c = 0; c < rows[0].size(); ++c) col[rows[0][c]] = c;
    const io::TensorMap ref = reference(name);
    const Shape shape = ref.at("entropy").shape();  // (N, H, L)
    const std::int64_t N = shape[0], H = shape[1], L = shape[2];
    EXPECT_EQ(static_cast<std::int64_t>(rows.size()), 1 + N * H * L + N * H + H);
    const bool biasK = name != "fully_masked_row";
    EXPECT_EQ(col.count("sink_bias_k"), biasK ? 1U : 0U);
    EXPECT_EQ(col.count("sink_zero"), name == "bias_kv_and_zero_attn" ? 1U : 0U);
    EXPECT_EQ(col.count("sent_to_nothing"), biasK ? 1U : 0U);
    ASSERT_EQ(col.count("logit_scale"), 1U);
    const std::map<std::string, std::string> measures = {
        {"entropy", "entropy"},       {"normalized_entropy", "normalized_entropy"},
        {"confidence", "confidence"}, {"sink_first_key", "first_key"},
        {"ablation", "ablation"},     {"sink_bias_k", "bias_k"},
        {"sink_zero", "zero"},        {"sent_to_nothing", "nothing"}};
    for (std::size_t i = 1; i < rows.size(); ++i) {
      const auto& row = rows[i];
      ASSERT_EQ(row.size(), rows[0].size()) << "row " << i;
      const bool all = row[0] == "all";
      const std::int64_t n = all ? N : std::stoll(row[0]);
      const std::int64_t h = std::stoll(row[1]);
      const bool mean = row[2] == "mean";
      for (const auto& [column, key] : measures) {
        if (col.count(column) == 0) continue;
        const double got = std::stod(row[col.at(column)]);
        const double want = mean ? ref.at("avg." + key).value(n * H + h)
                                 : ref.at(key).value((n * H + h) * L + std::stoll(row[2]));
        expectNear(got, want, name + " row " + std::to_string(i) + " " + column);
      }
      expectNear(std::stod(row[col.at("logit_scale")]), ref.at("logit_scale").value(h),
                 name + " row " + std::to_string(i) + " logit_scale");
      if (!mean) {
        EXPECT_EQ(std::stod(row[col.at("open_keys")]),
                  ref.at("open_keys").value((n * H + h) * L + std::stoll(row[2])));
      }
    }
  }
}

// JSON: every key holding an entropy value says "entropy"; undefined values are null.
TEST(CliStats, JsonNamesEntropyAndNullsUndefined) {
  const ScratchDir dir;
  const ProcessResult r = stats(dir, "fully_masked_row", "json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const io::TensorMap ref = reference("fully_masked_row");
  const auto& rows = j.at("rows");
  ASSERT_EQ(static_cast<std::int64_t>(rows.size()), ref.at("entropy").numel());
  bool sawNull = false;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const double want = ref.at("entropy").value(static_cast<std::int64_t>(k));
    const auto& e = rows[k].at("entropy");
    if (std::isnan(want)) {
      EXPECT_TRUE(e.is_null());
      EXPECT_TRUE(rows[k].at("normalized_entropy").is_null());
      EXPECT_EQ(rows[k].at("open_keys"), 0);
      sawNull = true;
    } else {
      expectNear(e.get<double>(), want, "entropy " + std::to_string(k));
      expectNear(rows[k].at("normalized_entropy").get<double>(),
                 ref.at("normalized_entropy").value(static_cast<std::int64_t>(k)), "normalized");
    }
  }
  EXPECT_TRUE(sawNull) << "the case has a query with every key masked";
  const auto& averages = j.at("head_averages");
  ASSERT_FALSE(averages.empty());
  EXPECT_EQ(averages.back().at("batch"), "all");
  for (const auto& [key, value] : j.at("measures").items()) {
    (void)value;
    EXPECT_TRUE(j.at("rows")[0].contains(key) || averages[0].contains(key) || j.contains(key) ||
                key == "null")
        << key;
  }
}

// Sink scores (Gu et al. 2024): JSON's per-key scores equal the fixture's, sink_head marks the
// heads whose first-key score is above --sink-eps (two thresholds, so the flag must move).
TEST(CliStats, SinkScoresAndSinkHeadsEqualTorch) {
  for (const std::string name : {"bias_kv_and_zero_attn", "fully_masked_row"}) {
    SCOPED_TRACE(name);
    const io::TensorMap ref = reference(name);
    const Tensor& score = ref.at("sink.score");  // (N + 1, H, Sx)
    const std::int64_t H = score.size(1), Sx = score.size(2);
    const ScratchDir dir;
    io::write_npz(dir.file("t.npz"), fixtureInputs(name));
    for (const std::string eps : {"0.3", "0.05"}) {
      const ProcessResult r = runCli({"stats", "--config", fixture(name + ".json"), "--tensors",
                                      dir.file("t.npz"), "--format", "json", "--sink-eps", eps});
      ASSERT_EQ(r.exitCode, 0) << r.err;
      const nlohmann::json j = nlohmann::json::parse(r.out);
      EXPECT_DOUBLE_EQ(j.at("sink_eps").get<double>(), std::stod(eps));
      const auto& blocks = j.at("sink_scores");
      ASSERT_EQ(static_cast<std::int64_t>(blocks.size()), score.size(0) * H);
      int sinks = 0;
      for (std::size_t b = 0; b < blocks.size(); ++b) {
        const auto& scores = blocks[b].at("scores");
        ASSERT_EQ(static_cast<std::int64_t>(scores.size()), Sx);
        for (std::int64_t k = 0; k < Sx; ++k) {
          expectNear(scores[static_cast<std::size_t>(k)].get<double>(),
                     score.value(static_cast<std::int64_t>(b) * Sx + k),
                     "sink score " + std::to_string(b) + "," + std::to_string(k));
        }
        EXPECT_EQ(blocks[b].at("queries").get<double>(),
                  ref.at("sink.queries").value(static_cast<std::int64_t>(b)));
      }
      for (const auto& a : j.at("head_averages")) {
        const std::int64_t n =
            a.at("batch") == "all" ? score.size(0) - 1 : a.at("batch").get<int>();
        const std::int64_t h = a.at("head");
        const bool want = score.value((n * H + h) * Sx) > std::stod(eps);
        EXPECT_EQ(a.at("sink_head").get<bool>(), want) << n << " " << h;
        sinks += want ? 1 : 0;
      }
      if (eps == "0.05") {
        EXPECT_GT(sinks, 0) << "a threshold this low should find a sink head";
      }
    }
    const ProcessResult csv = runCli({"stats", "--config", fixture(name + ".json"), "--tensors",
                                      dir.file("t.npz"), "--format", "csv"});
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    const auto rows = parseCsv(csv.out);
    const auto sinkHead = std::find(rows[0].begin(), rows[0].end(), "sink_head");
    ASSERT_NE(sinkHead, rows[0].end());
    const auto col = static_cast<std::size_t>(sinkHead - rows[0].begin());
    for (std::size_t i = 1; i < rows.size(); ++i) {
      if (rows[i][2] != "mean") {
        EXPECT_EQ(rows[i][col], "");
        continue;
      }
      const std::int64_t n = rows[i][0] == "all" ? score.size(0) - 1 : std::stoll(rows[i][0]);
      const std::int64_t h = std::stoll(rows[i][1]);
      EXPECT_EQ(rows[i][col], score.value((n * H + h) * Sx) > 0.3 ? "1" : "0") << "row " << i;
    }
  }
}

TEST(CliStats, OutFileIsWritten) {
  const ScratchDir dir;
  const ProcessResult r = runCli({"stats", "--config", fixture("single_head.json"), "--format",
                                  "json", "--out", dir.file("s.json")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  nlohmann::json parsed;
  EXPECT_NO_THROW(parsed = nlohmann::json::parse(readText(dir.file("s.json"))));
  EXPECT_TRUE(parsed.contains("rows"));
}

}  // namespace
}  // namespace mhaviz::cli::test

namespace mhaviz::cli::test {
namespace {

// export --stage value_zeroing: the CLI attaches the measures (which hold it) before drawing.
TEST(CliStats, ExportDrawsValueZeroing) {
  const ScratchDir dir;
  const ProcessResult r =
      runCli({"export", "--config", fixture("bias_kv_and_zero_attn.json"), "--stage",
              "value_zeroing", "--image", dir.file("vz.png"), "--width", "800", "--height", "500"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.file("vz.png")));
}

// export --stage sink_scores: the CLI attaches the measures (which hold them) before drawing.
TEST(CliStats, ExportDrawsSinkScores) {
  const ScratchDir dir;
  const ProcessResult r =
      runCli({"export", "--config", fixture("bias_kv_and_zero_attn.json"), "--stage", "sink_scores",
              "--image", dir.file("ss.png"), "--width", "800", "--height", "500"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.file("ss.png")));
}

// export --stage value_norms: the CLI attaches the value norms before drawing.
TEST(CliStats, ExportDrawsValueNorms) {
  const ScratchDir dir;
  const ProcessResult r =
      runCli({"export", "--config", fixture("bias_kv_and_zero_attn.json"), "--stage", "value_norms",
              "--image", dir.file("vn.png"), "--width", "800", "--height", "500"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.file("vn.png")));
}

}  // namespace
}  // namespace mhaviz::cli::test
