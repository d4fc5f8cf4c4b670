#pragma once
// mhaviz-cli run --head H --queries A:B [--batch n]: the exact weights of a part (one head, a
// range of query rows) of a configuration whose maps do not all fit in memory, computed stripe
// by stripe (mhaviz/core/long_context/long_context.hpp) and written as the slice
// weights_per_head[n:n+1, h:h+1, A:B, :] of what a full run would write.

#include <QCommandLineParser>
#include <cstdint>
#include <optional>
#include <string>

namespace mhaviz::cli {

struct RunPart {
  bool requested = false;  // any of --head, --queries, --batch given
  std::int64_t batch = 0;
  std::optional<std::int64_t> head;
  std::optional<std::int64_t> queryBegin, queryEnd;
};

/// Adds --head, --queries and --batch to `run`.
void addRunPartOptions(QCommandLineParser& parser);

/// The part asked for; throws UsageError for a malformed value (ranges are checked against the
/// configuration by runPart).
RunPart parseRunPart(const QCommandLineParser& parser);

/// What a refusal of a full run by the memory check adds: how to ask for a part instead.
std::string runPartHint();

/// Computes and writes the part. Throws UsageError or InvalidInput.
int runPart(const QCommandLineParser& parser, const RunPart& part, const QString& out,
            bool compress);

}  // namespace mhaviz::cli
