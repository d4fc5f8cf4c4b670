#include "cli/run_part.hpp"

#include <filesystem>
#include <iostream>

#include "cli/problem_options.hpp"
#include "cli/usage_error.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/long_context/long_context.hpp"
#include "mhaviz/core/plan/memory.hpp"
#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::cli {

namespace {

std::int64_t nonNegative(const QString& option, const QString& text, const QString& example) {
  bool ok = false;
  const qlonglong v = text.trimmed().toLongLong(&ok);
  if (!ok || v < 0) {
    throw UsageError(QStringLiteral("--%1 \"%2\" must be a non-negative integer such as %3")
                         .arg(option, text, example)
                         .toStdString());
  }
  return v;
}

std::string str(std::int64_t v) { return std::to_string(v); }

}  // namespace

void addRunPartOptions(QCommandLineParser& parser) {
  parser.addOption({QStringLiteral("head"),
                    QStringLiteral("Write only this head's weights (weights_per_head[n, h]), "
                                   "computed stripe by stripe: for contexts whose maps do not "
                                   "all fit in memory."),
                    QStringLiteral("h")});
  parser.addOption({QStringLiteral("queries"),
                    QStringLiteral("Write only the weights of query rows A to B-1 "
                                   "(weights_per_head[n, :, A:B, :])."),
                    QStringLiteral("A:B")});
  parser.addOption({QStringLiteral("batch"),
                    QStringLiteral("With --head or --queries: the batch element (default 0)."),
                    QStringLiteral("n")});
}

RunPart parseRunPart(const QCommandLineParser& parser) {
  RunPart part;
  if (parser.isSet(QStringLiteral("head"))) {
    part.head = nonNegative(QStringLiteral("head"), parser.value(QStringLiteral("head")),
                            QStringLiteral("0"));
  }
  if (parser.isSet(QStringLiteral("batch"))) {
    part.batch = nonNegative(QStringLiteral("batch"), parser.value(QStringLiteral("batch")),
                             QStringLiteral("0"));
  }
  if (parser.isSet(QStringLiteral("queries"))) {
    const QString text = parser.value(QStringLiteral("queries"));
    const QStringList ends = text.split(':');
    bool okA = false, okB = false;
    const qlonglong a = ends.value(0).trimmed().toLongLong(&okA);
    const qlonglong b = ends.value(1).trimmed().toLongLong(&okB);
    if (ends.size() != 2 || !okA || !okB || a < 0 || b <= a) {
      throw UsageError(QStringLiteral("--queries \"%1\" must be a range A:B of query rows with "
                                      "0 <= A < B, e.g. 0:1024")
                           .arg(text)
                           .toStdString());
    }
    part.queryBegin = a;
    part.queryEnd = b;
  }
  part.requested = part.head || part.queryBegin || parser.isSet(QStringLiteral("batch"));
  return part;
}

std::string runPartHint() {
  return ". To write the exact weights of a part instead, give mhaviz-cli run --head H and/or "
         "--queries A:B (one head, query rows A to B-1); `mhaviz-cli export` draws the whole "
         "map reduced to the picture";
}

int runPart(const QCommandLineParser& parser, const RunPart& part, const QString& out,
            bool compress) {
  // Everything is checked from the configuration before anything large is made.
  const std::uint64_t limit = memoryLimit(parser);
  const LoadedFiles files = loadFiles(parser);
  const Config& c = files.config;
  validate_config(c);
  if (part.head && *part.head >= c.num_heads) {
    throw InvalidInput("--head " + str(*part.head) + ": the configuration has num_heads=" +
                       str(c.num_heads) + ", so heads are numbered 0 to " + str(c.num_heads - 1));
  }
  if (part.batch >= c.batch()) {
    throw InvalidInput("--batch " + str(part.batch) + ": the input has " + str(c.batch()) +
                       " batch element(s) (0 to " + str(c.batch() - 1) + ")");
  }
  const std::int64_t a = part.queryBegin.value_or(0), b = part.queryEnd.value_or(c.tgt_len);
  if (b > c.tgt_len) {
    throw InvalidInput("--queries " + str(a) + ":" + str(b) +
                       ": the configuration has tgt_len (L) = " + str(c.tgt_len) +
                       " query rows; give A:B with 0 <= A < B <= " + str(c.tgt_len));
  }
  // The part's size: heads x rows x Sx values, next to the stripes that compute it.
  const std::int64_t staticLen = staticSrcLen(files.tensors);
  const std::int64_t sx = c.key_columns(c.source_keys(staticLen));
  const std::int64_t heads = part.head ? 1 : c.num_heads;
  const std::uint64_t partBytes = estimate_part_bytes(c, heads, b - a, staticLen);
  const std::uint64_t need = partBytes + estimate_reduced_memory(c, 2, staticLen);
  if (need > limit) {
    const std::uint64_t room =
        limit > need - partBytes ? limit - (need - partBytes) : 0;  // bytes left for the part
    const auto rows = static_cast<std::int64_t>(room / estimate_part_bytes(c, heads, 1, staticLen));
    throw InvalidInput(
        "this part of the weights (" + str(heads) + " head(s) x " + str(b - a) + " query rows x " +
        str(sx) + " keys) needs " + format_bytes(need) + "; the limit is " + format_bytes(limit) +
        ". " +
        (rows > 0
             ? "Ask for at most " + str(rows) + " query rows (e.g. --queries " + str(a) + ":" +
                   str(a + rows) + ")" + (part.head ? "" : " or one head with --head H")
             : std::string("Ask for one head (--head H) and fewer query rows (--queries A:B)")) +
        ", or raise the limit with --max-memory SIZE");
  }
  const Problem problem = loadProblem(parser, MemoryMode::reduced);
  ReducedRequest request;
  request.batch = part.batch;
  request.head = part.head.value_or(-1);
  request.query_begin = a;
  request.query_end = b;
  request.max_rows = b - a;  // one value per cell: the exact weights
  request.max_cols = sx;
  RunControl control;
  control.threads = 0;
  const ReducedWeights weights =
      reduced_weights(problem.config, problem.params, problem.inputs, request, control);
  io::TensorMap tensors;
  tensors.emplace("weights_per_head", weights.maps.reshaped({1, heads, b - a, sx}));
  io::write_tensor_file(std::filesystem::path(out.toStdString()), tensors, compress);
  std::cout << "wrote weights_per_head[" << part.batch << ", "
            << (part.head ? str(*part.head) : std::string(":")) << ", " << a << ":" << b << ", :] "
            << shape_str({1, heads, b - a, sx}) << " to " << out.toStdString() << '\n';
  return kExitOk;
}

}  // namespace mhaviz::cli
