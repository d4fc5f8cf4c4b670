// mhaviz-cli torch: a PyTorch script plus its data file that reproduce this computation and
// assert that PyTorch's results equal mhaviz's.

#include <filesystem>
#include <iostream>
#include <string>

#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "ui/cli/commands.hpp"
#include "ui/cli/output_path.hpp"
#include "ui/cli/problem_options.hpp"
#include "ui/cli/torch_script.hpp"
#include "ui/cli/usage_error.hpp"

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
  const io::TensorMap data = torchData(problem, result);
  const std::string script = torchScript(problem.config, data, dataPath.filename().string(),
                                         scriptPath.filename().string());
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
