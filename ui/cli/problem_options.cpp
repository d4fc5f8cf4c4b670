#include "cli/problem_options.hpp"

#include <filesystem>
#include <iostream>
#include <string>

#include "cli/memory_arg.hpp"
#include "cli/usage_error.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "mhaviz/core/io/tensor_file.hpp"
#include "mhaviz/core/plan/memory.hpp"
#include "mhaviz/core/spec/semantics.hpp"
#include "mhaviz/core/spec/torch_path.hpp"

namespace mhaviz::cli {

namespace {

std::filesystem::path toPath(const QString& text) {
  return std::filesystem::path(text.toStdString());
}

}  // namespace

void addProblemOptions(QCommandLineParser& parser, bool withMemoryLimit) {
  parser.addOption({QStringLiteral("config"),
                    QStringLiteral("Configuration file (JSON, PyTorch's argument names)."),
                    QStringLiteral("C.json")});
  parser.addOption({QStringLiteral("tensors"),
                    QStringLiteral("Tensors file (.npz, .safetensors or .npy) with any of the "
                                   "forward arguments and state_dict entries, under PyTorch's "
                                   "names; they replace the generated ones."),
                    QStringLiteral("T")});
  if (withMemoryLimit) {
    parser.addOption({QStringLiteral("max-memory"),
                      QStringLiteral("Refuse configurations whose estimated memory exceeds this "
                                     "size, e.g. 512MiB, 8GiB or plain bytes (default 4GiB)."),
                      QStringLiteral("size")});
  }
}

QString requiredValue(const QCommandLineParser& parser, const QString& option) {
  const QString value = parser.value(option);
  if (!parser.isSet(option) || value.isEmpty()) {
    throw UsageError(QStringLiteral("missing required option --%1").arg(option).toStdString());
  }
  return value;
}

LoadedFiles loadFiles(const QCommandLineParser& parser, const QString& configOption,
                      const QString& tensorsOption) {
  LoadedFiles files;
  files.config = io::read_config_file(toPath(requiredValue(parser, configOption)));
  files.tensorsName = QStringLiteral("tensors");
  if (parser.isSet(tensorsOption)) {
    const QString path = requiredValue(parser, tensorsOption);
    files.tensors = io::read_tensor_file(toPath(path));
    files.tensorsName = path;
  }
  return files;
}

std::int64_t staticSrcLen(const io::TensorMap& tensors) {
  const auto it = tensors.find("static_k");
  if (it == tensors.end() || it->second.dim() != 3) return -1;
  return it->second.size(1);
}

std::uint64_t memoryLimit(const QCommandLineParser& parser) {
  if (!parser.isSet(QStringLiteral("max-memory"))) return kDefaultMemoryLimit;
  const QString text = parser.value(QStringLiteral("max-memory"));
  const std::optional<std::uint64_t> bytes = parseByteSize(text);
  if (!bytes) {
    throw UsageError(QStringLiteral("--max-memory \"%1\" is not a size; write e.g. 512MiB, 8GiB "
                                    "or a number of bytes")
                         .arg(text)
                         .toStdString());
  }
  return *bytes;
}

Problem loadProblem(const QCommandLineParser& parser, MemoryMode mode, const std::string& hint,
                    const QString& configOption, const QString& tensorsOption) {
  const std::uint64_t limit = memoryLimit(parser);  // usage errors before any file is read
  LoadedFiles files = loadFiles(parser, configOption, tensorsOption);
  validate_config(files.config);
  try {
    if (mode == MemoryMode::full) {
      check_memory(files.config, limit, staticSrcLen(files.tensors));
    } else {
      check_reduced_memory(files.config, limit, staticSrcLen(files.tensors));
    }
  } catch (const InvalidInput& e) {
    throw InvalidInput(std::string(e.what()) + " (mhaviz-cli: --max-memory SIZE, e.g. 8GiB)" +
                       hint);
  }
  // The reduced view reads a pattern mask's rows as it needs them (make_reduced_problem).
  Problem problem =
      mode == MemoryMode::full
          ? make_problem(files.config, files.tensors, files.tensorsName.toStdString())
          : make_reduced_problem(files.config, files.tensors, files.tensorsName.toStdString());
  // Not an error (PyTorch computes with them too), but the NaN they cause needs explaining.
  const std::string nonfinite = nonfinite_warning(files.tensors, files.tensorsName.toStdString());
  if (!nonfinite.empty()) std::cerr << "warning: " << nonfinite << '\n' << std::flush;
  const std::string version = semantics_warning(problem.config, problem.inputs);
  if (!version.empty()) std::cerr << "warning: " << version << '\n' << std::flush;
  // Where PyTorch's result is undefined or depends on which of its 2.x paths it takes.
  for (const std::string& w : torch_path(problem.config, problem.inputs).warnings) {
    std::cerr << "warning: " << w << '\n' << std::flush;
  }
  return problem;
}

ForwardResult computeResult(const QCommandLineParser& parser, Problem* problemOut,
                            const std::string& hint, const QString& configOption,
                            const QString& tensorsOption) {
  Problem problem = loadProblem(parser, MemoryMode::full, hint, configOption, tensorsOption);
  ForwardResult result = forward(problem.config, problem.params, problem.inputs);
  if (problemOut != nullptr) *problemOut = std::move(problem);
  return result;
}

}  // namespace mhaviz::cli
