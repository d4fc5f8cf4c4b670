// mhaviz-cli torch: a PyTorch script plus its data file that reproduce this computation and
// assert that PyTorch's results equal mhaviz's.

#include <filesystem>
#include <iostream>
#include <string>

#include "cli/commands.hpp"
#include "cli/output_path.hpp"
#include "cli/problem_options.hpp"
#include "cli/usage_error.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/script/torch_script.hpp"
#include "mhaviz/core/version.hpp"

namespace mhaviz::cli {

void addTorchOptions(QCommandLineParser& parser) {
  addProblemOptions(parser, true);
  parser.addOption({QStringLiteral("out"),
                    QStringLiteral("The script to write (.py); its data file is written beside "
                                   "it with the same name ending in .npz."),
                    QStringLiteral("repro.py")});
}

int torchCommand(const QCommandLineParser& parser) {
  const QString out = requiredValue(parser, QStringLiteral("out"));
  requireSuffix(QStringLiteral("out"), out, {QStringLiteral(".py")});
  const std::filesystem::path scriptPath(out.toStdString());
  std::filesystem::path dataPath = scriptPath;
  dataPath.replace_extension(".npz");

  Problem problem;
  const ForwardResult result = computeResult(parser, &problem);
  const io::TensorMap data = torch_data(problem, result);
  const std::string script = torch_script(problem.config, data, dataPath.filename().string(),
                                          scriptPath.filename().string(), kVersion);
  io::write_npz(dataPath, data);
  io::write_file_atomic(scriptPath, std::as_bytes(std::span(script.data(), script.size())));
  std::error_code ignored;  // executable bit is a convenience; `python3 repro.py` works without
  std::filesystem::permissions(scriptPath, std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add, ignored);
  std::cout << "wrote " << io::display_name(scriptPath) << " and " << io::display_name(dataPath)
            << "; run: python3 " << io::display_name(scriptPath) << '\n';
  return kExitOk;
}

}  // namespace mhaviz::cli
