#pragma once
// The options every command shares (--config, --tensors, --max-memory) and what they load:
// the Problem (config + parameters + inputs) and, for the computing commands, its result.

#include <QCommandLineParser>
#include <cstdint>
#include <string>

#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/plan/problem.hpp"

namespace mhaviz::cli {

/// Adds --config and --tensors; with `withMemoryLimit` also --max-memory.
void addProblemOptions(QCommandLineParser& parser, bool withMemoryLimit);

/// A required option's value; throws UsageError naming the option when it is absent or empty.
QString requiredValue(const QCommandLineParser& parser, const QString& option);

/// The configuration file and the tensors file (when given), read without building anything.
/// Throws UsageError without --config, InvalidInput for unreadable or malformed files.
struct LoadedFiles {
  Config config;
  io::TensorMap tensors;
  QString tensorsName;  // the tensors file as typed, for messages ("tensors" when none)
};
LoadedFiles loadFiles(const QCommandLineParser& parser,
                      const QString& configOption = QStringLiteral("config"),
                      const QString& tensorsOption = QStringLiteral("tensors"));

/// static_k's S' (its dimension 1) when the tensors hold a 3-D static_k, else -1.
std::int64_t staticSrcLen(const io::TensorMap& tensors);

/// The --max-memory limit in bytes (kDefaultMemoryLimit when absent). Throws UsageError for a
/// malformed size.
std::uint64_t memoryLimit(const QCommandLineParser& parser);

/// Which memory estimate loadProblem checks: every map (forward), or the reduced long-context
/// view and parts of the weights (mhaviz/core/long_context/long_context.hpp).
enum class MemoryMode { full, reduced };

/// loadFiles, then the memory check against --max-memory (before anything large is allocated),
/// then make_problem. Throws UsageError or InvalidInput; a refusal by the memory check ends
/// with `hint` (what else the command can do). configOption / tensorsOption name the options
/// to read (compare's B: config-b, tensors-b).
Problem loadProblem(const QCommandLineParser& parser, MemoryMode mode = MemoryMode::full,
                    const std::string& hint = {},
                    const QString& configOption = QStringLiteral("config"),
                    const QString& tensorsOption = QStringLiteral("tensors"));

/// loadProblem followed by mhaviz::forward.
ForwardResult computeResult(const QCommandLineParser& parser, Problem* problemOut = nullptr,
                            const std::string& hint = {},
                            const QString& configOption = QStringLiteral("config"),
                            const QString& tensorsOption = QStringLiteral("tensors"));

}  // namespace mhaviz::cli
