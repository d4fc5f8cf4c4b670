// mhaviz-cli stats: the head measures (mhaviz/core/analysis/measures.hpp) of a configuration as a
// CSV or JSON table, one row per (batch element, head, query) plus the head averages.

#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/output_path.hpp"
#include "cli/problem_options.hpp"
#include "cli/sink_eps.hpp"
#include "cli/usage_error.hpp"
#include "mhaviz/core/analysis/logit_scale.hpp"
#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/analysis/sink.hpp"
#include "mhaviz/core/io/file_bytes.hpp"

namespace mhaviz::cli {

namespace {

/// One row of the table: per query (query >= 0) or a head average (query < 0; batch < 0 for
/// the average over every batch element).
struct Row {
  std::int64_t batch = 0, head = 0, query = 0;
  std::int64_t count = 0;  // open keys (query rows) or queries averaged (average rows)
  double entropy, normalized_entropy, confidence, first_key, bias_k, zero, ablation;
  double logit_scale = 0;  // the head's (the same in each of its rows)
  bool sink = false;       // average rows: the first key's sink score is above ε
  /// 1 - sum of the weights on real keys: the share sent to the bias_k and zero columns.
  [[nodiscard]] double nothing() const { return bias_k + zero; }
};

std::string num(double v) {
  if (std::isnan(v)) return "nan";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string jsonNum(double v) { return std::isfinite(v) ? num(v) : "null"; }

std::vector<Row> tableRows(const HeadMeasures& m, const ForwardResult& r,
                           const std::vector<double>& scales, const SinkScores& sinks, double eps) {
  std::vector<Row> rows;
  const auto average = [&](std::int64_t n, std::int64_t h) {
    const HeadAverage a = head_average(m, r, n, h);
    rows.push_back({n, h, -1, a.queries, a.entropy, a.normalized_entropy, a.confidence, a.first_key,
                    a.bias_k, a.zero, a.ablation, scales[static_cast<std::size_t>(h)],
                    sinks.at(n, h, 0) > eps});
  };
  for (std::int64_t n = 0; n < m.N; ++n) {
    for (std::int64_t h = 0; h < m.H; ++h) {
      for (std::int64_t i = 0; i < m.L; ++i) {
        const std::size_t k = m.at(n, h, i);
        rows.push_back({n, h, i, m.open_keys[k], m.entropy[k], m.normalized_entropy[k],
                        m.confidence[k], m.first_key[k], m.bias_k[k], m.zero[k], m.ablation[k],
                        scales[static_cast<std::size_t>(h)]});
      }
      average(n, h);
    }
  }
  for (std::int64_t h = 0; h < m.H; ++h) average(-1, h);
  return rows;
}

std::string csv(const HeadMeasures& m, const std::vector<Row>& rows, const PathDecision& path) {
  std::ostringstream s;
  s << "batch,head,query,open_keys,queries,entropy,normalized_entropy,confidence,"
       "sink_first_key";
  if (m.has_bias_k) s << ",sink_bias_k";
  if (m.has_zero) s << ",sink_zero";
  if (m.has_bias_k || m.has_zero) s << ",sent_to_nothing";
  s << ",ablation,logit_scale,sink_head,torch_path\n";
  for (const Row& r : rows) {
    s << (r.batch < 0 ? std::string("all") : std::to_string(r.batch)) << ',' << r.head << ','
      << (r.query < 0 ? std::string("mean") : std::to_string(r.query)) << ','
      << (r.query < 0 ? std::string() : std::to_string(r.count)) << ','
      << (r.query < 0 ? std::to_string(r.count) : std::string()) << ',' << num(r.entropy) << ','
      << num(r.normalized_entropy) << ',' << num(r.confidence) << ',' << num(r.first_key);
    if (m.has_bias_k) s << ',' << num(r.bias_k);
    if (m.has_zero) s << ',' << num(r.zero);
    if (m.has_bias_k || m.has_zero) s << ',' << num(r.nothing());
    s << ',' << num(r.ablation) << ',' << num(r.logit_scale) << ','
      << (r.query < 0 ? (r.sink ? "1" : "0") : "") << ',' << to_string(path.path) << '\n';
  }
  return s.str();
}

/// A JSON string literal of `text` (the path's reason: plain ASCII, maybe quotes).
std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (const char ch : text) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

std::string json(const HeadMeasures& m, const std::vector<Row>& rows, const SinkScores& sinks,
                 double eps, const PathDecision& path) {
  std::ostringstream s;
  s << "{\n  \"measures\": {\n"
       "    \"entropy\": \"-sum_j a_ij log a_ij in nats (0 log 0 = 0)\",\n"
       "    \"normalized_entropy\": \"entropy / log(open keys); 0 with one open key\",\n"
       "    \"confidence\": \"max_j a_ij\",\n"
       "    \"sink_first_key\": \"a_i0, the weight on the first key\",\n";
  if (m.has_bias_k) s << "    \"sink_bias_k\": \"the weight on the bias_k column\",\n";
  if (m.has_zero) s << "    \"sink_zero\": \"the weight on the zero column\",\n";
  if (m.has_bias_k || m.has_zero) {
    s << "    \"sent_to_nothing\": \"1 - sum of the weights on real keys (the bias_k and zero "
         "columns' share; softmax_1's attention to nothing)\",\n";
  }
  s << "    \"logit_scale\": \"largest singular value of W_Q^h^T W_K^h / sqrt(head_dim) (Zhai et "
       "al. 2023); large values let logits spread and predict low entropy\",\n";
  s << "    \"ablation\": \"|change of attn_output when the head's output is zeroed| / "
       "|attn_output|\",\n"
       "    \"sink_head\": \"head averages: the first key's sink score (the mean of "
       "sink_first_key, "
       "Gu et al. 2024) is above sink_eps\",\n"
       "    \"sink_scores\": \"per key column (bias_k and zero included): its mean weight over the "
       "queries with an open key (a fully masked query has no weight to give and is left out)\",\n"
       "    \"null\": \"undefined: the query has no open key, or its output row is 0\"\n  },\n";
  s << "  \"sink_eps\": " << num(eps) << ",\n";
  // Which of PyTorch 2.x's paths the numbers are (docs/semantics.md), and why.
  s << "  \"torch_path\": {\"path\": \"" << to_string(path.path)
    << "\", \"reason\": " << jsonString(path.reason) << "},\n";
  const auto fields = [&](const Row& r) {
    std::ostringstream f;
    f << "\"entropy\": " << jsonNum(r.entropy)
      << ", \"normalized_entropy\": " << jsonNum(r.normalized_entropy)
      << ", \"confidence\": " << jsonNum(r.confidence)
      << ", \"sink_first_key\": " << jsonNum(r.first_key);
    if (m.has_bias_k) f << ", \"sink_bias_k\": " << jsonNum(r.bias_k);
    if (m.has_zero) f << ", \"sink_zero\": " << jsonNum(r.zero);
    if (m.has_bias_k || m.has_zero) f << ", \"sent_to_nothing\": " << jsonNum(r.nothing());
    f << ", \"ablation\": " << jsonNum(r.ablation)
      << ", \"logit_scale\": " << jsonNum(r.logit_scale);
    return f.str();
  };
  s << "  \"rows\": [";
  bool first = true;
  for (const Row& r : rows) {
    if (r.query < 0) continue;
    s << (first ? "\n" : ",\n") << "    {\"batch\": " << r.batch << ", \"head\": " << r.head
      << ", \"query\": " << r.query << ", \"open_keys\": " << r.count << ", " << fields(r) << "}";
    first = false;
  }
  s << "\n  ],\n  \"head_averages\": [";
  first = true;
  for (const Row& r : rows) {
    if (r.query >= 0) continue;
    s << (first ? "\n" : ",\n")
      << "    {\"batch\": " << (r.batch < 0 ? std::string("\"all\"") : std::to_string(r.batch))
      << ", \"head\": " << r.head << ", \"queries\": " << r.count << ", " << fields(r)
      << ", \"sink_head\": " << (r.sink ? "true" : "false") << "}";
    first = false;
  }
  s << "\n  ],\n  \"sink_scores\": [";
  first = true;
  for (std::int64_t n = 0; n <= sinks.N; ++n) {
    for (std::int64_t h = 0; h < sinks.H; ++h) {
      const std::int64_t b = n == sinks.N ? -1 : n;
      s << (first ? "\n" : ",\n")
        << "    {\"batch\": " << (b < 0 ? std::string("\"all\"") : std::to_string(b))
        << ", \"head\": " << h << ", \"queries\": " << sinks.queries_of(b, h) << ", \"scores\": [";
      for (std::int64_t j = 0; j < sinks.Sx; ++j) {
        s << (j == 0 ? "" : ", ") << jsonNum(sinks.at(b, h, j));
      }
      s << "]}";
      first = false;
    }
  }
  s << "\n  ]\n}\n";
  return s.str();
}

}  // namespace

void addStatsOptions(QCommandLineParser& parser) {
  addProblemOptions(parser, true);
  parser.addOption({QStringLiteral("format"),
                    QStringLiteral("csv or json: the table's format (required)."),
                    QStringLiteral("csv|json")});
  parser.addOption({QStringLiteral("sink-eps"),
                    QStringLiteral("Threshold of the sink_head column: a head is a sink head when "
                                   "its first key's sink score is above it (default 0.3, in "
                                   "(0, 1])."),
                    QStringLiteral("eps")});
  parser.addOption({QStringLiteral("out"),
                    QStringLiteral("Write the table to this file instead of standard output."),
                    QStringLiteral("FILE")});
}

int statsCommand(const QCommandLineParser& parser) {
  const QString format = requiredValue(parser, QStringLiteral("format")).toLower();
  if (format != QLatin1String("csv") && format != QLatin1String("json")) {
    throw UsageError("unknown --format '" + parser.value(QStringLiteral("format")).toStdString() +
                     "': use --format csv or --format json");
  }
  const QString out = parser.value(QStringLiteral("out"));
  if (parser.isSet(QStringLiteral("out"))) {
    requireSuffix(QStringLiteral("out"), out, {QStringLiteral(".") + format});
  }
  const double eps = sinkEps(parser);
  Problem problem;
  const ForwardResult result = computeResult(parser, &problem);
  const HeadMeasures m = head_measures(result, problem.inputs);
  const SinkScores sinks = sink_scores(result);
  const std::vector<Row> rows = tableRows(
      m, result, logit_scales(problem.params, problem.config.embed_dim, problem.config.num_heads),
      sinks, eps);
  const std::string text =
      format == QLatin1String("csv") ? csv(m, rows, result.path) : json(m, rows, sinks, eps, result.path);
  if (out.isEmpty()) {
    std::cout << text;
    return kExitOk;
  }
  io::write_file_atomic(out.toStdString(),
                        std::as_bytes(std::span<const char>(text.data(), text.size())));
  return kExitOk;
}

}  // namespace mhaviz::cli
